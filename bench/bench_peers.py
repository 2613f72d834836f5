"""The engine beside peer engines, in one run: move generation, the hunt solver, lookups.

Run with ``python -m bench.bench_peers [--quick]``. Figures are medians of process CPU
time (steadier than the wall clock on a shared machine); the load average is printed.
The engine is timed in the build this process runs (compiled where ``make engine``
built it), then once more in a child process under the pure-Python build.

Peers, each timed only where it is installed (none is a dependency of the project):

- ``wordfeudbot`` (PyPI, GPL-2.0): a pure-Python board move generator (a trie walked
  from every square of every line). Its board has Wordfeud's premium squares and letter
  values, so its plays and scores differ a little from ours; the work is the same
  search. ``pip install --no-deps wordfeudbot==1.1.0`` to compare.
- ``pyggle`` (PyPI, MIT): a pure-Python Boggle solver (a trie of dicts walked from every
  square); its trie is built once, then each board is solved. ``pip install --no-deps
  pyggle==1.2.0``.

- MAGPIE (C, GPL-3.0; a KWG with shadow bounds and a word map), when ``MAGPIE_LIB``
  names its shared library (``make libmagpie`` in a checkout of it built as its README
  says, outside this repository; nothing of it is kept here) and ``MAGPIE_DATA`` a
  folder for its data. The bench writes the ``en`` words, the premium layout and the
  letter distribution there from this engine's own tables, has MAGPIE convert them
  (``convert text2kwg``, ``text2wordmap``, ``createdata klv``: zero leave values, so it
  ranks by score) and times its ``generate`` command through the library's string API,
  in this process. Its figures include parsing the command and writing the moves out
  as text, so they overstate its search a little. Its default build takes 7-tile racks;
  ``MAGPIE_LIB8`` names a second build with ``RACK_SIZE=8`` for the empty-board 8-tile
  racks (its data goes to ``$MAGPIE_DATA/rack8``), timed in both engines under Word Grid's
  rules with an 8-tile rack, as that build plays them; without it those are not compared. Beside the medians, each MAGPIE figure
  has a paired ratio: 21 times, our engine and then MAGPIE on the same position, back
  to back, and the median of ours / MAGPIE. That ratio is the one to judge by: on a
  shared machine the engine's own medians move up to 1.7× between runs a minute apart,
  with the neighbours.

Targets: all plays and the best move within 8 times MAGPIE's time, or, without it, at
least 12 times faster than wordfeudbot on the same positions; the hunt solver at least 3 times faster than pyggle; at least 2 million
lexicon look-ups a second.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.bench_movegen import EMPTY_RACKS, load_position
from games.engine import build, hunt, movegen
from games.engine.crossword import WORD_GRID, Board
from lexicon import wordlists

FIXED = (("vsmatt", "aabdelt"), ("vsjeremy", "ddesw??"))
# The empty board's 8-tile two-blank racks are timed under Word Grid's rules with an
# 8-tile rack: the rules MAGPIE's RACK_SIZE=8 build plays (two-letter first words, word
# multipliers multiplied, 50 points for all tiles, Word Grid's letter values), where
# Wordgame's own rules differ in each. Best plays then score the same in both engines.
EIGHT_TILES = dataclasses.replace(WORD_GRID, name="wordgrid-8", rack_size=8)
WORDFEUD_FACTOR = 12.0
PYGGLE_FACTOR = 3.0
LOOKUPS_PER_S = 2_000_000


def cpu_ms(runs: int, call, *args, warm: bool = True, **kwargs) -> tuple[float, object]:
    """Median process CPU milliseconds of ``call`` over ``runs`` runs, after one warm-up."""
    result = call(*args, **kwargs) if warm else None
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.process_time()
        result = call(*args, **kwargs)
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), result


def engine_figures(lexicon, runs: int) -> dict[str, float]:
    """The engine's own figures (ms, or look-ups a second), in this process's build."""
    figures = {}
    for name, rack in FIXED:
        board = load_position(name)
        figures[f"{name} all"], _ = cpu_ms(runs, movegen.generate, board, rack, WORD_GRID, lexicon)
        figures[f"{name} best"], _ = cpu_ms(runs, movegen.best, board, rack, WORD_GRID, lexicon)
    for rack in EMPTY_RACKS:
        for kind, search in (("all", movegen.generate), ("best", movegen.best)):
            figures[f"empty {rack} {kind}"], _ = cpu_ms(
                max(1, runs // 3), search, Board.empty(), rack, EIGHT_TILES, lexicon
            )
    boards = hunt_boards(20)
    per_board = [cpu_ms(runs, hunt.solve, board, lexicon, 4)[0] for board in boards]
    figures["hunt 5x5 solve"] = statistics.median(per_board)
    figures["lookups/s"] = lookup_rate(lexicon)
    return figures


def hunt_boards(count: int) -> list[hunt.Board]:
    return [hunt._draw_classic(random.Random(seed), 5) for seed in range(count)]


def lookup_rate(lexicon) -> float:
    """``word in lexicon`` a second, on a mix of words and near-misses."""
    words = list(lexicon)[::7][:60_000]
    probes = words + [word[:-1] + "q" for word in words]
    best = 0.0
    for _ in range(3):
        start = time.process_time()
        found = sum(1 for word in probes if word in lexicon)
        elapsed = time.process_time() - start
        best = max(best, len(probes) / elapsed)
    assert found >= len(words)
    return best


def wordfeud_figures(lexicon, runs: int) -> dict[str, float] | None:
    try:
        from wordfeudbot.wordfeud_logic.board import Board as PeerBoard
        from wordfeudbot.wordfeud_logic.wordlist import Wordlist
    except ImportError:
        return None
    words = Wordlist()
    for word in lexicon:
        words.add(word, 1)
    figures = {}
    for name, rack in FIXED:
        board = PeerBoard()
        rows = [row.replace(".", " ") for row in load_position(name).rows()]
        board.set_state(rows)
        letters = rack.replace("?", "*")
        figures[f"{name} all"], plays = cpu_ms(runs, _all_plays, board, letters, words)
        figures[f"{name} plays"] = len(plays)
    # Two blanks on an empty board take wordfeudbot many seconds a rack: one rack, once.
    rack = EMPTY_RACKS[0]
    figures[f"empty {rack} best"], _ = cpu_ms(1, _best_play, PeerBoard(), rack.replace("?", "*"), words, warm=False)
    return figures


def _all_plays(board, letters: str, words) -> list:
    return list(board.calc_all_word_scores(letters, words))


def _best_play(board, letters: str, words):
    return max(board.calc_all_word_scores(letters, words), key=lambda play: play[4])


#: The lexicon's name in MAGPIE's data folder: its letter distribution is found by the
#: name's prefix.
MAGPIE_LEXICON = "NWLWF"
MAGPIE_FACTOR = 8.0


def cgp(board: Board, rack: str) -> str:
    """A position in MAGPIE's CGP notation (blanks on the board are not told apart here)."""
    rows = []
    for row in board.rows():
        text, run = "", 0
        for cell in row:
            if cell == ".":
                run += 1
                continue
            text += (str(run) if run else "") + cell.upper()
            run = 0
        rows.append(text + (str(run) if run else ""))
    return f"{'/'.join(rows)} {rack.upper()}/ 0/0 0"


