"""Rating pools: one ladder per kind of game, as each game kind registers them.

A pool's code is what URLs, the API and the database store. The pools are the game
kinds' (``games.registry``): each kind names its own in ``AppConfig.ready``, so they are
known once the apps are loaded, and these functions read them there each time.
"""

from __future__ import annotations

from games import registry
from games.registry import Pool

__all__ = ["Pool", "pool_choices", "pool_codes", "pool_info"]


def pool_codes() -> tuple[str, ...]:
    """Pool codes in display order: the kinds in order, each kind's pools in its order
    (rampage, classic4, classic5, wordgrid, wordgame, tow)."""
    return tuple(pool.code for pool in registry.pools())


def pool_info(code: str) -> Pool:
    """The pool ``code``; KeyError if no kind owns one by that code."""
    try:
        return registry.pool(code)
    except registry.RegistryError:
        raise KeyError(code) from None


def pool_choices() -> list[tuple[str, str]]:
    """(code, name) of every pool, the models' choices."""
    return [(pool.code, pool.name) for pool in registry.pools()]
