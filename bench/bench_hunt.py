"""Hunt solver benchmark: ``hunt.solve`` on random 5×5 boards with the ``en`` lexicon.

Run with ``python -m bench.bench_hunt [boards]``. Boards are Classic 5×5 dice rolls from
fixed seeds (not redrawn, so easy and hard boards both count); the figure is the median
time per board over all boards, taken as the median of several runs. Budget:
median < 2 ms. Rampage-sized boards (4×4 from the letter bag) are reported alongside.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from games.engine import hunt
from lexicon import wordlists

RUNS = 5
BUDGET_MS = 2.0


def _boards(count: int, size: int) -> list[hunt.Board]:
    boards = []
    for seed in range(count):
        rng = random.Random(seed)
        if size == 5:
            boards.append(hunt._draw_classic(rng, 5))
        else:
            boards.append(hunt._draw_rampage(rng, 4))
    return boards


def _median_ms(boards: list[hunt.Board], lex, min_length: int) -> tuple[float, int]:
    runs = []
    words = []
    for _ in range(RUNS):
        times = []
        for board in boards:
            start = time.perf_counter()
            found = hunt.solve(board, lex, min_length)
            times.append(time.perf_counter() - start)
            words.append(len(found))
        runs.append(statistics.median(times))
    return statistics.median(runs) * 1000, int(statistics.median(words))


def main(argv: list[str]) -> int:
    count = int(argv[0]) if argv else 300
    start = time.perf_counter()
    lex = wordlists.compile_lexicon("en")
    load_ms = (time.perf_counter() - start) * 1000
    print(f"en lexicon: {len(lex)} words, loaded in {load_ms:.0f} ms")
    five_ms, five_words = _median_ms(_boards(count, 5), lex, 3)
    four_ms, four_words = _median_ms(_boards(count, 4), lex, 2)
    verdict = "within" if five_ms < BUDGET_MS else "OVER"
    print(
        f"solve 5x5 (min 3 letters): median {five_ms:.2f} ms over {count} boards, "
        f"median {five_words} words  [{verdict} budget {BUDGET_MS} ms]"
    )
    print(f"solve 4x4 Rampage (min 2 letters): median {four_ms:.2f} ms, median {four_words} words")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
