"""Tournament page benchmark: a Swiss of 1,000 players after four rounds.

Run with ``python -m bench.bench_tournament_page [--quick]``.

- the event page (``GET /tournaments/<id>/``) for a watcher and for a player, server time
  (the request through Django in this process), median against the budget of 50 ms, and
  its queries; the lobby for the same player beside it (what any signed-in page costs);
- a standings update (``broadcasts.standings_send``: rendered once, published once to
  the event's group): its time and queries, with 5 and with 500 sockets in the group (the
  same queries: the sockets only forward the one message).

Needs PostgreSQL and Redis: its own database, $BENCH_DATABASE_URL (default
``postgres://postgres@127.0.0.1:5432/wg_bench_tournaments``, created and migrated if
missing), and $BENCH_REDIS_URL (default $REDIS_URL, else ``redis://127.0.0.1:6379/14``).
The players it creates are deleted afterwards.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from fractions import Fraction

PLAYERS = 1000
ROUNDS = 4
PAGE_BUDGET_MS = 50.0


def _median_ms(function, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _median_cpu_ms(function, runs: int) -> float:
    """This process's CPU time (the database's own work is not in it)."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def _event(run: str):
    """A Swiss of ``PLAYERS`` with ``ROUNDS`` rounds stored, paired by the engine."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.engine import tournament as rules
    from games.tournaments.models import Entry, Pairing, PairingPlayer, PairingStatus, Round, Status, Tournament

    User = get_user_model()
    rng = random.Random(5)
    now = timezone.now()
    User.objects.bulk_create(
        User(username=f"{run}-{n}", email=f"{run}-{n}@bench.invalid", password="!") for n in range(PLAYERS)
    )
    users = list(User.objects.filter(username__startswith=f"{run}-").order_by("pk"))
    tournament = Tournament.objects.create(
        name=f"Bench Swiss {run}",
        format="swiss",
        kind="crossword",
        pool="wordgrid",
        game_settings={"variant": "wordgrid", "seconds_per_move": 86400},
        status=Status.RUNNING,
        starts_at=now,
        rounds=ROUNDS + 1,
        current_round=ROUNDS,
    )
    Entry.objects.bulk_create(
        Entry(tournament=tournament, user=user, rating=int(rng.gauss(1500, 250)), joined_at=now) for user in users
    )
    entries = list(tournament.entries.all())
    entrants = [rules.Entrant(entry.pk, entry.rating) for entry in entries]
    games: list[rules.Game] = []
    for number in range(1, ROUNDS + 1):
        paired = Round.objects.create(tournament=tournament, number=number, paired_at=now)
        pairings = rules.swiss_pairings(entrants, games, number)
        rows = Pairing.objects.bulk_create(
            Pairing(
                tournament=tournament,
                round=paired,
                board=index,
                status=PairingStatus.BYE if pairing.is_bye else PairingStatus.FINISHED,
                game_kind="crossword",
                game_url=f"/games/{number}{index}/",
                created_at=now,
            )
            for index, pairing in enumerate(pairings, start=1)
        )
        players = []
        for row, pairing in zip(rows, pairings):
            if pairing.is_bye:
                games.append(rules.Game.bye(number, pairing.first))
                players.append(PairingPlayer(pairing=row, entry_id=pairing.first, seat=0, points=2))
                continue
            result = rng.choice((Fraction(1), Fraction(0), Fraction(1, 2)))
            first, second = rng.randint(250, 500), rng.randint(250, 500)
            games.append(rules.Game(number, pairing.first, pairing.second, result, first - second))
            players.append(
                PairingPlayer(pairing=row, entry_id=pairing.first, seat=0, score=first, points=int(result * 2))
            )
            players.append(
                PairingPlayer(pairing=row, entry_id=pairing.second, seat=1, score=second, points=2 - int(result * 2))
            )
        PairingPlayer.objects.bulk_create(players)
    return tournament, users


class Counted:
    """Counts the queries run inside the block (on any path through the connection)."""

    def __init__(self, connection):
        self.connection = connection
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)

    def __enter__(self):
        self._wrapper = self.connection.execute_wrapper(self)
        self._wrapper.__enter__()
        return self

    def __exit__(self, *exc):
        self._wrapper.__exit__(*exc)

    def __len__(self) -> int:
        return self.count


def main(argv: list[str]) -> int:
    from bench.django_env import prepared_env

    prepared_env("wg_bench_tournaments")
    import django

    django.setup()
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client, override_settings

    from games.tournaments.broadcasts import standings_send

    # Pages name static files; a server looks them up in collectstatic's manifest, which
    # this checkout need not have, so the plain storage stands in (the same lookup cost).
    override_settings(
        STORAGES={
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
        ALLOWED_HOSTS=["testserver", *settings.ALLOWED_HOSTS],
    ).enable()
    runs = 5 if "--quick" in argv else 15
    run = f"tp{int(time.time()) % 100000}"
    tournament, users = _event(run)
    ok = True
    try:
        url = tournament.get_absolute_url()
        watcher = Client()
        player = Client()
        player.force_login(users[len(users) // 2])
        for name, client in (("watcher", watcher), ("player", player)):
            assert client.get(url).status_code == 200
            with Counted(connection) as queries:
                client.get(url)
            ms = _median_ms(lambda c=client: c.get(url), runs)
            cpu = _median_cpu_ms(lambda c=client: c.get(url), runs)
            verdict = "ok" if ms < PAGE_BUDGET_MS else "OVER BUDGET"
            ok &= ms < PAGE_BUDGET_MS
            print(
                f"event page, {PLAYERS} players after {ROUNDS} rounds, {name}: median {ms:6.1f} ms "
                f"(CPU here {cpu:.1f} ms) "
                f"(budget {PAGE_BUDGET_MS:.0f} ms, {verdict}); {len(queries)} queries"
            )
        lobby = _median_ms(lambda: player.get("/tournaments/"), runs)
        print(f"for comparison, the tournaments lobby for the same player: median {lobby:6.1f} ms")
        layer = get_channel_layer()
        group = tournament.group_name
        channels = []

        async def join(count: int) -> None:
            while len(channels) < count:
                name = await layer.new_channel()
                await layer.group_add(group, name)
                channels.append(name)

        for watchers in (5, 500):
            async_to_sync(join)(watchers)
            with Counted(connection) as queries:
                standings_send(tournament.pk)
            ms = _median_ms(lambda: standings_send(tournament.pk), runs)
            print(
                f"standings update to {watchers:3} sockets: median {ms:6.1f} ms, {len(queries)} queries "
                f"(rendered and published once)"
            )

        async def leave() -> None:
            for name in channels:
                await layer.group_discard(group, name)

        async_to_sync(leave)()
    finally:
        tournament.delete()
        get_user_model().objects.filter(username__startswith=f"{run}-").delete()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
