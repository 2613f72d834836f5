"""My games: a player's games of every kind in one place, and how many wait for them.

Each game app says which of its games wait for a player, by its own turn rule, in its
selectors; this module only gathers them, for the My games page and the header badge.
Hunts have no turns (a round is played live, at its table), so no hunt waits for a
player: the page lists the tables they sit at and their place in the ranked queue.

When one of a player's games changes, their open pages hear ``games.changed`` on their
own channel; the site socket sends it on with the new count, so the badge needs no
request of its own.
"""

from __future__ import annotations

from collections.abc import Iterable

from config.realtime import broadcast_on_commit, user_group


def _awaiting_rules():
    """Each turn-based game app's own "waits for this player" count, by user or user id."""
    from games.crosswords import selectors as crosswords
    from games.tow import selectors as tow

    return (
        lambda user: crosswords.games_awaiting_move_count(user=user),
        lambda user: tow.games_awaiting(user=user).count(),
    )


def awaiting_count(user) -> int:
    """Games of any kind in which it is ``user``'s turn (or vote): the header badge."""
    return sum(rule(user) for rule in _awaiting_rules())


def my_games(*, user) -> dict:
    """Everything the My games page lists for ``user``, by game kind."""
    from friends import selectors as friends
    from games.crosswords import selectors as crosswords
    from games.hunts import selectors as hunts
    from games.hunts.services.matchmaking import queue_status
    from games.tow import selectors as tow

    return {
        "crossword": crosswords.my_games(user=user),
        "crossword_seeks": crosswords.open_seeks(user=user),
        "tow": tow.my_games(user=user),
        "tow_seeks": tow.open_seeks(user=user),
        "hunt_tables": hunts.player_tables(user),
        "hunt_invitations": [i for i in friends.pending_hunt_invitations(user) if i.invitee_id == user.pk],
        "ranked": queue_status(user),
    }


def games_changed(user_ids: Iterable[int], *, kind: str, game: int | None = None) -> None:
    """After the commit, tell each of these players' open pages that one of their games
    changed; their site socket adds the new badge count (``PresenceConsumer``)."""
    for user_id in sorted(set(user_ids)):
        broadcast_on_commit(user_group(user_id), {"type": "games.changed", "kind": kind, "game": game})
