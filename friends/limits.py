"""How many invitations and open seeks one player may have out at once, and send an hour.

Every way of asking others to play counts here, whatever the game: a hunt challenge
(``HuntInvitation``), an invitation to a crossword or TOW game (an unaccepted seat of a
waiting game its creator made: the new-game pages, challenges and rematch offers) and an
open seek (a waiting game with a free seat). A player may have

- ``OPEN_PER_PLAYER`` open invitations to any one player,
- ``OPEN_INVITATIONS`` open invitations in all,
- ``OPEN_SEEKS`` open seeks,
- and send ``SENT_PER_HOUR`` invitations and seeks an hour (each invited player counts one,
  answered, withdrawn or not; a seek counts one, taken or not, and its taker nothing),

so no player can flood another's notifications and inbox, or the lobby. The counts are
read from the invitations and games themselves under the sender's row lock, so two
requests at once cannot both slip under a limit. A refusal says which limit and what
to do; nothing is written.

The hunt challenges are friends' own; every other kind's invitations and seeks are
counted by the kind itself, asked through the game-kind registry (``invitations``), so
this module knows no game.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from config.errors import Refused
from games import registry

from .models import HuntInvitation, InvitationStatus

OPEN_PER_PLAYER = 1
OPEN_INVITATIONS = 10
OPEN_SEEKS = 10
SENT_PER_HOUR = 30


def _kinds() -> list[registry.Invitations]:
    """How each kind that invites with its own games counts its invitations and seeks."""
    return [invitations for _, invitations in registry.hooks("invitations")]


def open_invitations(sender, *, invitee=None, now: datetime | None = None) -> int:
    """``sender``'s invitations still waiting for an answer (to ``invitee`` only, if given)."""
    now = now or timezone.now()
    hunts = HuntInvitation.objects.filter(sender=sender, status=InvitationStatus.PENDING, expires_at__gt=now)
    if invitee is not None:
        hunts = hunts.filter(invitee=invitee)
    return hunts.count() + sum(kind.open(sender, invitee) for kind in _kinds())


def open_seeks(sender) -> int:
    """``sender``'s open seeks still waiting for a player."""
    return sum(kind.seeks(sender) for kind in _kinds())


def sent_within_hour(sender, *, now: datetime | None = None) -> int:
    """Invitations (one per invited player) and seeks ``sender`` made in the last hour."""
    since = (now or timezone.now()) - timedelta(hours=1)
    hunts = HuntInvitation.objects.filter(sender=sender, created_at__gt=since).count()
    return hunts + sum(kind.sent_since(sender, since) for kind in _kinds())


def check_allowance(sender, *, invitees=(), seek: bool = False, now: datetime | None = None) -> None:
    """Refuse ``sender`` inviting ``invitees`` (and opening a seek, if ``seek``) when it
    would take them over a limit. Locks the sender's row until the transaction ends."""
    invitees = list(invitees)
    if not invitees and not seek:
        return
    get_user_model().objects.select_for_update().filter(pk=sender.pk).values_list("pk", flat=True).first()
    now = now or timezone.now()
    for invitee in invitees:
        if open_invitations(sender, invitee=invitee, now=now) >= OPEN_PER_PLAYER:
            waiting = "an invitation" if OPEN_PER_PLAYER == 1 else f"{OPEN_PER_PLAYER} invitations"
            raise Refused(f"You have {waiting} waiting for {invitee.username} already; wait for their answer.", 429)
    if invitees and open_invitations(sender, now=now) + len(invitees) > OPEN_INVITATIONS:
        raise Refused(
            f"At most {OPEN_INVITATIONS} invitations can wait for an answer at once; withdraw one or wait for answers.",
            429,
        )
    if seek and open_seeks(sender) >= OPEN_SEEKS:
        raise Refused(f"At most {OPEN_SEEKS} of your open seeks can wait at once; withdraw one first.", 429)
    if sent_within_hour(sender, now=now) + len(invitees) + int(seek) > SENT_PER_HOUR:
        raise Refused(
            f"At most {SENT_PER_HOUR} invitations and seeks an hour; try again later.",
            429,
        )
