"""``manage.py selfplay``: bot-against-bot crossword games on the real engine.

    manage.py selfplay --variant wordgrid --games 400 --bots expert,greedy --seed 1 --jobs 2

Plays with the pure engine (``games.engine.selfplay``), no database: the lexicon is the
variant's shipped word list. The two bots swap seats every game, so each opens half the
Word Grid games. Progress goes to stderr; the last line of stdout is one JSON object:
``{"games": N, "bots": {"A": {"wins", "draws", "avg_score", "avg_move_ms", "worst_move_ms",
"median_move_ms"}, "B": ...},
"errors": e}`` (a bot playing itself is listed once, with both seats' results). Move times
are the CPU time of the process that plays, so other work on the machine does not count.

A long run can be stopped and resumed: with ``--results FILE`` each finished game is
appended to FILE as a JSON line, and a later run with the same variant, bots, seed and
budget plays only the games FILE does not hold yet (the games are seeded, so they are
the same games whenever they are played) and sums up all of them.
"""

from __future__ import annotations

import functools
import json
import math
import multiprocessing
import statistics
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from games.engine import crossword_bot, selfplay
from games.engine.crossword import VARIANTS
from lexicon.frequency import zipf
from lexicon.services import cache_dir
from lexicon.wordlists import compile_lexicon


def _play(args):
    variant_name, bots, seed, numbers, folder, budget, results_path, paired = args
    variant = VARIANTS[variant_name]
    lexicon = compile_lexicon(variant.default_lexicon, cache_dir=folder)
    choose = functools.partial(crossword_bot.choose, budget=budget)
    results = []
    for number in numbers:
        order = bots if number % 2 == 0 else bots[::-1]
        deal = number // 2 if paired else number
        result = selfplay.play_game(
            variant, lexicon, order, f"{seed}/{deal}", frequency=zipf, clock=time.process_time, choose=choose
        )
        results.append(
            {
                "number": number,
                "seats": list(order),
                "scores": list(result.scores),
                "winners": list(result.winners),
                "move_ms": [sum(ms) for ms in result.move_ms],
                "moves": [len(ms) for ms in result.move_ms],
                "errors": result.errors,
                "worst_move_ms": [max(ms, default=0.0) for ms in result.move_ms],
                "move_times": [[round(one, 1) for one in ms] for ms in result.move_ms],
            }
        )
        game = results[-1]
        if results_path is not None:
            with open(results_path, "a") as stream:  # one line a write: whole lines only
                stream.write(json.dumps({"run": run_key(variant_name, bots, seed, budget, paired), **game}) + "\n")
        print(f"game {number}: {dict(zip(game['seats'], game['scores'], strict=True))}", file=sys.stderr, flush=True)
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
        parser.add_argument(
            "--budget", type=int, default=None, help="the champion's reply searches per move (default: its own)"
        )
        parser.add_argument(
            "--paired",
            action="store_true",
            help="games 2k and 2k+1 share a deal (the same seed) with the seats swapped",
        )
        parser.add_argument(
            "--results", default=None, help="a file to append each game to; games it already holds are not replayed"
        )

    def handle(self, *args, variant, games, bots, seed, jobs, budget, results, paired, **options):
        names = [name.strip() for name in bots.split(",")]
        if len(names) != 2 or any(name not in crossword_bot.BOT_NAMES for name in names):
            raise CommandError(f"--bots takes two of {', '.join(crossword_bot.BOT_NAMES)}")
        if games < 1 or jobs < 1:
            raise CommandError("--games and --jobs must be at least 1")
        folder = cache_dir()
        compile_lexicon(VARIANTS[variant].default_lexicon, cache_dir=folder)  # build once
        played = {} if results is None else played_before(results, run_key(variant, names, seed, budget, paired))
        played = {number: game for number, game in played.items() if number < games}
        waiting = [number for number in range(games) if number not in played]
        if played:
            self.stderr.write(f"{len(played)} games already in {results}, {len(waiting)} to play")
        chunks = [waiting[job::jobs] for job in range(min(jobs, len(waiting)))]
        work = [(variant, tuple(names), seed, chunk, folder, budget, results, paired) for chunk in chunks]
        if len(work) <= 1:
            parts = [_play(chunk) for chunk in work]
        else:
            with multiprocessing.get_context("fork").Pool(len(work)) as pool:
                parts = pool.map(_play, work)
        done = sorted([*played.values(), *(game for part in parts for game in part)], key=lambda game: game["number"])
        self.stderr.write(f"{len(done)} {variant} games, {names[0]} against {names[1]}")
        self.stdout.write(json.dumps(summarise(names, done)))


def run_key(variant: str, bots, seed: str, budget: int | None, paired: bool = False) -> str:
    """What makes two runs' games the same games."""
    return json.dumps([variant, list(bots), seed, budget, *(["paired"] if paired else [])])


def played_before(path: str, key: str) -> dict[int, dict]:
    """The games of run ``key`` that the results file already holds, by number (a
    line cut short by a stopped run is ignored: that game is played again)."""
    found = {}
    try:
        with open(path, "r+") as stream:
            lines = stream.read().splitlines(keepends=True)
            if lines and not lines[-1].endswith("\n"):
                stream.write("\n")  # so the next game appended starts a line of its own
            for line in lines:
                try:
                    game = json.loads(line)
                except ValueError:
                    continue
                if isinstance(game, dict) and game.get("run") == key:
                    game.pop("run")
                    found[game["number"]] = game
    except FileNotFoundError:
        pass
    return found


def summarise(names: list[str], results: list[dict]) -> dict:
    """The JSON line: wins, draws, average score and move time per bot, and the first
    bot's share of the points (a draw counts half) with its 95 % confidence interval."""
    stats = {
        name: {"wins": 0, "draws": 0, "score": 0, "seats": 0, "ms": 0.0, "moves": 0, "worst": 0.0, "times": []}
        for name in names
    }
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
            entry["worst"] = max(entry["worst"], game.get("worst_move_ms", [0.0] * len(game["seats"]))[seat])
            entry["times"].extend(game.get("move_times", [[]] * len(game["seats"]))[seat])
            if seat in game["winners"]:
                entry["draws" if draw else "wins"] += 1
    summary = {
        "games": len(results),
        "bots": {
            name: {
                "wins": entry["wins"],
                "draws": entry["draws"],
                "avg_score": round(entry["score"] / max(1, entry["seats"]), 1),
                "avg_move_ms": round(entry["ms"] / max(1, entry["moves"]), 2),
                "worst_move_ms": round(entry["worst"], 1),
                # Over the games whose every move's time is kept (older results files keep only sums).
                "median_move_ms": round(statistics.median(entry["times"]), 1) if entry["times"] else None,
            }
            for name, entry in stats.items()
        },
        "errors": errors,
    }
    if len(stats) == 2 and results:
        first = stats[names[0]]
        summary["share"] = share_interval(first["wins"] + first["draws"] / 2, len(results))
    return summary


def share_interval(points: float, games: int) -> dict:
    """A bot's share of the points over ``games`` games and its 95 % Wilson score interval."""
    z = 1.959964
    share = points / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return {"share": round(share, 4), "low": round(centre - half, 4), "high": round(centre + half, 4)}
