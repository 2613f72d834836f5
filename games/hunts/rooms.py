"""A hunt table's chat rooms, as room kinds.

- The table's chat is for its players and watchers (signed in); it goes to the table's
  group, which every socket on the table is in.
- The watchers' chat is for the signed-in people watching the table and not seated, so
  that watchers can talk among themselves without filling the players' chat; it goes to
  a group only watchers' sockets join, and exists whenever the table's chat does.
- A table with bot seats has no chat unless two people sit there (one without bots has
  chat while it waits for people); a daily challenge has none.
"""

from __future__ import annotations

from games import registry

from .broadcasts import table_group
from .models import HuntSeat, HuntTable


def _has_chat(table_id: int) -> bool:
    table = HuntTable.objects.filter(pk=table_id).only("pk", "daily_id").first()
    if table is None or table.daily_id:
        return False
    seats = list(
        HuntSeat.objects.filter(table_id=table_id, left_at__isnull=True).values_list("bot_strength", flat=True)
    )
    people = sum(1 for strength in seats if not strength)
    return people >= 2 or len(seats) == people


def _watching(table_id: int, user) -> bool:
    return not HuntSeat.objects.filter(table_id=table_id, user=user, left_at__isnull=True).exists()


TABLE = registry.RoomKind(
    code="hunt", group=table_group, has_chat=_has_chat, may_read=lambda table_id, user: True, own_group=False
)
WATCHERS = registry.RoomKind(
    code="watchers",
    group=lambda table_id: f"{table_group(table_id)}.watchers",
    has_chat=_has_chat,
    may_read=_watching,
    refusal="The watchers' chat is for the people watching this table; its players chat in the table's chat.",
)
