"""Friends reads: the friends list with who is online and what they play."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils import timezone

from accounts.models import OnlineConnection
from accounts.services import PRESENCE_STALE_AFTER
from games.crosswords.models import Seat, Status
from games.hunts.models import HuntSeat, TableStatus
from games.tow.models import Seat as TowSeat
from games.tow.models import Status as TowStatus

from .models import Follow, HuntInvitation, InvitationStatus


@dataclass
class Friend:
    user: object
    online: bool = False
    crossword_games: int = 0
    tow_games: int = 0
    hunt_table: object = None  # the table they sit at now, if any
    since: object = None

    @property
    def playing(self) -> str:
        parts = []
        if self.hunt_table is not None:
            parts.append(f"at a {self.hunt_table.get_game_display()} table")
        if self.crossword_games:
            parts.append(f"{self.crossword_games} crossword game{'s' if self.crossword_games != 1 else ''}")
        if self.tow_games:
            parts.append(f"{self.tow_games} TOW game{'s' if self.tow_games != 1 else ''}")
        return " · ".join(parts)


def is_following(user, other) -> bool:
    return user.is_authenticated and Follow.objects.filter(follower=user, followed=other).exists()


def friends(user) -> list[Friend]:
    """The players ``user`` follows, online first, then by name; five queries in all."""
    follows = list(Follow.objects.filter(follower=user).select_related("followed"))
    ids = [f.followed_id for f in follows]
    fresh = timezone.now() - PRESENCE_STALE_AFTER
    online = set(OnlineConnection.objects.filter(user_id__in=ids, seen_at__gte=fresh).values_list("user_id", flat=True))
    games = dict(
        Seat.objects.filter(user_id__in=ids, game__status=Status.ACTIVE)
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    tow_games = dict(
        TowSeat.objects.filter(user_id__in=ids, game__status=TowStatus.ACTIVE)
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    tables = {}
    for seat in (
        HuntSeat.objects.filter(user_id__in=ids, left_at__isnull=True)
        .exclude(table__status=TableStatus.CLOSED)
        .select_related("table")
        .order_by("-joined_at")
    ):
        tables.setdefault(seat.user_id, seat.table)
    listed = [
        Friend(
            user=f.followed,
            online=f.followed_id in online,
            crossword_games=games.get(f.followed_id, 0),
            tow_games=tow_games.get(f.followed_id, 0),
            hunt_table=tables.get(f.followed_id),
            since=f.created_at,
        )
        for f in follows
    ]
    listed.sort(key=lambda f: (not f.online, f.user.username.lower()))
    return listed


def followers_count(user) -> int:
    return Follow.objects.filter(followed=user).count()


def pending_hunt_invitations(user) -> list[HuntInvitation]:
    return list(
        HuntInvitation.objects.filter(
            Q(invitee=user) | Q(sender=user), status=InvitationStatus.PENDING, expires_at__gt=timezone.now()
        ).select_related("sender", "invitee", "table")
    )
