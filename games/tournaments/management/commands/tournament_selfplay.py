"""``manage.py tournament_selfplay``: a dry run of an event filled with bots.

    manage.py tournament_selfplay --format swiss --game wordgrid --players 16 --rounds 4 --seed 1

prints one JSON line: ``{"format", "players", "rounds", "rematches", "byes",
"standings": [{"username", "rank", "points", "tiebreaks", ...}]}``. ``--game`` is a rating
pool: ``wordgrid`` or ``wordgame`` for a Swiss or round robin, ``rampage``, ``classic4``
or ``classic5`` for an arena (``--minutes``, default 30). Nothing is written to the
database (``games.tournaments.selfplay``).
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.engine import crossword, hunt
from lexicon.frequency import zipf
from lexicon.services import cache_dir
from lexicon.wordlists import compile_lexicon

from ... import selfplay

#: The hunt pools by the engine's rules (a pool's code is its game, and a Classic its size).
HUNT_RULES = {"rampage": hunt.RAMPAGE, "classic4": hunt.CLASSIC_4, "classic5": hunt.CLASSIC_5}


def _lexicon(code: str):
    """The shipped word list ``code`` (as built, without moderators' changes: no database)."""
    return compile_lexicon(code, cache_dir=cache_dir())


class Command(BaseCommand):
    help = "Fill an event with bots, play it out on the engine, and print its standings as one JSON line."

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=("swiss", "roundrobin", "arena"), required=True)
        parser.add_argument("--game", required=True, help="wordgrid, wordgame, rampage, classic4 or classic5")
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument(
            "--rounds", type=int, default=None, help="Swiss: rounds to play (default: log2 + 1, at most players - 1)"
        )
        parser.add_argument("--minutes", type=int, default=30, help="arena: how long it runs")
        parser.add_argument("--seed", default="1")

    def handle(self, *args, format, game, players, rounds, minutes, seed, **options):
        if players < 2:
            raise CommandError("An event needs two players at least.")
        if format == "arena":
            rules = HUNT_RULES.get(game)
            if rules is None:
                raise CommandError(f"An arena is for the live hunts: {', '.join(HUNT_RULES)}.")
            play = selfplay.hunt_round(rules, _lexicon("en"))
            report = selfplay.arena_event(players, minutes, rules.round_seconds, str(seed), play)
        else:
            try:
                variant = crossword.variant_named(game)
            except (KeyError, ValueError):
                raise CommandError("A Swiss or round robin is for wordgrid or wordgame.") from None
            if format == "swiss":
                rounds = rounds or min(players.bit_length() + 1, players - 1)
                if not 1 <= rounds < players:
                    raise CommandError("A Swiss plays from one round to one fewer than its players.")
            play = selfplay.crossword_game(variant, _lexicon(variant.default_lexicon), zipf)
            report = selfplay.paired_event(format, players, rounds, str(seed), play, selfplay.CROSSWORD_BOTS)
        self.stdout.write(json.dumps(report.as_dict(), separators=(",", ":")))
