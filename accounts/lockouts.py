"""Log-in lock-outs: per account and address, and per address across every username.

django-axes counts failed log-ins; its database handler compares the largest count of
its lock-out parameters with one limit. The site has two limits: ``AXES_FAILURE_LIMIT``
failures for one username from one address lock that pair out (a player who forgot a
password locks nobody else out), and ``LOGIN_ADDRESS_FAILURE_LIMIT`` failures from one
address across all usernames lock the address out (a script trying a few passwords on
each of many accounts). ``AXES_LOCKOUT_PARAMETERS`` lists the two, in this order.
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from django.conf import settings
from django.db.models import Sum


class LockoutHandler(AxesDatabaseHandler):
    """axes' database handler with the per-address limit beside the per-account one."""

    def get_failures(self, request, credentials: dict | None = None) -> int:
        """The account's failures from this address; at least the limit once the address
        has failed ``LOGIN_ADDRESS_FAILURE_LIMIT`` times for any usernames."""
        account, address = (
            attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        )
        if address >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            return max(account, get_failure_limit(request, credentials))
        return account

    def reset_user_attempts(self, request, credentials: dict | None = None) -> int:
        """A success forgets the failures of that account from that address only.

        axes would delete every record of each parameter, so logging in to one account of
        its own would wipe a script's failures on all the others.
        """
        account_attempts = self.filter_user_attempts(request, credentials)[0]
        deleted, _ = account_attempts.delete()
        return deleted
