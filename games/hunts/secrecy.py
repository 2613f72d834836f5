"""Who may see a daily challenge: its table and live round are its player's alone; its
board, words and results stay secret from everyone else until they have finished their
own round or the day is over.

The one rule of daily secrecy: every place that shows a word found in a hunt round (the
board's page, round results, profile records) leaves out the finds of the challenges
``secret_challenges`` names.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from django.utils import timezone

from .models import DailyChallenge, HuntTable, RoundStatus


def today(now: datetime | None = None) -> date:
    """The challenge day of ``now``: days change at midnight UTC, for everyone at once."""
    return (now or timezone.now()).astimezone(UTC).date()


def secret_challenges(viewer, now: datetime | None = None):
    """The challenges whose board and words ``viewer`` may not see yet: every one whose
    day is not over, except those whose round the viewer has finished.

    The one rule of daily secrecy: every place that shows a word found in a hunt round
    (the board's page, round results, profile records) leaves out the finds of these.
    """
    secret = DailyChallenge.objects.filter(day__gte=today(now))
    if viewer is not None and viewer.is_authenticated:
        played = HuntTable.objects.filter(
            host_id=viewer.pk, daily__isnull=False, rounds__status=RoundStatus.FINISHED
        )  # never a NULL in NOT IN, which would make every challenge secret
        secret = secret.exclude(pk__in=played.values("daily_id"))
    return secret


def board_visible(challenge: DailyChallenge, user, now: datetime | None = None) -> bool:
    """Whether ``user`` may see ``challenge``'s board and words: once they have finished
    their own round, or once the day is over."""
    return not secret_challenges(user, now).filter(pk=challenge.pk).exists()


def daily_table_visible(table: HuntTable, user) -> bool:
    """A daily table (and its live round) is its player's alone."""
    return table.daily_id is None or (user is not None and user.is_authenticated and user.pk == table.host_id)


def daily_round_visible(game_round, user, now: datetime | None = None) -> bool:
    """A daily round's results: its player's, and anyone's who may see the board."""
    table = game_round.table
    if table.daily_id is None or (user is not None and user.is_authenticated and user.pk == table.host_id):
        return True
    return game_round.status == RoundStatus.FINISHED and board_visible(table.daily, user, now)