def write_magpie_data(folder: Path, lexicon) -> None:
    """The word list, premium layout and letter distribution, from this engine's tables."""
    from games.engine.crossword import SIZE, premium_table
    from games.engine.tiles import LETTER_VALUES

    for part in ("lexica", "layouts", "letterdistributions"):
        (folder / part).mkdir(parents=True, exist_ok=True)
    words = folder / "lexica" / f"{MAGPIE_LEXICON}.txt"
    if not words.exists():
        words.write_text("".join(word.upper() + "\n" for word in lexicon if 2 <= len(word) <= SIZE))
    letter_mult, word_mult = premium_table(WORD_GRID)
    marks = {(1, 2): "-", (1, 3): "=", (2, 1): "'", (3, 1): '"', (1, 1): " "}
    rows = [
        "".join(marks[(letter_mult[r * SIZE + c], word_mult[r * SIZE + c])] for c in range(SIZE)) for r in range(SIZE)
    ]
    (folder / "layouts" / f"standard{SIZE}.txt").write_text("7,7\n" + "\n".join(rows) + "\n")
    # More of each tile than the bag holds: the positions' blanks are not marked, so a
    # board may show more of a letter than there are tiles (counts do not change plays).
    lines = ["?,?,2,0,0"] + [
        f"{letter.upper()},{letter},20,{LETTER_VALUES[letter]},{int(letter in 'aeiou')}"
        for letter in "abcdefghijklmnopqrstuvwxyz"
    ]
    (folder / "letterdistributions" / "english.csv").write_text("\n".join(lines) + "\n")


