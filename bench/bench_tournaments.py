"""Tournament pairing benchmark: a 1,000-player Swiss round and a 500-player arena pass.

Run with ``python -m bench.bench_tournaments [--quick]``. Pure (``games.engine``), no
database.

- Swiss: 1,000 players (ratings N(1500, 250)) play random results for several rounds; the
  time to pair round 2, 5 and 9 (median of the runs) against the budget of 2 s a round,
  with the rematches, repeated byes and first-move excesses above 2 found (all should be 0).
- Arena: 500 players waiting at once, their points and waits spread, their last
  opponents among them; the median pass against the budget of 100 ms.

The budgets are for one core: each line shows the wall time and the CPU time, and is
judged on the CPU time (on a machine shared with other work the wall time also counts
the waits for a core).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from fractions import Fraction

from games.engine import arena, tournament

SWISS_PLAYERS = 1000
SWISS_BUDGET = 2.0
ARENA_WAITING = 500
ARENA_BUDGET = 0.100


def _median(function, runs: int) -> tuple[float, float]:
    """Median (wall, CPU) seconds of ``function``: on a busy machine the CPU time is what
    the work costs, the wall time what it waited besides."""
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def _played(pairings, round: int, rng: random.Random) -> list[tournament.Game]:
    games = []
    for pairing in pairings:
        if pairing.is_bye:
            games.append(tournament.Game.bye(round, pairing.first))
        else:
            result = rng.choice((Fraction(1), Fraction(0), Fraction(1), Fraction(0), Fraction(1, 2)))
            games.append(tournament.Game(round, pairing.first, pairing.second, result, rng.randint(-120, 120)))
    return games


def swiss(runs: int) -> bool:
    rng = random.Random(7)
    entrants = [tournament.Entrant(player, int(rng.gauss(1500, 250))) for player in range(1, SWISS_PLAYERS + 1)]
    games: list[tournament.Game] = []
    ok = True
    for round in range(1, 10):
        pairings = tournament.swiss_pairings(entrants, games, round)
        if round in (2, 5, 9):
            seconds, cpu = _median(lambda r=round, g=games: tournament.swiss_pairings(entrants, g, r), runs)
            met = Counter(frozenset(game.pairing.players) for game in games if not game.is_bye)
            rematches = sum(met[frozenset(p.players)] for p in pairings if not p.is_bye)
            verdict = "ok" if cpu < SWISS_BUDGET else "OVER BUDGET"
            ok &= cpu < SWISS_BUDGET
            print(
                f"swiss {SWISS_PLAYERS} players, round {round}: median {seconds * 1000:7.1f} ms "
                f"(CPU {cpu * 1000:.1f} ms; budget {SWISS_BUDGET * 1000:.0f} ms, {verdict}); {rematches} rematches"
            )
        games += _played(pairings, round, rng)
    byes = Counter(game.first for game in games if game.is_bye)
    excess = max(abs(tournament.first_move_excess(entrant.player, games)) for entrant in entrants)
    print(
        f"swiss after 9 rounds: {sum(n > 1 for n in byes.values())} players with two byes, "
        f"largest first-move excess {excess}"
    )
    return ok


def arena_pass(runs: int) -> bool:
    rng = random.Random(11)
    players = list(range(1, ARENA_WAITING + 1))
    waiting = [
        arena.Waiting(
            player,
            int(rng.gauss(1500, 250)),
            rng.randint(0, 40),
            rng.uniform(0, 30),
            frozenset(rng.sample(players, 3)) - {player},
        )
        for player in players
    ]
    result = arena.arena_pass(waiting, 30.0)
    seconds, cpu = _median(lambda: arena.arena_pass(waiting, 30.0), runs)
    sizes = Counter(len(table) for table in result.tables)
    verdict = "ok" if cpu < ARENA_BUDGET else "OVER BUDGET"
    print(
        f"arena pass, {ARENA_WAITING} waiting: median {seconds * 1000:6.1f} ms (CPU {cpu * 1000:.1f} ms; budget "
        f"{ARENA_BUDGET * 1000:.0f} ms, {verdict}); {len(result.tables)} tables "
        f"({sizes[4]} of 4, {sizes[3]} of 3, {sizes[2]} of 2), {len(result.waiting)} left waiting"
    )
    return cpu < ARENA_BUDGET


def main(argv: list[str]) -> int:
    runs = 3 if "--quick" in argv else 7
    ok = swiss(runs)
    ok &= arena_pass(runs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
