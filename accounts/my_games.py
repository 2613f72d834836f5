"""My games: a player's games of every kind in one place, and how many wait for them.

Each game kind says which of its games are where (``games.registry.MyGames``): its games
in the page's shared sections, a card of its own for games that fit none (hunt tables
and the ranked queue: hunts have no turns), and how many of its games wait for the
player's move or vote. This module only gathers them, for the My games page and the
header badge, in the kinds' order.

When one of a player's games changes, their open pages hear ``games.changed`` on their
own channel; the site socket sends it on with the new count, so the badge needs no
request of its own.
"""

from __future__ import annotations

from collections.abc import Iterable

from config.realtime import broadcast_many_on_commit, user_group
from games import registry

#: The page's sections, in page order; each kind's games go in them.
SECTIONS = ("my_turn", "invitations", "their_turn", "starting", "seeks", "finished")


def _parts() -> list[registry.MyGames]:
    return [kind.my_games for kind in registry.kinds() if kind.my_games is not None]


def awaiting_count(user) -> int:
    """Games of any kind in which it is ``user``'s turn (or vote): the header badge."""
    return sum(part.awaiting(user) for part in _parts() if part.awaiting is not None)


def my_games(*, user) -> dict:
    """Everything the My games page shows ``user``: ``sections`` (each section's listings
    that have games, kind by kind), the kinds' own ``cards``, the ``links`` to start a
    game and the ``stylesheets`` the kinds' templates need."""
    sections: dict[str, list[registry.Listing]] = {code: [] for code in SECTIONS}
    cards, links, stylesheets = [], [], []
    for part in _parts():
        links.extend(part.links)
        stylesheets.extend(part.stylesheets)
        for code, listing in (part.listings(user) if part.listings else {}).items():
            if code not in sections:
                raise registry.RegistryError(f"My games has no section {code!r}.")
            if listing.items:
                sections[code].append(listing)
        if part.card is not None:
            cards.append(part.card(user))
    return {"sections": sections, "cards": cards, "links": links, "stylesheets": stylesheets}


def games_changed(user_ids: Iterable[int], *, kind: str, game: int | None = None, also=()) -> None:
    """After the commit, tell each of these players' open pages that one of their games
    changed; their site socket adds the new badge count (``PresenceConsumer``). ``also``,
    (group, message) pairs, go out first in the same send."""
    changed = [
        (user_group(user_id), {"type": "games.changed", "kind": kind, "game": game})
        for user_id in sorted(set(user_ids))
    ]
    broadcast_many_on_commit([*also, *changed])