def open_magpie(library: str, folder: Path, lexicon):
    """MAGPIE's string API in this process: a function that runs one command and returns
    its output, with the data written into ``folder`` and converted on first use."""
    import ctypes

    magpie = ctypes.CDLL(library)
    magpie.magpie_create.restype = ctypes.c_void_p
    magpie.magpie_create.argtypes = [ctypes.c_char_p]
    magpie.magpie_run_sync.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    magpie.magpie_get_last_command_output.restype = ctypes.c_void_p
    magpie.magpie_get_last_command_output.argtypes = [ctypes.c_void_p]
    magpie.magpie_free_string.argtypes = [ctypes.c_void_p]
    magpie.magpie_get_and_clear_error.restype = ctypes.c_void_p
    magpie.magpie_get_and_clear_error.argtypes = [ctypes.c_void_p]
    write_magpie_data(folder, lexicon)
    handle = magpie.magpie_create(str(folder).encode())

    def run(command: str) -> str:
        if magpie.magpie_run_sync(handle, command.encode()) != 0:
            pointer = magpie.magpie_get_and_clear_error(handle)
            raise RuntimeError(f"MAGPIE refused {command!r}: {ctypes.string_at(pointer).decode() if pointer else ''}")
        pointer = magpie.magpie_get_last_command_output(handle)
        text = ctypes.string_at(pointer).decode() if pointer else ""
        if pointer:
            magpie.magpie_free_string(pointer)
        return text

    lexica = folder / "lexica"
    if not (lexica / f"{MAGPIE_LEXICON}.kwg").exists():
        run(f"convert text2kwg {MAGPIE_LEXICON}")
    if not (lexica / f"{MAGPIE_LEXICON}.wmp").exists():
        run(f"convert text2wordmap {MAGPIE_LEXICON} -threads 1")
    if not (lexica / f"{MAGPIE_LEXICON}.klv2").exists():
        run(f"createdata klv {MAGPIE_LEXICON} english")
    run(f"set -lex {MAGPIE_LEXICON} -ld english -threads 1")
    return run


def magpie_figures(lexicon, runs: int) -> dict[str, float] | None:
    library, data = os.environ.get("MAGPIE_LIB"), os.environ.get("MAGPIE_DATA")
    if not library or not data:
        return None
    figures = {}
    run = open_magpie(library, Path(data), lexicon)
    positions = [(name, load_position(name), rack, WORD_GRID) for name, rack in FIXED]
    eight = os.environ.get("MAGPIE_LIB8")
    for name, board, rack, variant in positions:
        _time_magpie(figures, run, name, board, rack, variant, lexicon)
    if eight:
        # A library built for 8-tile racks keeps its leave data apart (its rack size differs).
        run = open_magpie(eight, Path(data) / "rack8", lexicon)
        for rack in EMPTY_RACKS:
            _time_magpie(figures, run, f"empty {rack}", Board.empty(), rack, EIGHT_TILES, lexicon)
    return figures


def _time_magpie(figures: dict, run, name: str, board: Board, rack: str, variant, lexicon) -> None:
    run(f"cgp {cgp(board, rack)}")
    for kind, ours, command in (
        ("all", movegen.generate, "generate -numplays 100000"),
        ("best", movegen.best, "generate -numplays 1"),
    ):
        figures[f"{name} {kind}"], figures[f"{name} {kind} paired"] = paired(
            PAIRED_RUNS,
            lambda ours=ours: ours(board, rack, variant, lexicon),
            lambda command=command: run(command),
        )


#: Repeats of the paired measure: each one times our engine and MAGPIE back to back.
PAIRED_RUNS = 21


