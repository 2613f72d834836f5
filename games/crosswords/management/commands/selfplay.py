"""``manage.py selfplay``: bot-against-bot crossword games on the real engine.

    manage.py selfplay --variant wordgrid --games 400 --bots expert,greedy --seed 1 --jobs 2

Plays with the pure engine (``games.engine.selfplay``), no database: the lexicon is the
variant's shipped word list. The two bots swap seats every game, so each opens half the
Word Grid games. Progress goes to stderr; the last line of stdout is one JSON object:
``{"games": N, "bots": {"A": {"wins", "draws", "avg_score", "avg_move_ms"}, "B": ...},
"errors": e}`` (a bot playing itself is listed once, with both seats' results).
"""

from __future__ import annotations

import json
import multiprocessing

from django.core.management.base import BaseCommand, CommandError

from games.engine import crossword_bot, selfplay
from games.engine.crossword import VARIANTS
from lexicon.frequency import zipf
from lexicon.services import cache_dir
from lexicon.wordlists import compile_lexicon


def _play(args):
    variant_name, bots, seed, numbers, folder = args
    variant = VARIANTS[variant_name]
    lexicon = compile_lexicon(variant.default_lexicon, cache_dir=folder)
    results = []
    for number in numbers:
        order = bots if number % 2 == 0 else bots[::-1]
        result = selfplay.play_game(variant, lexicon, order, f"{seed}/{number}", frequency=zipf)
        results.append(
            {
                "seats": list(order),
                "scores": list(result.scores),
                "winners": list(result.winners),
                "move_ms": [sum(ms) for ms in result.move_ms],
                "moves": [len(ms) for ms in result.move_ms],
                "errors": result.errors,
            }
        )
    return results


class Command(BaseCommand):
    help = "Play bot-against-bot crossword games and print win rates as JSON."
    requires_system_checks = []  # pure engine work: no database, no URLs

    def add_arguments(self, parser):
        parser.add_argument("--variant", choices=sorted(VARIANTS), required=True)
        parser.add_argument("--games", type=int, required=True)
        parser.add_argument(
            "--bots", required=True, help=f"two of {', '.join(crossword_bot.BOT_NAMES)}, e.g. expert,greedy"
        )
        parser.add_argument("--seed", default="selfplay")
        parser.add_argument("--jobs", type=int, default=1)

    def handle(self, *args, variant, games, bots, seed, jobs, **options):
        names = [name.strip() for name in bots.split(",")]
        if len(names) != 2 or any(name not in crossword_bot.BOT_NAMES for name in names):
            raise CommandError(f"--bots takes two of {', '.join(crossword_bot.BOT_NAMES)}")
        if games < 1 or jobs < 1:
            raise CommandError("--games and --jobs must be at least 1")
        folder = cache_dir()
        compile_lexicon(VARIANTS[variant].default_lexicon, cache_dir=folder)  # build once
        chunks = [list(range(job, games, jobs)) for job in range(min(jobs, games))]
        work = [(variant, tuple(names), seed, chunk, folder) for chunk in chunks]
        if len(work) == 1:
            parts = [_play(work[0])]
        else:
            with multiprocessing.get_context("fork").Pool(len(work)) as pool:
                parts = pool.map(_play, work)
        results = [game for part in parts for game in part]
        self.stderr.write(f"{len(results)} {variant} games, {names[0]} against {names[1]}")
        self.stdout.write(json.dumps(summarise(names, results)))


def summarise(names: list[str], results: list[dict]) -> dict:
    """The JSON line: wins, draws, average score and move time per bot."""
    stats = {name: {"wins": 0, "draws": 0, "score": 0, "seats": 0, "ms": 0.0, "moves": 0} for name in names}
    errors = 0
    for game in results:
        errors += game["errors"]
        draw = len(game["winners"]) > 1
        for seat, name in enumerate(game["seats"]):
            entry = stats[name]
            entry["score"] += game["scores"][seat]
            entry["seats"] += 1
            entry["ms"] += game["move_ms"][seat]
            entry["moves"] += game["moves"][seat]
            if seat in game["winners"]:
                entry["draws" if draw else "wins"] += 1
    return {
        "games": len(results),
        "bots": {
            name: {
                "wins": entry["wins"],
                "draws": entry["draws"],
                "avg_score": round(entry["score"] / max(1, entry["seats"]), 1),
                "avg_move_ms": round(entry["ms"] / max(1, entry["moves"]), 2),
            }
            for name, entry in stats.items()
        },
        "errors": errors,
    }
