"""Crossword move generation benchmark (DESIGN.md budgets: < 20 ms VsMatt, < 300 ms VsJeremy).

Run with ``python -m bench.bench_movegen``. Measures ``movegen.generate`` (all plays)
with the ``en`` lexicon on:

- the two shared positions of ``../shared/bench`` (VsMatt with AABDELT, VsJeremy with
  DDESW??), looked up in $MOVEGEN_BENCH_DIR, beside the checkout, or in the copies
  under ``tests/unit/golden/positions``;
- 20 fixed mid-game Word Grid positions, built by the game state machine from seeds 1–20
  (both seats play their best-scoring play for 8 turns), each timed with the rack of the
  seat to move without a blank and with one of its tiles turned into a blank.

Each figure is the median of several runs of one position; the summary gives medians
over positions. The one-off cost of turning the lexicon into movegen's DAWG dicts is
reported separately.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from pathlib import Path

from games.engine import crossword, movegen
from games.engine.crossword import WORD_GRID, Board, Move
from lexicon import wordlists

RUNS = 7
MID_GAME_SEEDS = range(1, 21)
MID_GAME_TURNS = 8
BUDGETS_MS = {"vsmatt": 20.0, "vsjeremy": 300.0}
SHARED = (("vsmatt", "aabdelt"), ("vsjeremy", "ddesw??"))


def bench_dir() -> Path:
    configured = os.environ.get("MOVEGEN_BENCH_DIR")
    if configured:
        return Path(configured)
    repo = Path(__file__).resolve().parent.parent
    # The shared folder beside the checkout, else the copies kept for the golden tests.
    copies = repo / "tests" / "unit" / "golden" / "positions"
    for candidate in (repo.parent / "shared" / "bench", copies):
        if candidate.is_dir():
            return candidate
    raise SystemExit("no benchmark positions: set MOVEGEN_BENCH_DIR")


def load_position(name: str) -> Board:
    """A ``.rows`` file: one board row per line, a space for an empty square."""
    text = (bench_dir() / f"{name}.rows").read_text()
    return Board.from_rows(text.split("\n"))


def time_generate(board: Board, rack: str, lexicon, runs: int = RUNS) -> tuple[float, float, int]:
    """Median wall-clock and CPU milliseconds of ``generate`` over ``runs`` runs, and the
    number of plays. On a shared machine the CPU time is the steadier figure."""
    wall = []
    cpu = []
    plays = 0
    for _ in range(runs):
        gc.collect()
        start, start_cpu = time.perf_counter(), time.process_time()
        plays = len(movegen.generate(board, rack, WORD_GRID, lexicon))
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return statistics.median(wall), statistics.median(cpu), plays


def mid_game_position(seed: int, lexicon) -> tuple[Board, str]:
    """Board and rack to move after ``MID_GAME_TURNS`` best-score turns from ``seed``."""
    game = crossword.new_game(WORD_GRID, 2, seed, lexicon)
    for _ in range(MID_GAME_TURNS):
        seat = game.to_move
        play = movegen.best(game.board, game.racks[seat], WORD_GRID, lexicon)
        move = Move.place(seat, play.placement) if play else Move.pass_(seat)
        game = game.apply(move)
        if game.is_over:
            break
    return game.board, game.racks[game.to_move]


def with_and_without_blank(rack: str) -> tuple[str, str]:
    """The rack with its blanks turned into E, and with one more tile made a blank."""
    plain = rack.replace("?", "e")
    blank = "?" + plain[1:] if "?" not in rack else rack.replace("?", "e", rack.count("?") - 1)
    return plain, blank


def main() -> int:
    start = time.perf_counter()
    lexicon = wordlists.compile_lexicon("en")
    print(f"en lexicon: {len(lexicon)} words, loaded in {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    movegen.dawg(lexicon)
    built = (time.perf_counter() - start) * 1000
    print(f"movegen DAWG dicts built in {built:.0f} ms (once per lexicon)")

    failed = False
    for name, rack in SHARED:
        board = load_position(name)
        movegen.generate(board, rack, WORD_GRID, lexicon)  # warm-up
        median, cpu, plays = time_generate(board, rack, lexicon)
        budget = BUDGETS_MS[name]
        verdict = "ok" if median < budget else "OVER BUDGET"
        failed |= median >= budget
        print(f"{name:9} {rack.upper():8} {plays:6} plays  median {median:7.1f} ms"
              f" (cpu {cpu:6.1f} ms)  budget {budget:.0f} ms: {verdict}")

    start = time.perf_counter()
    positions = [mid_game_position(seed, lexicon) for seed in MID_GAME_SEEDS]
    print(f"{len(positions)} mid-game positions built in {time.perf_counter() - start:.1f} s")
    for label, pick in (("no blank", 0), ("one blank", 1)):
        medians = []
        cpus = []
        counts = []
        for board, rack in positions:
            median, cpu, plays = time_generate(
                board, with_and_without_blank(rack)[pick], lexicon, 3)
            medians.append(median)
            cpus.append(cpu)
            counts.append(plays)
        print(f"mid-game, {label:9}: median {statistics.median(medians):6.1f} ms"
              f" (cpu {statistics.median(cpus):6.1f} ms), max {max(medians):6.1f} ms,"
              f" median {statistics.median(counts):.0f} plays")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
