"""TOW engine benchmark: play checking, path finding, the bot's search and replay.

Run with ``python -m bench.bench_tow [games]``. Positions come from bot-against-bot games
with the ``en`` lexicon from fixed seeds; every play made is checked again (``evaluate``)
and its word's paths found again (``paths``) on the table it was made on. Figures are
medians. There is no TOW budget; the crossword figures give the scale: a preview
within 5 ms, a move within 20 ms of server time, and a bot's turn a few seconds at most.
"""

from __future__ import annotations

import statistics
import sys
import time

from games.engine import tow
from lexicon import wordlists


def _timed(operation, *args, **kwargs):
    """(seconds, result) of one call."""
    start = time.perf_counter()
    result = operation(*args, **kwargs)
    return time.perf_counter() - start, result


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 3
    lex = wordlists.compile_lexicon("en")
    positions, bot_turns, replays = [], [], []
    for number in range(games):
        game = tow.new_game(2, f"bench-{number}", lex)
        while not game.is_over and len(game.turns) < 40:
            seat = game.to_move
            seconds, play = _timed(tow.best_play, game.table, game.racks[seat], lex)
            bot_turns.append(seconds)
            if play is None:
                rack = game.racks[seat]
                move = tow.Move.swap(seat, rack) if len(game.bag) >= len(rack) else tow.Move.pass_(seat)
            else:
                positions.append((game.table, play))
                move = tow.Move.place(seat, play.placement, play.path)
            game = game.apply(move)
        seconds, _ = _timed(tow.replay, 2, f"bench-{number}", game.moves, lex)
        replays.append((seconds, len(game.moves)))
    evaluate = [_timed(tow.evaluate, t, p.placement, p.path, lex)[0] for t, p in positions]
    paths = [_timed(tow.paths, t, p.placement, p.main_word)[0] for t, p in positions]
    ms = 1000
    print(f"{games} bot games, {len(positions)} plays checked")
    print(f"evaluate: median {statistics.median(evaluate) * ms:.3f} ms, max {max(evaluate) * ms:.2f} ms")
    print(f"paths: median {statistics.median(paths) * ms:.3f} ms, max {max(paths) * ms:.2f} ms")
    print(
        f"bot turn (best_play, budget {tow.FIND_BUDGET}): median {statistics.median(bot_turns):.2f} s, "
        f"max {max(bot_turns):.2f} s"
    )
    per_move = [seconds / count for seconds, count in replays if count]
    print(
        f"replay: median {statistics.median(per_move) * ms:.2f} ms per move "
        f"(a {max(c for _, c in replays)}-move game in {max(s for s, _ in replays) * ms:.0f} ms)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