def paired(runs: int, ours, peer) -> tuple[float, float]:
    """The peer's median CPU ms and the median of ours / peer over ``runs`` pairs, each
    pair timed back to back (ours first in even pairs, the peer first in odd ones): the
    machine is shared, and a neighbour that slows both engines alike leaves their ratio
    as it was, where medians taken minutes apart would each see a different neighbour."""
    ours(), peer()
    ratios, peer_times = [], []
    for n in range(runs):
        times = {}
        for call in (ours, peer) if n % 2 == 0 else (peer, ours):
            gc.collect()
            start = time.process_time()
            call()
            times[call] = time.process_time() - start
        ratios.append(times[ours] / times[peer])
        peer_times.append(times[peer] * 1000)
    return statistics.median(peer_times), statistics.median(ratios)


def pyggle_figures(lexicon, runs: int) -> float | None:
    try:
        from pyggle import Boggle
    except ImportError:
        return None
    boards = hunt_boards(20)
    solver = Boggle([list(row) for row in boards[0].faces], words=[word for word in lexicon if len(word) >= 4])
    per_board = []
    for board in boards:
        solver.board = [list(row) for row in board.faces]
        per_board.append(cpu_ms(runs, solver.solve)[0])
    return statistics.median(per_board)


def main(argv: list[str]) -> int:
    runs = 3 if "--quick" in argv else 7
    lexicon = wordlists.compile_lexicon("en")
    ours = engine_figures(lexicon, runs)
    if "--child" in argv:
        print(json.dumps(ours))
        return 0
    print(
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores;"
        f" CPU-time medians of {runs} runs"
    )
    pure = ours
    print(f"ours: {ours}", flush=True)
    if build.status().compiled:
        child = subprocess.run(
            [sys.executable, "-m", "bench.bench_peers", "--child", *argv],
            env=dict(os.environ, **{build.SWITCH: "python"}),
            capture_output=True,
            text=True,
            check=True,
        )
        pure = json.loads(child.stdout.strip().splitlines()[-1])
        print(f"pure: {pure}", flush=True)
    magpie = magpie_figures(lexicon, runs)
    print(f"MAGPIE: {magpie}", flush=True)
    pyggle = pyggle_figures(lexicon, runs)
    print(f"pyggle: {pyggle}", flush=True)
    wordfeud = wordfeud_figures(lexicon, runs)
    print(f"engine build: {build.status().detail}; the pure-Python figures come from a child process")
    print(f"{'':22} {'ours':>9} {'pure':>9} {'peer':>9} {'peer/ours':>9}  target")
    for key in ours:
        if key == "lookups/s":
            continue
        peer = None
        target = ""
        if key == "hunt 5x5 solve":
            peer, target = pyggle, f"pyggle / ours >= {PYGGLE_FACTOR:g}"
        elif wordfeud is not None and key in wordfeud:
            peer, target = wordfeud[key], f"wordfeudbot / ours >= {WORDFEUD_FACTOR:g}"
        elif wordfeud is not None and key.endswith(" best") and key.replace(" best", " all") in wordfeud:
            # wordfeudbot has no best-move search: its best is its all plays, then a max.
            peer, target = wordfeud[key.replace(" best", " all")], f"wordfeudbot / ours >= {WORDFEUD_FACTOR:g}"
        ratio = f"{peer / ours[key]:9.1f}" if peer else f"{'-':>9}"
        shown = f"{peer:9.2f}" if peer else f"{'not run':>9}"
        print(f"{key:22} {ours[key]:9.2f} {pure[key]:9.2f} {shown} {ratio}  {target} (ms)")
        if magpie is not None and key in magpie:
            print(
                f"{'  MAGPIE':22} {'':9} {'':9} {magpie[key]:9.2f} {ours[key] / magpie[key]:9.1f}"
                f"  ours / MAGPIE <= {MAGPIE_FACTOR:g} (pure: {pure[key] / magpie[key]:.1f});"
                f" paired: {magpie[key + ' paired']:.1f}"
            )
    print(f"{'lookups a second':22} {ours['lookups/s']:9,.0f} {pure['lookups/s']:9,.0f}  target >= {LOOKUPS_PER_S:,}")
    if wordfeud is not None:
        print(f"wordfeudbot plays: VsMatt {wordfeud['vsmatt plays']}, VsJeremy {wordfeud['vsjeremy plays']}")
    if wordfeud is None or pyggle is None or magpie is None:
        print("(a peer not installed is not run: see this module's docstring)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
