"""Rating pools: one ladder per kind of game, named from the engine's own tables.

A pool's code is what URLs, the API and the database store. Hunt pools come from the
engine's hunt rules (Rampage, and Classic per grid size), crossword pools from its
variant tables; the TOW pool joins when TOW games are rated.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import crossword, hunt


@dataclass(frozen=True)
class Pool:
    """One rating ladder: its code, the name people read, and the family of games."""

    code: str
    name: str
    family: str  # "hunt", "crossword" or "tow"
    hunt_rules: hunt.HuntRules | None = None  # the rules of a hunt pool's rounds


def _hunt_pool(rules: hunt.HuntRules, name: str) -> Pool:
    code = rules.game if rules.game == "rampage" else f"{rules.game}{rules.size}"
    return Pool(code, name, "hunt", rules)


_POOLS = (
    _hunt_pool(hunt.RAMPAGE, "Word Rampage"),
    _hunt_pool(hunt.CLASSIC_4, "Classic 4×4"),
    _hunt_pool(hunt.CLASSIC_5, "Classic 5×5"),
    Pool(crossword.WORD_GRID.name, "Word Grid", "crossword"),
    Pool(crossword.WORDGAME.name, "Wordgame", "crossword"),
    Pool("tow", "TOW", "tow"),
)

#: Pool codes in display order: rampage, classic4, classic5, wordgrid, wordgame, tow.
POOLS: tuple[str, ...] = tuple(pool.code for pool in _POOLS)
POOL_INFO: dict[str, Pool] = {pool.code: pool for pool in _POOLS}
POOL_CHOICES = [(pool.code, pool.name) for pool in _POOLS]


def hunt_pool(game: str, size: int) -> str:
    """The pool of a hunt round: ``game`` "rampage" or "classic" on a ``size`` grid."""
    return _hunt_pool(hunt.rules_for(game, size), "").code


def crossword_pool(variant: str) -> str:
    """The pool of a crossword game of ``variant`` ("wordgrid" or "wordgame")."""
    return crossword.variant_named(variant).name
