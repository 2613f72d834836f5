"""Matchmaking benchmark: one matcher pass over 2,000 queued players.

Run with ``python -m bench.bench_matchmaking [players] [--pure]``.

Pure (``games.engine.matching.match``, no database), median of several passes over the
same queue:

- steady: ratings spread as N(1500, 250), joins spread over the last 60 s;
- burst: the same ratings, everyone joined in the last 2 s (only full tables form);
- idle: nobody can be seated (ratings 100 apart, just joined), the pass that runs every
  1.5 s while a queue waits.

With the database (``services.matchmaking.match_pool``: advisory lock, entries read and
locked, matcher, decided players reserved): the idle pass over 2,000 rows; the pass that
decides the steady queue's ~500 tables and leaves their seating to tasks (what the beat
task runs); and the same tables seated one after another in the pass (each through the
table and round services, its board generated and its round started), as total time and
per table, with the queries per table (the pass's, its one lobby refresh shared out).

The database part needs PostgreSQL and Redis (server mode). It uses its own database,
$BENCH_DATABASE_URL (default ``postgres://postgres@127.0.0.1:5432/wg_bench_match``, created
and migrated if missing), and $BENCH_REDIS_URL (default $REDIS_URL, else
``redis://127.0.0.1:6379/14``); the players it creates are deleted afterwards and the
round-end tasks it queues are purged.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from games.engine.matching import DEFAULT_POLICY, Seeker, match

RUNS = 7


def steady(count: int, rng: random.Random) -> list[Seeker]:
    return [Seeker(i + 1, int(rng.gauss(1500, 250)), rng.uniform(0, 60)) for i in range(count)]


def burst(count: int, rng: random.Random) -> list[Seeker]:
    return [Seeker(i + 1, int(rng.gauss(1500, 250)), rng.uniform(58, 60)) for i in range(count)]


def idle(count: int, rng: random.Random) -> list[Seeker]:
    return [Seeker(i + 1, 100 * i, 60.0) for i in range(count)]


def _median_ms(function, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def pure(count: int) -> None:
    for name, make in (("steady", steady), ("burst", burst), ("idle", idle)):
        queue = make(count, random.Random(1))
        result = match(queue, 60.0, DEFAULT_POLICY)
        sizes = [len(t) for t in result.tables]
        ms = _median_ms(lambda q=queue: match(q, 60.0, DEFAULT_POLICY))
        print(
            f"pure {name:6} {count} queued: median {ms:7.1f} ms per pass; {len(sizes)} tables "
            f"({sizes.count(4)} of 4, {sizes.count(3)} of 3, {sizes.count(2)} of 2), "
            f"{len(result.waiting)} left waiting"
        )


def _database() -> None:
    from bench.django_env import prepared_env

    prepared_env("wg_bench_match")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("load_lexicons", verbosity=0)


def with_database(count: int) -> None:
    _database()
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.utils import timezone

    from config.celery import app
    from games.hunts.models import QueueEntry
    from games.hunts.services import matchmaking

    User = get_user_model()
    run = f"mm{int(time.time()) % 100000}"
    User.objects.bulk_create(
        User(username=f"{run}-{n}", email=f"{run}-{n}@bench.invalid", password="!") for n in range(count)
    )
    users = list(User.objects.filter(username__startswith=f"{run}-").order_by("pk"))
    try:
        now = timezone.now()

        def fill(seekers):
            QueueEntry.objects.filter(user__in=users).delete()
            QueueEntry.objects.bulk_create(
                QueueEntry(
                    user=user,
                    pool="rampage",
                    rating=seeker.rating,
                    joined_at=now - timedelta(seconds=60 - seeker.joined_at),
                    seen_at=now,
                )
                for user, seeker in zip(users, seekers)
            )

        fill(idle(count, random.Random(1)))
        ms = _median_ms(lambda: matchmaking.match_pool(pool="rampage", now=now))
        print(f"db   idle   {count} queued: median {ms:7.1f} ms per pass (nobody seatable)")

        fill(steady(count, random.Random(1)))
        start = time.perf_counter()
        report = matchmaking.match_pool(pool="rampage", now=now, seat=False)
        print(
            f"db   decide {count} queued: {(time.perf_counter() - start) * 1000:7.1f} ms for the pass deciding "
            f"{report.decided} tables (seating left to one task per table, as the beat task does)"
        )
        QueueEntry.objects.filter(user__in=users).update(reserved_until=None)
        queries = [0]

        def counted(execute, sql, params, many, context):
            queries[0] += 1
            return execute(sql, params, many, context)

        start, cpu = time.perf_counter(), time.process_time()
        with connection.execute_wrapper(counted):
            report = matchmaking.match_pool(pool="rampage", now=now)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        tables = len(report.tables)
        print(
            f"db   steady {count} queued: {seconds * 1000:7.0f} ms for the pass seating {tables} tables "
            f"({seconds * 1000 / max(tables, 1):.1f} ms per table, boards and rounds included; this process's "
            f"CPU {cpu * 1000 / max(tables, 1):.1f} ms per table, {queries[0] / max(tables, 1):.1f} queries per "
            f"table) [budget <= 100 ms per table]; {report.waiting} left waiting"
        )
    finally:
        User.objects.filter(username__startswith=f"{run}-").delete()
        app.control.purge()


def main(argv: list[str]) -> int:
    count = int(next((a for a in argv if a.isdigit()), 2000))
    pure(count)
    if "--pure" not in argv:
        with_database(count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
