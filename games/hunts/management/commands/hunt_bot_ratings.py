"""``manage.py hunt_bot_ratings``: rate every hunt bot level in every hunt pool by selfplay.

    manage.py hunt_bot_ratings --rounds 200 --seed bot-ratings

A stronger hunt level beats the next weaker one in nearly every round, so their games
alone would say only that the gap is large. The levels are therefore rated along a
ladder: between two neighbouring levels stand ``RUNGS`` in-between profiles
(``bot_profiles.between``), and in each pool (Word Rampage, Classic 4×4, Classic 5×5)
every step of the ladder plays its next ``REACH`` steps the same ``--rounds`` seeded
two-player rounds (``bot_profiles.play_round``: the site's plans and pace, no
database; seats swap every round), the higher score winning and equal scores drawing.
Close steps win and lose against each other, so every result says something. The ladder
is rated from those results (``bot_ratings.fit``, the medium level anchored at 1500,
where a new player starts), and the levels keep their ratings. Each level also plays
every board alone, to measure the share of the board's words it finds. The result is written into ``games/engine/data/bot_ratings.json`` (with
``--dry-run``, only printed): the same seed gives the same table.
"""

from __future__ import annotations

import json
import statistics

from django.core.management.base import BaseCommand, CommandError

from games.engine import bot_ratings, hunt
from games.hunts import bot_profiles
from games.hunts.pools import RULES
from lexicon import offensive
from lexicon.frequency import zipf
from lexicon.wordlists import compile_lexicon

ANCHOR = "medium"
RUNGS = 3  # in-between profiles between two neighbouring levels
REACH = 2  # how many steps up the ladder each step plays
LEXICON = "en"  # what a table is created with unless it chooses another (HuntLexicon.BOTH)


def calibrate(pool: str, rounds: int, seed: str) -> dict:
    """The pool's table entry: each level's rating and share of the words, and the results they come from."""
    rules = RULES[pool]
    lexicon = compile_lexicon(LEXICON)
    clean = offensive.clean_lexicon(lexicon)
    ladder = _ladder()
    names = list(ladder)
    pairs = [(a, b) for index, a in enumerate(names) for b in names[index + 1 : index + 1 + REACH]]
    points = dict.fromkeys(pairs, 0.0)
    shares: dict[str, list[float]] = {level: [] for level in bot_profiles.STRENGTHS}
    for number in range(rounds):
        board_seed = f"{seed}/{pool}/{number}"
        board = hunt.new_board(rules, board_seed, lexicon)
        total = len(hunt.solve(board, lexicon, rules.min_length))
        on_board = hunt.solve(board, clean, rules.min_length)  # bots plan without offensive words
        for level in bot_profiles.STRENGTHS:
            alone = bot_profiles.play_round(rules, board, on_board, [level], board_seed, zipf, total_words=total)
            shares[level].append(len(alone.found[0]) / total)
        for a, b in pairs:
            seats = (a, b) if number % 2 == 0 else (b, a)
            profiles = [ladder[name] for name in seats]
            result = bot_profiles.play_round(rules, board, on_board, profiles, board_seed, zipf)
            mine, theirs = result.scores if seats[0] == a else result.scores[::-1]
            points[(a, b)] += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    ratings = bot_ratings.fit([(a, b, won, rounds) for (a, b), won in points.items()], anchor=ANCHOR)
    return {
        "anchor": ANCHOR,
        "command": f"manage.py hunt_bot_ratings --rounds {rounds} --seed {seed}",
        "rounds_per_pair": rounds,
        "ladder": f"{RUNGS} rungs between neighbouring levels, each step against the next {REACH}",
        "levels": {
            level: {"rating": ratings[level], "share_of_words": round(statistics.mean(shares[level]), 3)}
            for level in bot_profiles.STRENGTHS
        },
        "results": [[a, b, won, rounds] for (a, b), won in points.items()],
    }


def _ladder() -> dict[str, bot_profiles.BotProfile]:
    """The levels, weakest first, with ``RUNGS`` in-between profiles after each but the last."""
    ladder = {}
    levels = bot_profiles.STRENGTHS
    for index, level in enumerate(levels):
        ladder[level] = bot_profiles.PROFILES[level]
        if index + 1 < len(levels):
            stronger = bot_profiles.PROFILES[levels[index + 1]]
            for rung in range(1, RUNGS + 1):
                share = rung / (RUNGS + 1)
                ladder[f"{level}+{rung}"] = bot_profiles.between(ladder[level], stronger, share)
    return ladder


class Command(BaseCommand):
    help = "Rate the hunt bot levels by seeded selfplay and store the ratings."
    requires_system_checks = []  # pure engine work: no database

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=200, help="rounds per pair of levels and pool")
        parser.add_argument("--seed", default="bot-ratings")
        parser.add_argument("--pool", action="append", choices=sorted(RULES), help="only these pools (repeatable)")
        parser.add_argument("--dry-run", action="store_true", help="print the ratings, store nothing")

    def handle(self, *args, rounds, seed, pool, dry_run, **options):
        if rounds < 1:
            raise CommandError("--rounds must be at least 1")
        for code in pool or list(RULES):
            entry = calibrate(code, rounds, seed)
            if not dry_run:
                bot_ratings.store(code, entry)
            levels = ", ".join(
                f"{level} {info['rating']} ({info['share_of_words']:.0%} of the words)"
                for level, info in entry["levels"].items()
            )
            self.stderr.write(f"{code}: {levels}")
            self.stdout.write(json.dumps({"pool": code, **entry}))
