"""Which chat a page has, who reads it and who writes it.

- A hunt table's chat is for its players and watchers (signed in); it goes to the
  table's group, which every socket on the table is in.
- A hunt table also has a watchers' chat, for the signed-in people watching it and not
  seated, so that watchers can talk among themselves without filling the players' chat;
  it goes to a group only watchers' sockets join.
- A crossword or TOW game's chat is for its seated players only; it goes to a group
  that only the players' sockets join, so a watcher's socket never carries it.
- Games against bots have no chat: a room needs two people who play (a hunt table
  without bot seats has chat while it waits for people; a daily challenge has none).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.hunts.broadcasts import table_group


@dataclass(frozen=True)
class Room:
    kind: str  # "hunt", "watchers" (a hunt table's), "crossword" or "tow"
    object_id: int

    @property
    def name(self) -> str:
        return f"{self.kind}.{self.object_id}"

    @property
    def group(self) -> str:
        """The channel-layer group a message of this room is sent to."""
        if self.kind == "hunt":
            return table_group(self.object_id)
        if self.kind == "watchers":
            return f"{table_group(self.object_id)}.watchers"
        return f"{self.kind}.{self.object_id}.players"

    @property
    def own_group(self) -> bool:
        """Whether a reader's socket joins the room's group when it opens the chat (a hunt
        table's chat uses the table's group, which every socket on the table is in)."""
        return self.kind != "hunt"


def reader_group(user_id: int) -> str:
    """Every chat-reading socket of one player: told when their mutes change."""
    return f"chat.reader.{user_id}"


def hunt_room(table_id: int) -> Room:
    return Room("hunt", table_id)


def watchers_room(table_id: int) -> Room:
    return Room("watchers", table_id)


def crossword_room(game_id: int) -> Room:
    return Room("crossword", game_id)


def tow_room(game_id: int) -> Room:
    return Room("tow", game_id)


def _seats(room: Room):
    """The seats of a players-only room's game."""
    if room.kind == "crossword":
        from games.crosswords.models import Seat
    elif room.kind == "tow":
        from games.tow.models import Seat
    else:
        raise ValueError(room.kind)
    return Seat.objects.filter(game_id=room.object_id)


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated and not getattr(user, "is_bot", False)


def has_chat(room: Room) -> bool:
    """Whether the room exists and is played by at least two people (or may be: an open
    table); a hunt table's watchers' chat is there whenever the table has a chat."""
    if room.kind == "watchers":
        return has_chat(hunt_room(room.object_id))
    if room.kind == "hunt":
        from games.hunts.models import HuntSeat, HuntTable

        table = HuntTable.objects.filter(pk=room.object_id).only("pk", "daily_id").first()
        if table is None or table.daily_id:
            return False
        seats = list(
            HuntSeat.objects.filter(table_id=room.object_id, left_at__isnull=True).values_list(
                "bot_strength", flat=True
            )
        )
        people = sum(1 for strength in seats if not strength)
        return people >= 2 or len(seats) == people
    if room.kind not in ("crossword", "tow"):
        return False
    users = list(_seats(room).filter(user__isnull=False).values_list("user__is_bot", flat=True))
    return sum(1 for is_bot in users if not is_bot) >= 2


def may_read(room: Room, user) -> bool:
    """Whether ``user`` may read the room (they still may have turned chat off)."""
    if not _signed_in(user) or not has_chat(room):
        return False
    if room.kind == "hunt":
        return True
    if room.kind == "watchers":
        from games.hunts.models import HuntSeat

        return not HuntSeat.objects.filter(table_id=room.object_id, user=user, left_at__isnull=True).exists()
    return _seats(room).filter(user=user).exists()


def who_may_write(room: Room) -> str:
    """Why someone who may not read a room cannot write in it either."""
    if room.kind == "watchers":
        return "The watchers' chat is for the people watching this table; its players chat in the table's chat."
    return "Only the players of this game can chat here."
