"""The chat room of a game played in turns (Word Grid, Wordgame, TOW), as a room kind.

A game's chat is for its seated players only, and exists once two of them are people
(a game against bots has none); its messages go to a group only the players' sockets
join, so a watcher's socket never carries them.
"""

from __future__ import annotations

from games import registry


def seated_players_room(code: str, seat_model) -> registry.RoomKind:
    """The room kind ``code`` of the games whose seats are ``seat_model``'s rows."""

    def has_chat(game_id: int) -> bool:
        seated = seat_model.objects.filter(game_id=game_id, user__isnull=False).values_list("user__is_bot", flat=True)
        return sum(1 for is_bot in seated if not is_bot) >= 2

    def may_read(game_id: int, user) -> bool:
        return seat_model.objects.filter(game_id=game_id, user=user).exists()

    return registry.RoomKind(
        code=code, group=lambda game_id: f"{code}.{game_id}.players", has_chat=has_chat, may_read=may_read
    )
