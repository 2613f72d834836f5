"""Post-game analysis: each move of a finished game against the best plays of its position.

For every play, swap and pass the game is rebuilt to the position the player faced, and
the expert bot's evaluation (``crossword_bot.ranked``: score plus the learned leave
value) lists the best plays there, and ``crossword_bot.best_swap`` the best swap (when
the bag allows one): the tiles to give back and the leave's worth. A move's *equity
loss* is how much equity the best alternative, play or swap, had over the move made, so
a play or a swap is judged against a better swap too; its *score loss* how many more
points the highest-scoring play would have made. Per player: the average equity loss
and the best move missed (the best alternative of the move that lost most). Only
information public after the game is used: the racks each player held, which the
finished game shows anyway.

Offensive words (``lexicon.offensive``) are kept in the stored analysis, with every word
each alternative forms, and hidden when it is shown (``analysis_shown.for_viewer``) unless
the viewer chose to see them.

Written once per game (``Analysis`` is one row per game): a second run finds it and
returns it, and two runs at once leave one row.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from games.engine import crossword_bot, leaves, movegen
from games.engine import crossword_game as engine
from games.engine.crossword import square_name

from .. import selectors
from ..analysis_shown import ALTERNATIVES, best_missed
from ..models import Analysis, Game, Status
from . import notifications

#: More alternatives kept per move than are shown, to stand in for those with an
#: offensive word when the viewer hides them.
SPARE_ALTERNATIVES = 3


def _describe(play) -> dict:
    row, col = min((r, c) for r, c, _, _ in play.placement)
    return {
        "kind": engine.PLACE,
        "word": play.main_word.upper(),
        "words": [word for word, _ in play.words],
        "square": square_name(row, col),
        "across": play.across,
        "score": play.score,
        "equity": round(play.equity, 1),
        "leave": play.leave,
        "placement": [list(tile) for tile in play.placement],
    }


def analyse_position(before: engine.Game, move: engine.Move) -> dict | None:
    """The analysis of one move: what was played and the best plays of its position."""
    if move.kind not in (engine.PLACE, engine.SWAP, engine.PASS):
        return None
    position = crossword_bot.Position.of(before, move.seat)
    table = leaves.learned(before.variant.name)
    value = crossword_bot.leave_function(position, table)
    best = crossword_bot.ranked(position, table, ALTERNATIVES + SPARE_ALTERNATIVES)
    swap = crossword_bot.best_swap(position, value)
    top = movegen.best(position.board, position.rack, position.variant, position.lexicon)
    highest = top.score if top else 0
    rack = position.rack
    if move.kind == engine.PLACE:
        used = "".join("?" if blank else letter for _, _, letter, blank in move.placement)
        kept = crossword_bot.leave_of_tiles(rack, used)
        score = before.apply(move).turns[-1].score
    elif move.kind == engine.SWAP:
        kept, score = crossword_bot.leave_of_tiles(rack, move.tiles), 0
    else:
        kept, score = rack, 0
    equity = score + value(kept)
    best_equity = max([equity] + [play.equity for play in best[:1]] + ([swap[0]] if swap else []))
    return {
        "seat": move.seat,
        "rack": rack,
        "played": {"kind": move.kind, "score": score, "equity": round(equity, 1), "leave": kept},
        "best": [_describe(play) for play in best],
        "best_swap": (
            {
                "kind": engine.SWAP,
                "tiles": swap[1],
                "leave": crossword_bot.leave_of_tiles(rack, swap[1]),
                "score": 0,
                "equity": round(swap[0], 1),
            }
            if swap
            else None
        ),
        "score_loss": max(0, highest - score),
        "equity_loss": round(max(0.0, best_equity - equity), 1),
    }


def analyse(game: Game) -> tuple[list[dict], list[dict]]:
    """Per-move analysis and per-seat summary of a stored game (no writes)."""
    stored = list(game.moves.order_by("number"))
    state = selectors.engine_state(game, moves=[])
    rows = []
    for move in stored:
        engine_move = selectors.engine_move(move)
        row = analyse_position(state, engine_move)
        if row is not None:
            row["number"] = move.number
            rows.append(row)
        state = state.apply(engine_move)
    summary = []
    for seat in range(game.players):
        mine = [row for row in rows if row["seat"] == seat]
        summary.append(
            {
                "seat": seat,
                "moves": len(mine),
                "average_equity_loss": round(sum(r["equity_loss"] for r in mine) / len(mine), 1) if mine else 0.0,
                "best_missed": best_missed(mine),
            }
        )
    return rows, summary


def game_analyse(*, game_id: int) -> Analysis | None:
    """Analyse a finished game once; None if it is not finished (or does not exist)."""
    existing = Analysis.objects.filter(game_id=game_id).first()
    if existing is not None:
        return existing
    game = Game.objects.filter(pk=game_id, status=Status.FINISHED).first()
    if game is None:
        return None
    # The engine work happens before the transaction: it holds no lock while it thinks.
    rows, summary = analyse(game)
    try:
        with transaction.atomic():
            analysis = Analysis.objects.create(game=game, moves=rows, summary=summary)
            notifications.analysis_ready(game)
            return analysis
    except IntegrityError:  # another run wrote it first
        return Analysis.objects.get(game_id=game_id)
