"""``manage.py crossword_bot_ratings``: rate every crossword bot level in Word Grid and Wordgame by selfplay.

    manage.py crossword_bot_ratings --games 100 --champion-games 400 --champion-budget 200 \\
        --results-dir var/bot-ratings --jobs 2

In each variant the levels play their neighbours (and one level further, so every
level meets two others) ``--games`` seeded games per pair through ``manage.py
selfplay`` (the bots swap seats every game); the champion plays the expert
``--champion-games`` games at ``--champion-budget`` reply searches a move, as selfplay
counts them. The levels are then rated from those results (``bot_ratings.fit``, the
club level anchored at 1500, where a new player starts) and written into
``games/engine/data/bot_ratings.json`` with the games they come from (``--dry-run``:
only printed). With ``--results-dir`` every pair's games are kept there, one
selfplay results file a pair, so a stopped run resumes and a run repeated with the
same seed replays nothing.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from games.engine import bot_ratings

from ...models import Variant, pool_of

ANCHOR = "club"
#: The pairs that play, weakest first; the champion's pair is named as selfplay's
#: measure of the champion names it.
PAIRS = (
    ("beginner", "casual"),
    ("beginner", "club"),
    ("casual", "club"),
    ("casual", "expert"),
    ("club", "expert"),
    ("champion", "expert"),
)


def pair_result(variant: str, pair: tuple[str, str], games: int, seed: str, budget, results, jobs: int) -> dict:
    """selfplay's summary of ``games`` games of ``pair`` (the JSON of its last line)."""
    out = io.StringIO()
    options = {"variant": variant, "games": games, "bots": ",".join(pair), "seed": seed, "jobs": jobs}
    if budget is not None:
        options["budget"] = budget
    if results is not None:
        options["results"] = str(results)
    call_command("selfplay", stdout=out, stderr=io.StringIO(), **options)
    return json.loads(out.getvalue().strip().splitlines()[-1])


class Command(BaseCommand):
    help = "Rate the crossword bot levels by seeded selfplay and store the ratings."
    requires_system_checks = []  # pure engine work: no database

    def add_arguments(self, parser):
        parser.add_argument("--variant", action="append", choices=list(Variant.values), help="only these (repeatable)")
        parser.add_argument("--games", type=int, default=100, help="games per pair of levels")
        parser.add_argument("--champion-games", type=int, default=100, help="games of the champion against the expert")
        parser.add_argument("--champion-budget", type=int, default=200, help="the champion's reply searches a move")
        parser.add_argument("--seed", default="bot-ratings")
        parser.add_argument("--champion-seed", default=None, help="the champion's games' seed (default: --seed)")
        parser.add_argument("--jobs", type=int, default=1)
        parser.add_argument("--results-dir", default=None, help="keep each pair's games here (resumable)")
        parser.add_argument("--dry-run", action="store_true", help="print the ratings, store nothing")

    def handle(
        self,
        *args,
        variant,
        games,
        champion_games,
        champion_budget,
        seed,
        champion_seed,
        jobs,
        results_dir,
        dry_run,
        **opts,
    ):
        if games < 1 or champion_games < 1:
            raise CommandError("--games and --champion-games must be at least 1")
        folder = Path(results_dir) if results_dir else None
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
        for name in variant or list(Variant.values):
            played = []
            for pair in PAIRS:
                champion = "champion" in pair
                count, budget = (champion_games, champion_budget) if champion else (games, None)
                pair_seed = (champion_seed or seed) if champion else seed
                results = None if folder is None else folder / f"{name}-{pair[0]}-{pair[1]}.jsonl"
                summary = pair_result(name, pair, count, pair_seed, budget, results, jobs)
                first = summary["bots"][pair[0]]
                points = first["wins"] + first["draws"] / 2
                played.append([pair[0], pair[1], points, summary["games"]])
                self.stderr.write(f"{name}: {pair[0]} – {pair[1]} {points} of {summary['games']}")
            ratings = bot_ratings.fit([tuple(entry) for entry in played], anchor=ANCHOR)
            entry = {
                "anchor": ANCHOR,
                "command": (
                    f"manage.py crossword_bot_ratings --variant {name} --games {games} "
                    f"--champion-games {champion_games} --champion-budget {champion_budget} --seed {seed} "
                    f"--champion-seed {champion_seed or seed}"
                ),
                "champion_budget": champion_budget,
                "levels": {level: {"rating": ratings[level]} for level in sorted(ratings, key=ratings.get)},
                "results": played,
            }
            pool = pool_of(name)
            if not dry_run:
                bot_ratings.store(pool, entry)
            self.stderr.write(f"{pool}: " + ", ".join(f"{level} {value}" for level, value in ratings.items()))
            self.stdout.write(json.dumps({"pool": pool, **entry}))
