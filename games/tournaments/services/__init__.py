"""Tournament use cases: the only code that changes tournament rows (one transaction each)."""

from .arena import arena_seat, arenas_sweep
from .common import DIRECTORS_GROUP, is_director, plays_tournaments, settings_chosen
from .events import (
    EDITABLE,
    MAX_CHECK_IN,
    MAX_PLAYERS,
    editable_values,
    entry_check_in,
    entry_register,
    entry_withdraw,
    tournament_cancel,
    tournament_create,
    tournament_edit,
    tournament_pause,
    tournament_remind,
    tournament_resume,
    tournament_start,
)
from .rounds import (
    advance,
    game_finished,
    pairing_start,
    pairings_replayed,
    pairings_start_lost,
    result_correct,
    round_pair_next,
)
from .schedule import events_start_due, schedules_create

__all__ = [
    "DIRECTORS_GROUP",
    "EDITABLE",
    "MAX_CHECK_IN",
    "MAX_PLAYERS",
    "advance",
    "arena_seat",
    "arenas_sweep",
    "editable_values",
    "entry_check_in",
    "entry_register",
    "entry_withdraw",
    "events_start_due",
    "game_finished",
    "is_director",
    "pairing_start",
    "pairings_replayed",
    "pairings_start_lost",
    "plays_tournaments",
    "result_correct",
    "round_pair_next",
    "schedules_create",
    "settings_chosen",
    "tournament_cancel",
    "tournament_create",
    "tournament_edit",
    "tournament_pause",
    "tournament_remind",
    "tournament_resume",
    "tournament_start",
]
