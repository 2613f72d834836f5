"""Rating use cases: the only code that writes ratings and rated results.

Games record their finished ranked results here inside the transaction that finishes
them (``outcome_record``, heard through ``games.registry.game_finished``, and
``result_record``); the worker applies them in order
(``ratings_apply``) after commit; ``ratings_rebuild`` replays a pool from its history;
staff void a result with ``result_void`` (its pool is replayed).
"""

from .applying import ratings_apply, ratings_overdue, ratings_rebuild, ratings_sweep, result_void
from .recording import (
    Finish,
    RatingError,
    outcome_record,
    result_record,
)

__all__ = [
    "Finish",
    "RatingError",
    "outcome_record",
    "result_record",
    "ratings_apply",
    "ratings_overdue",
    "ratings_rebuild",
    "ratings_sweep",
    "result_void",
]
