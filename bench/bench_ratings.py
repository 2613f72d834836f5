"""Ratings at scale: rating updates per second in the worker path, leaderboard and profile pages.

Run with ``python -m bench.bench_ratings [--players 10000] [--results 200000] [--apply 2000]``.
Needs PostgreSQL and Redis. It builds a throwaway database, $BENCH_RATINGS_DATABASE_URL
(default ``postgres://postgres@127.0.0.1:5432/wf_bench_ratings``; dropped and created
anew, dropped again at the end unless ``--keep``), and uses $BENCH_REDIS_URL (default
$REDIS_URL, else ``redis://127.0.0.1:6379/14``) for the cache.

The data set is generated with bulk_create: ``--players`` rated players and ``--results``
rated results spread over the pools (hunt results of 2–4 players, crossword results of
2) in the last 60 days, rated in memory by the same model the worker uses, so every
player's rating, games and history are what the worker would have written. The player
profiled also gets 1,000 finished hunt rounds (8 words each per player) and 300 finished
crossword games (10 moves each), so the profile's statistics read real game tables.

Measured (medians):

- worker path: ``--apply`` results recorded (as the hunt and crossword hooks do) and
  then applied by ``ratings_apply``, the function the Celery task calls: updates per
  second, and the time per update;
- the leaderboard page (first page, a deep page, signed in off the first page) and the
  API's leaderboard, uncached;
- the profile page of the heaviest player;
- ``ratings_rebuild`` of one pool, for the record.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta

from bench.django_env import bench_env

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/wf_bench_ratings"
# Hunt pools take 2–4 players; crossword pools are two-player.
POOL_WEIGHTS = {"rampage": 40, "classic4": 20, "classic5": 10, "wordgrid": 20, "wordgame": 10}
BATCH = 5000


def _recreate(url: str, *, drop_only: bool = False) -> None:
    import psycopg

    base = url.split("?", 1)[0]
    name = base.rsplit("/", 1)[1]
    admin = base.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop_only:
            conn.execute(f'CREATE DATABASE "{name}"')


def _median_ms(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _median_cpu_ms(run, repeat: int) -> float:
    """The median CPU time of ``run`` in this thread: the server's own work, without waiting
    for PostgreSQL or for a core on a busy machine."""
    times = []
    for _ in range(repeat):
        start = time.thread_time()
        run()
        times.append((time.thread_time() - start) * 1000)
    return statistics.median(times)


def generate(players: int, results: int, seed: int = 1) -> dict:
    """Users, rated results with their players, ratings and pool clocks; returns facts."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.ratings import scale
    from games.ratings.models import PoolClock, RatedPlayer, RatedResult, Rating

    rng = random.Random(seed)
    User = get_user_model()
    start = time.perf_counter()
    User.objects.bulk_create(
        (
            User(username=f"p{i:05}", email=f"p{i:05}@bench.invalid", password="!", display_name=f"Player {i}")
            for i in range(players)
        ),
        batch_size=BATCH,
    )
    # Only the generated players (migrations may have made bot accounts already).
    ids = list(User.objects.filter(email__endswith="@bench.invalid").order_by("pk").values_list("pk", flat=True))
    heavy = ids[0]
    now = timezone.now()
    span = timedelta(days=60).total_seconds()
    pools = list(POOL_WEIGHTS)
    weights = list(POOL_WEIGHTS.values())
    state: dict[tuple[int, str], list] = {}  # (user, pool) -> [mu, sigma, games, wins, last]
    seq = dict.fromkeys(pools, 0)
    made = 0
    # Results come in finishing order, so history and seq agree as in production.
    while made < results:
        chunk = min(BATCH, results - made)
        rows, finishes = [], []
        for index in range(chunk):
            pool = rng.choices(pools, weights)[0]
            size = 2 if pool in ("wordgrid", "wordgame") else rng.choice((2, 2, 3, 4))
            players_here = rng.sample(ids, size)
            if rng.random() < 0.01 and heavy not in players_here:
                players_here[0] = heavy
            places = sorted(rng.randint(1, size) for _ in players_here)
            seq[pool] += 1
            finished_at = now - timedelta(seconds=span * (1 - (made + index) / results))
            rows.append(
                RatedResult(
                    pool=pool,
                    seq=seq[pool],
                    kind="hunt" if size > 2 or pool[0] in "rc" else "crossword",
                    object_id=made + index + 1,
                    finished_at=finished_at,
                    applied=True,
                    applied_at=finished_at,
                )
            )
            finishes.append((pool, players_here, places, finished_at))
        RatedResult.objects.bulk_create(rows, batch_size=BATCH)
        players_rows = []
        for result, (pool, players_here, places, finished_at) in zip(rows, finishes, strict=True):
            skills = [state.setdefault((u, pool), [scale.MU, scale.SIGMA, 0, 0, None])[:2] for u in players_here]
            after = scale.rate(skills, places)
            outright = places.count(1) == 1
            for user_id, place, (mu, sigma), (mu0, sigma0) in zip(players_here, places, after, skills, strict=True):
                entry = state[(user_id, pool)]
                players_rows.append(
                    RatedPlayer(
                        result=result,
                        user_id=user_id,
                        place=place,
                        score=rng.randint(0, 120),
                        pool=pool,
                        finished_at=finished_at,
                        mu_before=mu0,
                        sigma_before=sigma0,
                        rating_before=scale.shown(mu0),
                        mu_after=mu,
                        sigma_after=sigma,
                        rating_after=scale.shown(mu),
                    )
                )
                entry[0], entry[1] = mu, sigma
                entry[2] += 1
                entry[3] += int(place == 1 and outright)
                entry[4] = finished_at
        RatedPlayer.objects.bulk_create(players_rows, batch_size=BATCH)
        made += chunk
    Rating.objects.bulk_create(
        (
            Rating(
                user_id=u,
                pool=p,
                mu=mu,
                sigma=sigma,
                rating=scale.shown(mu),
                games=games,
                wins=wins,
                last_played_at=last,
            )
            for (u, p), (mu, sigma, games, wins, last) in state.items()
        ),
        batch_size=BATCH,
    )
    PoolClock.objects.bulk_create([PoolClock(pool=p, recorded=n, applied=n) for p, n in seq.items()])
    return {"heavy": heavy, "seconds": time.perf_counter() - start, "ratings": len(state)}


