"""Which chat a page has, who reads it and who writes it, as the game kinds say.

A room is a game kind's (``games.registry.RoomKind``): a hunt table's chat for its
players and watchers and its watchers' own chat, a crossword or TOW game's chat for its
seated players. The kind says where the room's messages go, whether the room has chat
and who may read it; chat adds what is the same everywhere: only a signed-in person (not
a bot) reads or writes, and writing needs the right to read. A room whose kind is not
registered has no chat.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import registry


@dataclass(frozen=True)
class Room:
    kind: str  # a room kind's code: "hunt", "watchers", "crossword", "tow"
    object_id: int

    @property
    def name(self) -> str:
        return f"{self.kind}.{self.object_id}"

    @property
    def _kind(self) -> registry.RoomKind:
        return registry.room_kind(self.kind)

    @property
    def group(self) -> str:
        """The channel-layer group a message of this room is sent to."""
        return self._kind.group(self.object_id)

    @property
    def own_group(self) -> bool:
        """Whether a reader's socket joins the room's group when it opens the chat."""
        return self._kind.own_group


def reader_group(user_id: int) -> str:
    """Every chat-reading socket of one player: told when their mutes change."""
    return f"chat.reader.{user_id}"


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated and not getattr(user, "is_bot", False)


def has_chat(room: Room) -> bool:
    """Whether the room exists and is played by at least two people (or may be: an open
    table)."""
    try:
        kind = registry.room_kind(room.kind)
    except registry.RegistryError:
        return False
    return kind.has_chat(room.object_id)


def may_read(room: Room, user) -> bool:
    """Whether ``user`` may read the room (they still may have turned chat off)."""
    if not _signed_in(user) or not has_chat(room):
        return False
    return registry.room_kind(room.kind).may_read(room.object_id, user)


def who_may_write(room: Room) -> str:
    """Why someone who may not read a room cannot write in it either."""
    try:
        return registry.room_kind(room.kind).refusal
    except registry.RegistryError:
        return "There is no chat here."
