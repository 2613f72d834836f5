"""Rating use cases: the only code that writes ratings and rated results.

Games record their finished ranked results here inside the transaction that finishes
them (``result_record`` and the per-game hooks); the worker applies them in order
(``ratings_apply``) after commit; ``ratings_rebuild`` replays a pool from its history.
"""

from .applying import ratings_apply, ratings_rebuild, ratings_sweep
from .recording import (
    Finish,
    RatingError,
    crossword_game_finished,
    hunt_round_finished,
    result_record,
    tow_game_finished,
)

__all__ = [
    "Finish",
    "RatingError",
    "crossword_game_finished",
    "hunt_round_finished",
    "result_record",
    "tow_game_finished",
    "ratings_apply",
    "ratings_rebuild",
    "ratings_sweep",
]