def generate_games(heavy: int, seed: int = 2) -> None:
    """Finished hunt rounds and crossword games of the profiled player, for the statistics."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.crosswords.models import Game, Move, Seat
    from games.hunts.models import FoundWord, HuntRound, HuntTable, RoundPlayer

    rng = random.Random(seed)
    others = list(
        get_user_model()
        .objects.filter(email__endswith="@bench.invalid")
        .exclude(pk=heavy)
        .values_list("pk", flat=True)[:40]
    )
    now = timezone.now()
    # Casual: these games have no rated results of their own (the rated history is synthetic).
    table = HuntTable.objects.create(host_id=heavy, ranked=False, seat_count=4, status="between")
    rounds = HuntRound.objects.bulk_create(
        HuntRound(
            table=table,
            number=n + 1,
            game=rng.choice(("rampage", "classic")),
            size=4,
            board="catsorexdingplum",
            seed="s",
            lexicon_code="en",
            lexicon_version=1,
            min_length=3,
            starts_at=now - timedelta(hours=n),
            deadline=now - timedelta(hours=n) + timedelta(minutes=2),
            status="finished",
            ended_at=now - timedelta(hours=n) + timedelta(minutes=2),
        )
        for n in range(1000)
    )
    words = ["cat", "cats", "ore", "ding", "plum", "rex", "tin", "dire", "coat", "act", "arc", "sore"]
    players, found = [], []
    for game_round in rounds:
        seated = [heavy] + rng.sample(others, rng.randint(1, 3))
        scores = [rng.randint(0, 90) for _ in seated]
        best = max(scores)
        for position, (user_id, score) in enumerate(zip(seated, scores, strict=True)):
            placing = 1 + sum(s > score for s in scores)
            players.append(
                RoundPlayer(
                    round=game_round,
                    user_id=user_id,
                    position=position,
                    score=score,
                    word_count=8,
                    placing=placing,
                    is_winner=score == best and scores.count(best) == 1,
                    is_draw=score == best and scores.count(best) > 1,
                )
            )
            for word in rng.sample(words, 8):
                found.append(
                    FoundWord(
                        round=game_round,
                        user_id=user_id,
                        word=word,
                        path="0,1,2",
                        points=rng.randint(1, 30),
                        exclusive=False,
                        found_at=game_round.starts_at + timedelta(seconds=5),
                    )
                )
    RoundPlayer.objects.bulk_create(players, batch_size=BATCH)
    FoundWord.objects.bulk_create(found, batch_size=BATCH, ignore_conflicts=True)
    games = Game.objects.bulk_create(
        Game(
            variant=rng.choice(("wordgrid", "wordgame")),
            players=2,
            lexicon_code="common",
            lexicon_version=1,
            seconds_per_move=86400,
            status="finished",
            created_by_id=heavy,
            ranked=False,
            finished_at=now - timedelta(days=n % 50, minutes=n),
            move_count=10,
        )
        for n in range(300)
    )
    seats, moves = [], []
    for game in games:
        opponent = rng.choice(others)
        mine, theirs = rng.randint(150, 450), rng.randint(150, 450)
        seats.append(
            Seat(game=game, index=0, user_id=heavy, accepted=True, score=mine, place=1 if mine >= theirs else 2)
        )
        seats.append(
            Seat(game=game, index=1, user_id=opponent, accepted=True, score=theirs, place=1 if theirs >= mine else 2)
        )
        for number in range(10):
            moves.append(
                Move(
                    game=game,
                    number=number,
                    seat=number % 2,
                    kind="place",
                    score=rng.randint(2, 90),
                    placement=[[7, 7 + number, "a", False]],
                    words=[["word", 10]],
                )
            )
    Seat.objects.bulk_create(seats, batch_size=BATCH)
    Move.objects.bulk_create(moves, batch_size=BATCH)


def measure(heavy: int, apply_count: int, seed: int = 3) -> dict:
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import transaction
    from django.test import Client

    from games.ratings import selectors, services, tasks
    from games.ratings.models import Rating
    from games.ratings.services import Finish

    rng = random.Random(seed)
    figures = {}
    ids = list(get_user_model().objects.filter(email__endswith="@bench.invalid").values_list("pk", flat=True))
    # The worker path: record as the game hooks do (one transaction each), then apply as
    # the task does. The task send is left out: no worker runs here.
    real_delay = tasks.apply_ratings.delay
    tasks.apply_ratings.delay = lambda *args, **kwargs: None
    object_ids = iter(range(10_000_000, 20_000_000))

    def record(count):
        for _ in range(count):
            pool = rng.choices(list(POOL_WEIGHTS), list(POOL_WEIGHTS.values()))[0]
            size = 2 if pool in ("wordgrid", "wordgame") else rng.choice((2, 3, 4))
            with transaction.atomic():
                services.result_record(
                    pool=pool,
                    kind="tow",
                    object_id=next(object_ids),
                    finishes=[Finish(u, rng.randint(1, size)) for u in rng.sample(ids, size)],
                )

    try:
        # As results arrive one by one: each task applies one result in its transaction.
        record(apply_count)
        start = time.perf_counter()
        applied = 0
        for pool in POOL_WEIGHTS:
            while services.ratings_apply(pool=pool, limit=1):
                applied += 1
        elapsed = time.perf_counter() - start
        figures["updates_per_second"] = applied / elapsed
        figures["ms_per_update"] = elapsed * 1000 / applied
        # A backlog (after a worker outage): up to BATCH results per transaction.
        record(apply_count)
        start = time.perf_counter()
        applied = sum(services.ratings_apply(pool=pool) for pool in POOL_WEIGHTS)
        figures["backlog_updates_per_second"] = applied / (time.perf_counter() - start)
    finally:
        tasks.apply_ratings.delay = real_delay

    client = Client()
    figures["leaderboard_page_1_ms"] = _median_ms(lambda: client.get("/ratings/rampage/"), 15)
    total = selectors.leaderboard("rampage")[0].paginator.count
    deep = max(1, total // selectors.LEADERBOARD_PAGE // 2)
    figures["leaderboard_deep_page_ms"] = _median_ms(lambda: client.get(f"/ratings/rampage/?page={deep}"), 15)
    middle = (
        Rating.objects.filter(pool="rampage", games__gte=10)
        .order_by("-rating")
        .values_list("user_id", flat=True)[total // 2]
    )
    signed_in = Client()
    signed_in.force_login(get_user_model().objects.get(pk=middle))
    figures["leaderboard_signed_in_ms"] = _median_ms(lambda: signed_in.get("/ratings/rampage/"), 15)

    def api_uncached():
        cache.clear()
        client.get("/api/leaderboards/rampage", REMOTE_ADDR=f"10.0.{rng.randint(0, 255)}.{rng.randint(0, 255)}")

    figures["api_leaderboard_uncached_ms"] = _median_ms(api_uncached, 15)
    username = get_user_model().objects.get(pk=heavy).username
    for url in ("/ratings/rampage/", f"/ratings/rampage/?page={deep}", f"/u/{username}/"):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
    assert b"Ratings and statistics" in response.content
    figures["profile_ms"] = _median_ms(lambda: client.get(f"/u/{username}/"), 10)
    figures["profile_cpu_ms"] = _median_cpu_ms(lambda: client.get(f"/u/{username}/"), 10)
    figures["profile_rated_results"] = selectors.player_ratings([heavy], "rampage")[heavy].games
    figures["ranked_on_rampage_board"] = total

    start = time.perf_counter()
    replayed = services.ratings_rebuild(pools=["classic5"])["classic5"]
    figures["rebuild_classic5_results"] = replayed
    figures["rebuild_classic5_s"] = time.perf_counter() - start
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--results", type=int, default=200_000)
    parser.add_argument("--apply", type=int, default=2_000)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args(argv)

    url = os.environ.get("BENCH_RATINGS_DATABASE_URL", DEFAULT_DB)
    os.environ.update(bench_env(url.rsplit("/", 1)[1]))
    os.environ["DATABASE_URL"] = url  # dropped and made again on every run, never $BENCH_DATABASE_URL
    os.environ.setdefault("API_RATE_LIMIT", "1000000/m")
    _recreate(url)
    try:
        import django

        django.setup()
        from django.core.management import call_command

        start = time.perf_counter()
        call_command("migrate", verbosity=0)
        print(f"migrated in {time.perf_counter() - start:.1f} s")
        from django.db import connection

        # Generation only: server-side parameters, so psycopg parses each (identical) bulk
        # INSERT once instead of splitting tens of thousands of placeholders per batch.
        # The measurements below use the site's own settings.
        connection.close()
        connection.settings_dict.setdefault("OPTIONS", {})["server_side_binding"] = True
        facts = generate(args.players, args.results)
        print(
            f"generated {args.players} players, {args.results} results, {facts['ratings']} ratings "
            f"in {facts['seconds']:.1f} s"
        )
        start = time.perf_counter()
        generate_games(facts["heavy"])
        print(f"generated the profiled player's hunts and crosswords in {time.perf_counter() - start:.1f} s")
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # as autovacuum would after a load this size
        connection.close()
        connection.settings_dict["OPTIONS"].pop("server_side_binding")
        from django.conf import settings
        from django.test.utils import override_settings

        # Pages render as in production, less what needs a deployment around them: no
        # HTTPS redirect (no proxy here) and plain static file names (no collectstatic).
        storages = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        with override_settings(SECURE_SSL_REDIRECT=False, STORAGES=storages):
            figures = measure(facts["heavy"], args.apply)
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep:
            _recreate(url, drop_only=True)
    print(
        f"rating updates (worker path), one per transaction: {figures['updates_per_second']:.0f}/s "
        f"({figures['ms_per_update']:.2f} ms each, {args.apply} results); a backlog of {args.apply}: "
        f"{figures['backlog_updates_per_second']:.0f}/s"
    )
    print(
        f"leaderboard page 1: {figures['leaderboard_page_1_ms']:.1f} ms; deep page: "
        f"{figures['leaderboard_deep_page_ms']:.1f} ms; signed in, own place off page 1: "
        f"{figures['leaderboard_signed_in_ms']:.1f} ms ({figures['ranked_on_rampage_board']} ranked)"
    )
    print(f"API leaderboard, uncached: {figures['api_leaderboard_uncached_ms']:.1f} ms")
    print(
        f"profile page ({figures['profile_rated_results']} rated Rampage results, 1000 rounds, "
        f"300 crosswords): {figures['profile_ms']:.1f} ms, server CPU {figures['profile_cpu_ms']:.1f} ms "
        "[budget <= 20 ms]"
    )
    print(
        f"ratings_rebuild classic5 ({figures['rebuild_classic5_results']} results): "
        f"{figures['rebuild_classic5_s']:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
