"""Bot-against-bot games on the pure engine, for measuring strengths and learning leaves.

    result = play_game(WORD_GRID, lexicon, ("expert", "greedy"), seed="run/7",
                       frequency=zipf, clock=time.process_time)
    result.scores, result.winners, result.move_ms, result.errors

Seats take the bots in the order given (seat 0 opens Word Grid's game 1; Wordgame draws
the opener from the seed). A bot that raises or makes a move the engine refuses is
counted as an error and passes instead, so one bad move never stops a run. No Django,
no database, no clock of its own: a caller that wants each move's time passes the clock
to read (seconds, e.g. ``time.process_time``), and without one no times are kept.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from games.engine import crossword_bot
from games.engine.crossword import IllegalPlay, Variant
from games.engine.crossword_game import Game, Move, new_game

#: A game that has not ended after this many turns is stopped (it never happens with
#: the end rules; the cap keeps a broken bot from looping forever).
MAX_TURNS = 400


@dataclass
class GameResult:
    bots: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    move_ms: list[list[float]] = field(default_factory=list)  # per seat; empty without a clock
    errors: int = 0
    game: Game | None = None


def play_game(
    variant: Variant,
    lexicon,
    bots: Sequence[str],
    seed,
    *,
    frequency: Callable[[str], float] | None = None,
    on_turn: Callable[[Game, Move, Game], None] | None = None,
    choose: Callable | None = None,
    clock: Callable[[], float] | None = None,
) -> GameResult:
    """Play one game to the end; ``on_turn(before, move, after)`` sees every turn."""
    game = new_game(variant, len(bots), seed, lexicon)
    rng = random.Random(f"{seed}/bots")
    move_ms: list[list[float]] = [[] for _ in bots]
    errors = 0
    choose = choose or crossword_bot.choose
    while not game.is_over and len(game.turns) < MAX_TURNS:
        seat = game.to_move
        position = crossword_bot.Position.of(game, seat)
        started = clock() if clock is not None else 0.0
        try:
            move = choose(position, bots[seat], rng, frequency=frequency)
        except Exception:  # noqa: BLE001 — a run counts bot failures instead of dying
            move, errors = Move.pass_(seat), errors + 1
        if clock is not None:
            move_ms[seat].append((clock() - started) * 1000)
        try:
            after = game.apply(move)
        except IllegalPlay:
            errors += 1
            move = Move.pass_(seat)
            after = game.apply(move)
        if on_turn is not None:
            on_turn(game, move, after)
        game = after
    if not game.is_over:
        errors += 1
    return GameResult(tuple(bots), game.scores, game.winners(), move_ms, errors, game)
