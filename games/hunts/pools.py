"""The hunts' rating pools: Word Rampage, and Classic per grid size, from the engine's rules."""

from __future__ import annotations

from games import registry
from games.engine import hunt

_NAMED = ((hunt.RAMPAGE, "Word Rampage"), (hunt.CLASSIC_4, "Classic 4×4"), (hunt.CLASSIC_5, "Classic 5×5"))


def _code(rules: hunt.HuntRules) -> str:
    return rules.game if rules.game == "rampage" else f"{rules.game}{rules.size}"


#: The pools in display order, and the rules of each pool's rounds.
POOLS = tuple(registry.Pool(_code(rules), name, "hunt") for rules, name in _NAMED)
RULES: dict[str, hunt.HuntRules] = {_code(rules): rules for rules, _ in _NAMED}
_NAMES = {pool.code: pool.name for pool in POOLS}


def name_of(pool: str) -> str:
    """The name people read of the hunt pool ``pool``."""
    return _NAMES[pool]


def hunt_pool(game: str, size: int) -> str:
    """The pool of a hunt round: ``game`` "rampage" or "classic" on a ``size`` grid
    (ValueError for a grid the game is not played on)."""
    return _code(hunt.rules_for(game, size))
