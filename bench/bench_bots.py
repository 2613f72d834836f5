"""Crossword bot benchmark: time per move for each strength, median and worst.

Run with ``python -m bench.bench_bots [--quick]``. Positions come from the engine: for
each variant, seeded games between two greedy bots are played, and the seat to move is
timed at every turn of the first games (openings, middle game with blanks, where the
expert weighs its best moves against replies on sampled racks, and the endgame with an
empty bag, where it looks one reply ahead at the known rack). Each strength
chooses its move in every position once; the figures are the median and the worst
wall-clock time per move, and the process CPU time (steadier on a shared machine).

Budget: a bot's thinking must fit well inside the human-like delay before
its move — a few seconds in live games — so the worst move should stay under ~2 s.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

import django

from games.engine import crossword_bot
from games.engine.crossword import WORD_GRID, WORDGAME
from games.engine.crossword_bot import Position
from games.engine.crossword_game import new_game
from lexicon import wordlists
from lexicon.frequency import zipf

WORST_BUDGET_MS = 2000.0
# The champion plays correspondence games only (up to 10 s a move in the worker); here it
# has the selfplay budget of move searches, timed for the record, with no live budget.
CORRESPONDENCE_ONLY = {"champion"}


def positions(variant, lexicon, games: int) -> list[Position]:
    """Every position of ``games`` seeded greedy-against-greedy games."""
    found = []
    rng = random.Random(0)
    for number in range(games):
        game = new_game(variant, 2, f"bench-bots/{number}", lexicon)
        while not game.is_over:
            position = Position.of(game)
            found.append(position)
            game = game.apply(crossword_bot.choose(position, "greedy", rng))
    return found


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    games = 1 if quick else 4
    # The word frequencies' table lives in the site's cache folder, which its settings name.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    zipf("the")  # open the frequency table before timing
    print(
        f"{'variant':9} {'bot':9} {'positions':>9} {'median ms':>10} {'worst ms':>9} "
        f"{'median cpu':>10} {'worst cpu':>9}"
    )
    over = []
    for variant in (WORD_GRID, WORDGAME):
        lexicon = wordlists.compile_lexicon(variant.default_lexicon)
        found = positions(variant, lexicon, games)
        for strength in crossword_bot.BOT_NAMES:
            rng = random.Random(1)
            crossword_bot.choose(found[0], strength, rng, frequency=zipf)  # warm caches
            wall, cpu = [], []
            for position in found:
                started, started_cpu = time.perf_counter(), time.process_time()
                crossword_bot.choose(position, strength, rng, frequency=zipf)
                wall.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - started_cpu) * 1000)
            print(
                f"{variant.name:9} {strength:9} {len(found):9d} {statistics.median(wall):10.1f} "
                f"{max(wall):9.1f} {statistics.median(cpu):10.1f} {max(cpu):9.1f}"
            )
            if strength not in CORRESPONDENCE_ONLY and max(cpu) > WORST_BUDGET_MS:
                over.append(f"{variant.name} {strength}")
    print(
        f"worst-move budget {WORST_BUDGET_MS:.0f} ms (CPU) for the bots of live games: "
        + ("met" if not over else "over for " + ", ".join(over))
    )


if __name__ == "__main__":
    main(sys.argv[1:])
