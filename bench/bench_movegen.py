"""Crossword move generation benchmark: best move and all plays, with the ``en`` lexicon.

Run with ``python -m bench.bench_movegen [--quick] [--strict]`` (``--strict``: exit 1
when a budget is missed). Budgets (medians on one core of the dev machine,
judged on process CPU time: on the shared machine wall clock also counts the time other
processes hold the cores):

- best move by score: VsMatt (AABDELT) ≤ 2 ms, VsJeremy (DDESW??) ≤ 10 ms, an empty
  board with an 8-tile two-blank Wordgame rack ≤ 150 ms;
- all plays: VsMatt ≤ 20 ms, VsJeremy ≤ 40 ms;
- movegen's own copy of the ``en`` lexicon ≤ 10 MB (measured with tracemalloc).

The two fixed positions (public test positions of the Macondo engine) are kept in
``bench/positions``. Besides them, 50 mid-game positions per variant are built with the
engine from seeds 1–50: two greedy players (each plays ``movegen.best``) play 3 to 14
turns, then the seat to move is timed with its rack. Their figures are reported as the
median and the worst position; best by equity (a small leave table) is timed as well,
since that is what the stronger bots ask for.

Each figure is the median of several runs of one position, wall clock and process CPU
time (on a shared machine the CPU time is the steadier one). ``--quick`` times fewer
runs and positions.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

from games.engine import movegen
from games.engine.crossword import WORD_GRID, WORDGAME, Board, Move, new_game
from lexicon import wordlists

POSITIONS = Path(__file__).resolve().parent / "positions"
FIXED = (("vsmatt", "aabdelt"), ("vsjeremy", "ddesw??"))
BEST_BUDGET_MS = {"vsmatt": 2.0, "vsjeremy": 10.0, "empty": 150.0}
ALL_BUDGET_MS = {"vsmatt": 20.0, "vsjeremy": 40.0}
MEMORY_BUDGET_MB = 10.0
# Eight-tile Wordgame racks with two blanks for the empty board: a bingo-prone one,
# an ordinary one, and one heavy in consonants.
EMPTY_RACKS = ("aeinst??", "eeilnr??", "cdgmor??")
MID_GAME_SEEDS = range(1, 51)

# A small leave table (a few well-known kept-tile values) for the equity timings.
LEAVE_TILES = {
    "?": 25.0,
    "s": 8.0,
    "z": 3.0,
    "x": 3.5,
    "e": 1.5,
    "r": 1.0,
    "q": -7.0,
    "v": -5.0,
    "w": -3.5,
    "u": -3.0,
    "i": -1.0,
}


def leave_value(leave: str) -> float:
    """A rough leave value: a value per kept tile, less for duplicates."""
    value = sum(LEAVE_TILES.get(tile, -0.5) for tile in leave)
    return value - 2.0 * (len(leave) - len(set(leave)))


def load_position(name: str) -> Board:
    """A ``.rows`` file: one board row per line, a space for an empty square."""
    return Board.from_rows((POSITIONS / f"{name}.rows").read_text().split("\n"))


def timed(runs: int, call, *args, **kwargs) -> tuple[float, float, object]:
    """Median wall-clock and CPU milliseconds of ``call(*args, **kwargs)`` over ``runs``
    runs, and its last result."""
    wall, cpu = [], []
    result = None
    for _ in range(runs):
        gc.collect()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = call(*args, **kwargs)
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return statistics.median(wall), statistics.median(cpu), result


def mid_game_position(variant, seed: int, lexicon) -> tuple[Board, str]:
    """Board and rack to move after 3 to 14 greedy turns of a game from ``seed``."""
    game = new_game(variant, 2, seed, lexicon)
    for _ in range(3 + seed % 12):
        seat = game.to_move
        play = movegen.best(game.board, game.racks[seat], variant, lexicon)
        move = Move.place(seat, play.placement) if play else Move.pass_(seat)
        game = game.apply(move)
        if game.is_over:
            break
    return game.board, game.racks[game.to_move]


def verdict(figure: float, budget: float | None) -> str:
    if budget is None:
        return ""
    return f"  budget {budget:g} ms: {'ok' if figure <= budget else 'OVER BUDGET'}"


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    runs = 3 if quick else 9
    seeds = MID_GAME_SEEDS[:10] if quick else MID_GAME_SEEDS
    print(
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        f" on {os.cpu_count()} cores (figures are medians; cpu = process time)"
    )
    start = time.perf_counter()
    lexicon = wordlists.compile_lexicon("en")
    print(f"en lexicon: {len(lexicon)} words, loaded in {time.perf_counter() - start:.2f} s")
    tracemalloc.start()
    start = time.perf_counter()
    movegen.dawg(lexicon)
    built = (time.perf_counter() - start) * 1000
    size, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    over = size / 1e6 > MEMORY_BUDGET_MB
    print(
        f"movegen's copy of en: {size / 1e6:.1f} MB (peak {peak / 1e6:.1f} MB while built,"
        f" in {built:.0f} ms){verdict(size / 1e6, MEMORY_BUDGET_MB).replace(' ms', ' MB')}"
    )

    print("\nfixed positions, Word Grid, en")
    for name, rack in FIXED:
        board = load_position(name)
        movegen.generate(board, rack, WORD_GRID, lexicon)  # warm-up
        wall, cpu, plays = timed(runs, movegen.generate, board, rack, WORD_GRID, lexicon)
        over |= cpu > ALL_BUDGET_MS[name]
        print(
            f"  {name:9} {rack.upper():8} all plays ({len(plays):5}) {wall:7.2f} ms"
            f" (cpu {cpu:7.2f}){verdict(cpu, ALL_BUDGET_MS[name])}"
        )
        wall, cpu, play = timed(runs, movegen.best, board, rack, WORD_GRID, lexicon)
        over |= cpu > BEST_BUDGET_MS[name]
        print(
            f"  {name:9} {rack.upper():8} best ({play.score:3})        {wall:7.2f} ms"
            f" (cpu {cpu:7.2f}){verdict(cpu, BEST_BUDGET_MS[name])}"
        )
        wall, cpu, play = timed(runs, movegen.best, board, rack, WORD_GRID, lexicon, leave_value=leave_value)
        print(f"  {name:9} {rack.upper():8} best by equity ({play.equity:5.1f}) {wall:7.2f} ms (cpu {cpu:7.2f})")

    print("\nempty board, Wordgame, 8-tile racks with two blanks")
    bests = []
    for rack in EMPTY_RACKS:
        wall, cpu, play = timed(max(3, runs // 3), movegen.best, Board.empty(), rack, WORDGAME, lexicon)
        bests.append(cpu)
        print(f"  {rack.upper():9} best ({play.score:3}) {wall:7.1f} ms (cpu {cpu:7.1f})")
        if not quick:
            wall, cpu, plays = timed(1, movegen.generate, Board.empty(), rack, WORDGAME, lexicon)
            print(f"  {rack.upper():9} all plays ({len(plays)}) {wall:7.1f} ms (cpu {cpu:7.1f})")
    median = statistics.median(bests)
    over |= median > BEST_BUDGET_MS["empty"]
    print(
        f"  best, median of the racks (cpu) {median:.1f} ms, worst {max(bests):.1f} ms"
        f"{verdict(median, BEST_BUDGET_MS['empty'])}"
    )

    for variant in (WORD_GRID, WORDGAME):
        start = time.perf_counter()
        positions = [mid_game_position(variant, seed, lexicon) for seed in seeds]
        print(
            f"\n{len(positions)} mid-game {variant.name} positions (seeds"
            f" {seeds[0]}-{seeds[-1]}, built in {time.perf_counter() - start:.1f} s)"
        )
        figures: dict[str, list[tuple[float, float]]] = {"best": [], "best by equity": [], "all plays": []}
        counts = []
        for board, rack in positions:
            figures["best"].append(timed(3, movegen.best, board, rack, variant, lexicon)[:2])
            figures["best by equity"].append(
                timed(3, movegen.best, board, rack, variant, lexicon, leave_value=leave_value)[:2]
            )
            wall, cpu, plays = timed(3, movegen.generate, board, rack, variant, lexicon)
            figures["all plays"].append((wall, cpu))
            counts.append(len(plays))
        for label, values in figures.items():
            walls = [wall for wall, _ in values]
            cpus = [cpu for _, cpu in values]
            print(
                f"  {label:15} median {statistics.median(walls):7.2f} ms"
                f" (cpu {statistics.median(cpus):6.2f}), worst {max(walls):7.2f} ms"
                f" (cpu {max(cpus):6.2f})"
            )
        ratios = [all_[1] / best[1] for best, all_ in zip(figures["best"], figures["all plays"])]
        print(
            f"  all plays / best (cpu): median {statistics.median(ratios):.1f}x;"
            f" median {statistics.median(counts):.0f} plays, most {max(counts)}"
        )
    print("\nbudgets: " + ("SOME OVER (see above)" if over else "all met"))
    # A miss fails the run only when asked: on a loaded shared machine wall-clock
    # figures swing, and one bench should not stop `make bench` running the others.
    return 1 if over and "--strict" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
