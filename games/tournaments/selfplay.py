"""A dry run of an event, on the pure engine: bots fill it and play it out, as a director
checks an event's settings before opening it (and as the benchmarks time it).

No Django and no database: pairings and standings are the engine's
(``games.engine.tournament``, ``games.engine.arena``), crossword games are played by the
engine's bots (``games.engine.selfplay``), and a hunt round is a draw of who finds which
of the board's words (each bot finds a word with its own chance, the first of them to
find it takes it in Rampage, words found by two are crossed off in Classic). Everything
is drawn from the seed, so a run repeats exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from games.engine import arena, hunt, selfplay, tournament
from games.engine.crossword import Variant

#: The fast bot levels, taken in turn by the entrants (a field of mixed strength).
CROSSWORD_BOTS = ("greedy", "casual", "beginner")
#: A hunt bot's chance of finding any one word on the board, taken in turn.
HUNT_SKILLS = (0.45, 0.3, 0.2, 0.1)
#: The pause between an arena player's rounds, in seconds (looking at the results).
ARENA_PAUSE = 10.0


@dataclass(frozen=True)
class Report:
    """What the dry run prints."""

    format: str
    players: int
    rounds: int
    rematches: int
    byes: int
    standings: list[dict]

    def as_dict(self) -> dict:
        return {
            "format": self.format,
            "players": self.players,
            "rounds": self.rounds,
            "rematches": self.rematches,
            "byes": self.byes,
            "standings": self.standings,
        }


def _names(players: int) -> list[str]:
    return [f"bot{number:04d}" for number in range(1, players + 1)]


def crossword_game(variant: Variant, lexicon, frequency=None) -> Callable:
    """A game between two entrants by the engine's bots: (first's points, spread)."""

    def play(pairing: tournament.Pairing, round: int, levels: dict[int, str], seed: str):
        result = selfplay.play_game(
            variant,
            lexicon,
            (levels[pairing.first], levels[pairing.second]),
            seed=f"{seed}/{round}/{pairing.first}-{pairing.second}",
            frequency=frequency,
        )
        first, second = result.scores
        points = Fraction(1) if first > second else Fraction(0) if first < second else Fraction(1, 2)
        return points, first - second

    return play


def paired_event(
    format: str, players: int, rounds: int | None, seed: str, play: Callable, levels: tuple[str, ...]
) -> Report:
    """A Swiss (``rounds`` rounds) or a round robin among ``players`` bots."""
    rng = random.Random(seed)
    entrants = [tournament.Entrant(number, rng.randint(1200, 1800)) for number in range(1, players + 1)]
    level_of = {entrant.player: levels[index % len(levels)] for index, entrant in enumerate(entrants)}
    if format == "roundrobin":
        schedule = tournament.round_robin([e.player for e in sorted(entrants, key=lambda e: -e.rating)])
        rounds = len(schedule)
    games: list[tournament.Game] = []
    for number in range(1, rounds + 1):
        if format == "roundrobin":
            pairings = schedule[number - 1]
        else:
            pairings = tournament.swiss_pairings(entrants, games, number)
        for pairing in pairings:
            if pairing.is_bye:
                games.append(tournament.Game.bye(number, pairing.first))
                continue
            points, spread = play(pairing, number, level_of, seed)
            games.append(tournament.Game(number, pairing.first, pairing.second, points, spread))
    met = Counter(frozenset(game.pairing.players) for game in games if not game.is_bye)
    names = _names(players)
    return Report(
        format=format,
        players=players,
        rounds=rounds,
        rematches=sum(count - 1 for count in met.values()),
        byes=sum(1 for game in games if game.is_bye),
        standings=[
            {
                "username": names[line.player - 1],
                "rank": line.rank,
                "points": float(line.points),
                "bot": level_of[line.player],
                "tiebreaks": {
                    "spread": line.spread,
                    "buchholz": float(line.buchholz),
                    "sonneborn_berger": float(line.sonneborn_berger),
                },
            }
            for line in tournament.standings(entrants, games)
        ],
    )


def hunt_round(rules: hunt.HuntRules, lexicon) -> Callable:
    """A hunt round at one table: each player's place (1 the best; ties share)."""

    def play(table: tuple[int, ...], skills: dict[int, float], seed: str) -> dict[int, int]:
        rng = random.Random(seed)
        board = hunt.new_board(rules, seed, lexicon)
        words = hunt.solve(board, lexicon, rules.min_length)
        scores = dict.fromkeys(table, 0)
        for word, path in sorted(words.items()):
            finders = [player for player in table if rng.random() < skills[player]]
            if not finders:
                continue
            if rules.game == "rampage":
                scores[rng.choice(finders)] += hunt.score_rampage(board, path)
            elif len(finders) == 1:
                scores[finders[0]] += hunt.classic_points(word)
        ordered = sorted(scores.values(), reverse=True)
        return {player: ordered.index(score) + 1 for player, score in scores.items()}

    return play


def arena_event(players: int, minutes: int, round_seconds: int, seed: str, play: Callable) -> Report:
    """An arena of ``minutes`` among ``players`` bots, every one playing throughout."""
    rng = random.Random(seed)
    ratings = {number: rng.randint(1200, 1800) for number in range(1, players + 1)}
    skills = {number: HUNT_SKILLS[(number - 1) % len(HUNT_SKILLS)] for number in ratings}
    scores = {number: arena.ArenaScore() for number in ratings}
    since = dict.fromkeys(ratings, 0.0)
    last: dict[int, frozenset[int]] = {}
    busy_until: dict[int, float] = {}
    end = minutes * 60.0
    now, tables, met = 0.0, 0, Counter()
    while now < end:
        for player, until in list(busy_until.items()):
            if until <= now:
                del busy_until[player]
        waiting = [
            arena.Waiting(player, ratings[player], scores[player].points, since[player], last.get(player, frozenset()))
            for player in ratings
            if player not in busy_until
        ]
        for table in arena.arena_pass(waiting, now).tables:
            seated = tuple(seeker.player for seeker in table)
            tables += 1
            places = play(seated, skills, f"{seed}/table/{tables}")
            counts = Counter(places.values())
            finished = now + round_seconds
            for player in seated:
                finish = arena.Finish(places[player], len(seated), counts[places[player]])
                scores[player] = scores[player].after(finish)
                last[player] = frozenset(seated) - {player}
                busy_until[player] = finished + ARENA_PAUSE
                since[player] = finished + ARENA_PAUSE
            for a in seated:
                for b in seated:
                    if a < b:
                        met[a, b] += 1
        now += 2.0  # the beat's arena pass
    names = _names(players)
    order = sorted(ratings, key=lambda p: (-scores[p].points, -ratings[p], p))
    return Report(
        format="arena",
        players=players,
        rounds=tables,
        rematches=sum(count - 1 for count in met.values()),
        byes=0,
        standings=[
            {
                "username": names[player - 1],
                "rank": order.index(player) + 1,
                "points": scores[player].points,
                "skill": skills[player],
                "tiebreaks": {"tables": len(scores[player].rounds), "wins": scores[player].wins},
            }
            for player in order
        ],
    )
