"""Hunt use cases: the only code that changes tables, seats, rounds and found words.

People (views, consumers), bots and the deadline sweep all call these; each use case is
one transaction, and its broadcasts and follow-up tasks are queued after commit
(``games.hunts.broadcasts``).
"""

from .connections import connection_close, connection_open, connection_sweep, connection_touch
from .daily import daily_play
from .errors import Refused
from .matchmaking import match_pool, queue_cancel, queue_join, queue_play_bot, queue_touch
from .rounds import round_end, round_start, rounds_sweep
from .submissions import (
    SubmitResult,
    find_announced,
    forget_finds,
    round_prepare_soon,
    round_submit,
    round_submit_async,
)
from .tables import (
    round_leave,
    table_add_bot,
    table_arrange,
    table_create,
    table_free_kept_seat,
    table_join,
    table_leave,
    tables_sweep,
)

__all__ = [
    "Refused",
    "SubmitResult",
    "daily_play",
    "find_announced",
    "forget_finds",
    "match_pool",
    "queue_cancel",
    "queue_join",
    "queue_play_bot",
    "queue_touch",
    "connection_close",
    "connection_open",
    "connection_sweep",
    "connection_touch",
    "round_end",
    "round_leave",
    "round_prepare_soon",
    "round_start",
    "round_submit",
    "round_submit_async",
    "rounds_sweep",
    "table_add_bot",
    "table_arrange",
    "table_create",
    "table_free_kept_seat",
    "table_join",
    "table_leave",
    "tables_sweep",
]
