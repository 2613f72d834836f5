"""Live round load test: many websocket players on one daphne process, against its budgets.

Run with ``python -m bench.bench_live_round [--players 200] [--seconds 60] [--interval 2]
[--processes 1] [--profile FILE] [--apart] [--floor] [--server daphne|uvicorn]``. Needs
PostgreSQL and Redis (server mode). It uses its own database, $BENCH_DATABASE_URL
(default ``postgres://postgres@127.0.0.1:5432/wg_bench_live``, created and migrated if
missing), and $BENCH_REDIS_URL (default $REDIS_URL, else
``redis://127.0.0.1:6379/14``), whose keys it leaves behind (``bench/django_env.py``).
With ``--processes N`` the players are spread over N daphne processes, each table's
players over different processes, as behind a load balancer. ``--profile FILE`` records
the first daphne with py-spy (if installed) while players submit. ``--floor`` serves the
same messages with no game behind them (``bench/floor_asgi.py``): the server stack's own
cost, below which the submit path cannot go. ``--apart`` has the players of a table share
its words out instead of racing for them, so nearly every submission is accepted and the
CPU per accepted submission is its own. ``--server uvicorn`` runs the same application on
uvicorn with uvloop (not a dependency of the site; install it to compare).

Players sit four to a Rampage table; every round is running. Each player opens a table
socket to one daphne process and submits a word of its board every ``interval`` seconds
(starting at a random phase), so the four players of a table compete for the same words.
Measured per submission:

- reply latency: from sending ``submit`` to that player's ``result`` (every submission);
- broadcast latency: from sending an accepted word to its ``round.found`` arriving at
  each of the table's other sockets, and to the finder's own reply (which is the
  finder's only news of it) (submit-to-broadcast);
- server CPU: daphne's own user and system time (/proc/<pid>/stat, every thread) per
  submission, per accepted submission (everything the server did, fan-out to the four
  players included, divided by the accepted ones) and per message delivered. Where the
  machine has two cores or more, daphne is pinned to one and this process (the load
  generator) to the others.
- lost: submissions with no result, and accepted words missing at any table socket.

After the run the database is checked against what the players were told: each accepted
word stored once with its points and nothing else, each socket's finds equal to its
round's stored words, and, once the rounds are ended, each player's result the sum of
their accepted words.

Budgets: p99 submit-to-broadcast < 100 ms, p99 reply < 50 ms, nothing lost, server CPU
per accepted submission < 1.5 ms. ``--against-floor`` measures the floor and then the site
in one run, on fresh tables each: the site's CPU per submission is at most 1.4 times the
floor's (the floor moves 1.1-2.6 ms between machines; the ratio is what the site adds). The exit status is non-zero
only when a submission got no result or the database differs from what players were told
(a missed latency or CPU budget is reported, not failed).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from bench.django_env import prepared_env

ROOT = Path(__file__).resolve().parent.parent
BUDGET_P99_MS = 100.0
BUDGET_REPLY_P99_MS = 50.0
BUDGET_CPU_PER_ACCEPTED_MS = 1.5
# The site's CPU per submission against the stack's own (the floor) measured in the same
# run: the floor itself moves 1.1-2.6 ms between machines, the ratio much less.
BUDGET_RATIO_TO_FLOOR = 1.4
SITE_APP, FLOOR_APP = "config.asgi:application", "bench.floor_asgi:application"
ARRIVAL_SECONDS_PER_200 = 8.0  # players arrive over a few seconds, more of them over longer


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _setup(players: int, seconds: float) -> list[dict]:
    """Create players, tables and running rounds; return one dict per player."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone

    from games.engine import hunt
    from games.hunts import services
    from games.hunts.models import HuntRound
    from lexicon.services import get_lexicon

    User = get_user_model()
    run = f"{int(time.time()) % 100000}"
    users = []
    for n in range(players):
        user = User(username=f"bench{run}-{n}", email=f"bench{run}-{n}@bench.invalid")
        user.set_unusable_password()
        users.append(user)
    User.objects.bulk_create(users)
    users = list(User.objects.filter(username__startswith=f"bench{run}-").order_by("pk"))
    sessions = {}
    for user in users:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        sessions[user.pk] = store.session_key
    clients = []
    for first in range(0, len(users), 4):
        group = users[first : first + 4]
        table = services.table_create(host=group[0], seat_count=4)
        for user in group[1:]:
            services.table_join(table_id=table.pk, user=user)
        if len(group) < 2:
            continue
        game_round = services.round_start(table_id=table.pk, by=group[0])
        board = hunt.Board.from_text(game_round.board)
        words = sorted(hunt.solve(board, get_lexicon(game_round.lexicon_code), game_round.min_length))
        for seat, user in enumerate(group):
            clients.append(
                {
                    "seat": seat,
                    "seats": len(group),
                    "user_id": user.pk,
                    "session": sessions[user.pk],
                    "table_id": table.pk,
                    "round_id": game_round.pk,
                    "words": words,
                }
            )
    # Every round runs from now until well after the run, however long the set-up took.
    now = timezone.now()
    HuntRound.objects.filter(pk__in={c["round_id"] for c in clients}).update(
        starts_at=now, deadline=now + timezone.timedelta(seconds=_arrival_seconds(players) + seconds + 120)
    )
    return clients


class Stats:
    def __init__(self) -> None:
        self.sent: dict[tuple[int, int], float] = {}  # (user, id) -> send time
        self.replied: dict[tuple[int, int], tuple[float, dict]] = {}
        self.broadcast_at: dict[tuple[int, str], list[float]] = {}
        self.outcomes: dict[str, int] = {}
        self.reconnects = 0
        self.messages = 0  # every message a socket received during the run
        self.window_cpu: list[float] = []  # each daphne's CPU seconds while players submit (and 2 s after)
        self.window_messages = 0
        self.window_split: dict[str, float] = {}  # the same CPU by thread kind and user/system, summed
        self.seen: dict[int, set[tuple[int, str, int]]] = {}  # player -> finds its socket heard of


def _arrival_seconds(players: int) -> float:
    return ARRIVAL_SECONDS_PER_200 * max(1.0, players / 200)


async def _player(
    client: dict,
    url: str,
    origin: str,
    stats: Stats,
    go_at: float,
    stop_at: float,
    interval: float,
    arrival: float,
    apart: bool = False,
) -> None:
    import websockets

    headers = {"Cookie": f"sessionid={client['session']}", "Origin": origin}
    rng = random.Random(client["user_id"])
    words = list(client["words"])
    if apart:  # each player of the table its own share of the board's words
        words = words[client["seat"] :: client["seats"]]
    rng.shuffle(words)
    await asyncio.sleep(rng.uniform(0, arrival))
    for attempt in range(3):
        try:
            ws = await websockets.connect(url, additional_headers=headers, max_size=2**22, open_timeout=30)
            break
        except (OSError, websockets.exceptions.InvalidMessage):
            stats.reconnects += 1
            await asyncio.sleep(1 + attempt)
    else:
        raise RuntimeError("could not connect")
    async with ws:
        first = json.loads(await ws.recv())
        assert first["type"] == "state" and first["me"]["seated"], first
        seen = stats.seen.setdefault(client["user_id"], set())

        async def reader():
            async for raw in ws:
                now = time.perf_counter()
                message = json.loads(raw)
                stats.messages += 1
                if message["type"] == "result" and "id" in message:
                    stats.replied[(client["user_id"], message["id"])] = (now, message)
                    stats.outcomes[message["outcome"]] = stats.outcomes.get(message["outcome"], 0) + 1
                    if message["outcome"] == "accepted":
                        # The finder's socket hears its own find in this reply, not again.
                        stats.broadcast_at.setdefault((client["table_id"], message["word"]), []).append(now)
                        seen.add((message["user_id"], message["word"], message["points"]))
                elif message["type"] == "round.found":
                    stats.broadcast_at.setdefault((client["table_id"], message["word"]), []).append(now)
                    seen.add((message["user_id"], message["word"], message["points"]))

        reading = asyncio.create_task(reader())
        # Everyone is connected before anyone submits, so every socket of a table can
        # see every find; then each player keeps its own rhythm.
        await asyncio.sleep(max(0.0, go_at - time.perf_counter()) + rng.uniform(0, interval))
        n = 0
        while time.perf_counter() < stop_at:
            n += 1
            word = words[n % len(words)] if words else "zzz"
            sent = time.perf_counter()
            stats.sent[(client["user_id"], n)] = sent
            await ws.send(json.dumps({"type": "submit", "round_id": client["round_id"], "word": word, "id": n}))
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - sent)))
        await asyncio.sleep(5)  # let the last replies and broadcasts arrive
        reading.cancel()


async def _run(
    clients: list[dict], ports: list[int], seconds: float, interval: float, pids: list[int], apart: bool = False
) -> Stats:
    """Every player on its own socket; player ``n`` of the list on process ``n mod len(ports)``."""
    stats = Stats()
    start = time.perf_counter()
    arrival = _arrival_seconds(len(clients))
    go_at = start + arrival + 3
    stop_at = go_at + seconds

    async def server_cpu_while_submitting():
        # Only the submitting phase: connecting 200 sockets is not a submission's cost.
        await asyncio.sleep(go_at - time.perf_counter())
        before, messages = [_cpu_seconds(pid) for pid in pids], stats.messages
        split_before = [_thread_cpu_seconds(pid) for pid in pids]
        await asyncio.sleep(stop_at + 2 - time.perf_counter())
        stats.window_cpu = [_cpu_seconds(pid) - cpu for pid, cpu in zip(pids, before, strict=True)]
        for pid, earlier in zip(pids, split_before, strict=True):
            for kind, seconds in _thread_cpu_seconds(pid).items():
                stats.window_split[kind] = stats.window_split.get(kind, 0.0) + seconds - earlier[kind]
        stats.window_messages = stats.messages - messages

    def url(n: int, client: dict) -> str:
        return f"ws://127.0.0.1:{ports[n % len(ports)]}/ws/hunts/{client['table_id']}/"

    await asyncio.gather(
        server_cpu_while_submitting(),
        *(
            _player(
                c,
                url(n, c),
                f"http://127.0.0.1:{ports[n % len(ports)]}",
                stats,
                go_at,
                stop_at,
                interval,
                arrival,
                apart,
            )
            for n, c in enumerate(clients)
        ),
    )
    return stats


def _cores() -> tuple[set[int], set[int]]:
    """(daphne's cores, the load generator's): the last core for the server and the rest
    for the load, so neither's CPU time is inflated by the other's; none on one core."""
    try:
        cores = sorted(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return set(), set()
    if len(cores) < 2:
        return set(), set()
    return {cores[-1]}, set(cores[:-1])


def _stat_cpu(stat: Path) -> tuple[float, float]:
    """(user, system) CPU seconds of a /proc ``stat`` file: a process's or one thread's."""
    fields = stat.read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / ticks, int(fields[12]) / ticks


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of every thread of ``pid`` so far, ended ones included."""
    return sum(_stat_cpu(Path(f"/proc/{pid}/stat")))


def _thread_cpu_seconds(pid: int) -> dict[str, float]:
    """CPU time so far of ``pid``'s event-loop thread (its main thread), of its other
    threads (the worker threads running use cases), and the user/system split."""
    split = {"loop": 0.0, "workers": 0.0, "user": 0.0, "system": 0.0}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            user, system = _stat_cpu(task / "stat")
        except OSError:  # the thread ended
            continue
        split["loop" if task.name == str(pid) else "workers"] += user + system
        split["user"] += user
        split["system"] += system
    return split


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _report(stats: Stats, clients: list[dict], seconds: float) -> bool:
    replies = [(at - stats.sent[key]) * 1000 for key, (at, _) in stats.replied.items()]
    lost_replies = _lost(stats)
    players_at = {}
    for c in clients:
        players_at[c["table_id"]] = players_at.get(c["table_id"], 0) + 1
    broadcasts = []
    broadcasts_by_time = []
    missing = 0
    table_of = {c["user_id"]: c["table_id"] for c in clients}
    # (table, word) -> when the submission that was accepted was sent
    accepted_words = {
        (table_of[key[0]], message["word"]): stats.sent[key]
        for key, (_, message) in stats.replied.items()
        if message["outcome"] == "accepted"
    }
    for key, sent in accepted_words.items():
        arrivals = stats.broadcast_at.get(key, [])
        missing += max(0, players_at[key[0]] - len(arrivals))
        broadcasts.extend((at - sent) * 1000 for at in arrivals)
        broadcasts_by_time.extend((sent, (at - sent) * 1000) for at in arrivals)
    print(
        f"players: {len(clients)} on {len(players_at)} tables, {seconds:.0f} s, "
        f"{len(stats.sent)} submissions ({len(stats.sent) / seconds:.0f}/s), outcomes {stats.outcomes}, "
        f"{stats.reconnects} connection retries"
    )
    if replies:
        print(
            f"reply latency ms: p50 {_percentile(replies, 0.5):.1f}  p95 {_percentile(replies, 0.95):.1f}  "
            f"p99 {_percentile(replies, 0.99):.1f}  max {max(replies):.1f}  "
            f"[budget p99 < {BUDGET_REPLY_P99_MS:.0f} ms]"
        )
    ok = lost_replies == 0 and missing == 0
    if broadcasts:
        p99 = _percentile(broadcasts, 0.99)
        ok = ok and p99 < BUDGET_P99_MS
        print(
            f"submit-to-broadcast ms ({len(broadcasts)} deliveries of {len(accepted_words)} accepted words): "
            f"p50 {_percentile(broadcasts, 0.5):.1f}  p95 {_percentile(broadcasts, 0.95):.1f}  "
            f"p99 {p99:.1f}  max {max(broadcasts):.1f}  [budget p99 < {BUDGET_P99_MS:.0f} ms]"
        )
    if broadcasts_by_time:
        start = min(sent for sent, _ in broadcasts_by_time)
        windows: dict[int, list[float]] = {}
        for sent, latency in broadcasts_by_time:
            windows.setdefault(int((sent - start) // 10), []).append(latency)
        print(
            "submit-to-broadcast p99 per 10 s window: "
            + ", ".join(f"{_percentile(v, 0.99):.0f}" for _, v in sorted(windows.items()))
        )
    print(
        f"lost: {lost_replies} submissions without a result, {missing} broadcasts missing  "
        f"-> {'OK' if ok else 'NOT MET'}"
    )
    return ok


def _check_database(stats: Stats, clients: list[dict]) -> bool:
    """The words, state and results in the database are what the players were told.

    Every accepted reply is one stored word with its points and nothing else is stored;
    every socket heard of exactly its round's stored words; then each round is ended
    and every player's total is the sum of their accepted words.
    """
    from django.db import connections
    from django.db.models import Sum

    from games.hunts import services
    from games.hunts.models import FoundWord, HuntRound, RoundPlayer

    connections.close_all()  # the set-up's connection may have outlived the server's patience
    round_of = {c["user_id"]: c["round_id"] for c in clients}
    told = {
        (round_of[user_id], user_id, message["word"], message["points"])
        for (user_id, _), (_, message) in stats.replied.items()
        if message["outcome"] == "accepted"
    }
    rounds = sorted({c["round_id"] for c in clients})
    stored = set(FoundWord.objects.filter(round_id__in=rounds).values_list("round_id", "user_id", "word", "points"))
    problems = []
    if told != stored:
        problems.append(f"{len(told - stored)} accepted words not stored, {len(stored - told)} stored words not told")
    stored_by_round: dict[int, set] = {}
    for round_id, user_id, word, points in stored:
        stored_by_round.setdefault(round_id, set()).add((user_id, word, points))
    unequal = sum(
        1 for c in clients if stats.seen.get(c["user_id"], set()) != stored_by_round.get(c["round_id"], set())
    )
    if unequal:
        problems.append(f"{unequal} sockets' finds differ from their round's stored words")
    for game_round in HuntRound.objects.filter(pk__in=rounds):
        services.round_end(round_id=game_round.pk, now=game_round.deadline)
    totals = {}
    for round_id, user_id, _, points in told:
        totals[(round_id, user_id)] = totals.get((round_id, user_id), 0) + points
    scores = RoundPlayer.objects.filter(round_id__in=rounds).values_list("round_id", "user_id", "score")
    wrong = sum(1 for round_id, user_id, score in scores if score != totals.get((round_id, user_id), 0))
    if wrong:
        problems.append(f"{wrong} players' results differ from their accepted words")
    summed = FoundWord.objects.filter(round_id__in=rounds).aggregate(points=Sum("points"))["points"] or 0
    print(
        f"database after the run: {len(stored)} words stored ({summed} points) in {len(rounds)} rounds, now ended; "
        + ("; ".join(problems) if problems else "equal to what every player was told, results included")
    )
    return not problems


def _start_daphnes(
    count: int, env: dict[str, str], cores: set[int], app: str, server: str = "daphne"
) -> tuple[list[subprocess.Popen], list[int], Path]:
    log_path = ROOT / "var" / "bench-live-round-daphne.log"
    log_path.parent.mkdir(exist_ok=True)
    log = open(log_path, "w")
    ports = [_free_port() for _ in range(count)]
    daphnes = [
        subprocess.Popen(
            _server_command(server, port, app),
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=(lambda: os.sched_setaffinity(0, cores)) if cores else None,
        )
        for port in ports
    ]
    # Loading the site takes seconds, and more on a busy machine.
    deadline = time.monotonic() + 120
    for daphne, port in zip(daphnes, ports, strict=True):
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError as exc:
                if time.monotonic() > deadline or daphne.poll() is not None:
                    raise RuntimeError(f"daphne did not start; see {log_path}") from exc
                time.sleep(0.2)
    return daphnes, ports, log_path


def _server_command(server: str, port: int, app: str) -> list[str]:
    binary = str(Path(sys.executable).parent / server)
    if server == "daphne":
        return [binary, "-b", "127.0.0.1", "-p", str(port), app]
    # A peer for comparison only: the site is served by daphne. No compression, as daphne.
    return [binary, "--host", "127.0.0.1", "--port", str(port), "--loop", "uvloop", "--ws", "websockets"] + [
        "--ws-per-message-deflate",
        "false",
        "--no-access-log",
        "--log-level",
        "warning",
        app,
    ]


def _profile(pid: int, seconds: float, path: str) -> subprocess.Popen | None:
    """py-spy (``pip install py-spy``) sampling ``pid`` where it holds the GIL, in collapsed stacks."""
    py_spy = shutil.which("py-spy")
    if py_spy is None:
        print("--profile needs py-spy on the PATH; not profiling")
        return None
    command = [py_spy, "record", "-p", str(pid), "-d", str(int(seconds)), "-r", "200", "--gil", "--nonblocking"]
    return subprocess.Popen(command + ["--format", "raw", "-o", path], stdout=subprocess.DEVNULL)


def _serve(args, env: dict, app: str):
    """One run: players on fresh tables, served by ``app``; (stats, clients, server CPU ms per submission)."""
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    try:
        return _serve_pinned(args, env, app)
    finally:
        if cores:
            os.sched_setaffinity(0, cores)  # the next run pins afresh


def _serve_pinned(args, env: dict, app: str):
    clients = _setup(args.players, args.seconds)
    server_core, load_cores = _cores()
    if args.server != "daphne" and shutil.which(args.server, path=str(Path(sys.executable).parent)) is None:
        raise SystemExit(f"--server {args.server} needs it installed: pip install 'uvicorn[standard]'")
    daphnes, ports, log_path = _start_daphnes(args.processes, env, server_core, app, args.server)
    pids = [daphne.pid for daphne in daphnes]
    if load_cores:
        os.sched_setaffinity(0, load_cores)  # this process is the load generator, for this run
    print(
        f"{len(daphnes)} {args.server} process(es) on cores {sorted(server_core) or 'any'}, load generator (this process) "
        f"on {sorted(load_cores) or 'any'}"
    )
    profiling: list[subprocess.Popen] = []
    try:
        if args.profile:
            # From when every player submits to the end of the submitting phase.
            threading.Timer(
                _arrival_seconds(len(clients)) + 4,
                lambda: profiling.append(_profile(pids[0], args.seconds - 2, args.profile)),
            ).start()
        cpu_before, load_before = [_cpu_seconds(pid) for pid in pids], _cpu_seconds(os.getpid())
        started = time.perf_counter()
        # The load generator's own full collections (100-150 ms once its records of every
        # message have grown) would count as the server's latency: none while players play.
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            stats = asyncio.run(_run(clients, ports, args.seconds, args.interval, pids, args.apart))
        finally:
            gc.enable()
            gc.unfreeze()
        elapsed = time.perf_counter() - started
        server_cpu = [_cpu_seconds(pid) - cpu for pid, cpu in zip(pids, cpu_before, strict=True)]
        load_cpu = _cpu_seconds(os.getpid()) - load_before
        print(
            f"{args.server} CPU during the run: "
            + ", ".join(f"{cpu / elapsed * 100:.0f} % of a core ({cpu:.1f} s)" for cpu in server_cpu)
            + f"; load generator {load_cpu:.1f} s; machine load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
    finally:
        for daphne in daphnes:
            daphne.terminate()
        for daphne in daphnes:
            try:
                daphne.wait(timeout=10)
            except subprocess.TimeoutExpired:
                daphne.kill()
        for profiler in filter(None, profiling):
            profiler.wait(timeout=30)
            print(f"profile of {pids[0]} written to {args.profile}")
    # A missed latency budget is a figure to report; a lost submission is a bug.
    _report(stats, clients, args.seconds)
    accepted = stats.outcomes.get("accepted", 0)
    submitted = sum(stats.outcomes.values())
    per_submission = None
    if submitted and stats.window_messages:
        window = sum(stats.window_cpu) * 1000
        per_accepted = window / accepted if accepted else float("nan")
        print(
            f"server CPU while submitting ({args.server}'s own counters, {sum(stats.window_cpu):.1f} s"
            + (f": {' + '.join(f'{cpu:.1f}' for cpu in stats.window_cpu)} s" if len(pids) > 1 else "")
            + f"): {window / submitted:.2f} ms per submission, {per_accepted:.2f} ms per accepted submission "
            f"with its fan-out [budget < {BUDGET_CPU_PER_ACCEPTED_MS} ms; every submission's work counted "
            f"against the accepted ones], {window / stats.window_messages:.3f} ms per delivered message "
            f"({stats.window_messages} messages)"
        )
        per_submission = window / submitted
        split = {kind: seconds * 1000 / submitted for kind, seconds in stats.window_split.items()}
        print(
            f"  per submission by thread: event loop {split['loop']:.2f} ms, use-case worker threads "
            f"{split['workers']:.2f} ms; user {split['user']:.2f} ms, system {split['system']:.2f} ms"
        )
    return stats, clients, per_submission


def _against_floor(args, env: dict) -> int:
    """The floor, then the site, ``args.pairs`` times in turn, each on fresh tables: the
    site's CPU per submission against the floor's, pair by pair and over all pairs.

    The machine drifts between runs a few minutes apart (one pair has read 1.2 and the
    next 1.5 on the same code), so several pairs, each floor next to its site, give the
    ratio with less of that drift than one.
    """
    floors, sites = [], []
    for pair in range(1, args.pairs + 1):
        label = f" (pair {pair} of {args.pairs})" if args.pairs > 1 else ""
        print(f"== the floor{label}: the same sockets and messages, no game behind them")
        floor_stats, _, floor_ms = _serve(args, env, FLOOR_APP)
        if _lost(floor_stats):
            return 1
        print(f"== the site{label}")
        stats, clients, site_ms = _serve(args, env, SITE_APP)
        if not _check_database(stats, clients) or _lost(stats):
            return 1
        if floor_ms and site_ms:
            floors.append(floor_ms)
            sites.append(site_ms)
            _print_ratio("in the same run" if args.pairs == 1 else f"pair {pair}", site_ms, floor_ms)
    if len(floors) > 1:
        _print_ratio(
            f"mean of {len(floors)} pairs (each pair {', '.join(f'{s / f:.2f}' for s, f in zip(sites, floors, strict=True))})",
            statistics.mean(sites),
            statistics.mean(floors),
        )
    return 0


def _print_ratio(label: str, site_ms: float, floor_ms: float) -> None:
    ratio = site_ms / floor_ms
    print(
        f"server CPU per submission: site {site_ms:.2f} ms, floor {floor_ms:.2f} ms, {label}: "
        f"{ratio:.2f} x the floor [budget <= {BUDGET_RATIO_TO_FLOOR} x] {'ok' if ratio <= BUDGET_RATIO_TO_FLOOR else 'NOT MET'}"
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--processes", type=int, default=1, help="daphne processes; a table's players are spread")
    parser.add_argument("--profile", metavar="FILE", help="py-spy the (first) daphne while players submit")
    parser.add_argument(
        "--apart",
        action="store_true",
        help="the players of a table share the board's words out instead of racing for them: "
        "nearly every submission is accepted, so CPU per accepted submission is its own cost",
    )
    parser.add_argument(
        "--server",
        choices=("daphne", "uvicorn"),
        default="daphne",
        help="the ASGI server: daphne (the site's) or, to compare, uvicorn with uvloop (pip install 'uvicorn[standard]')",
    )
    parser.add_argument(
        "--against-floor",
        action="store_true",
        help="measure the floor, then the site, in one run, and compare their CPU per submission (the budget)",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        default=1,
        help="with --against-floor: measure the floor and the site this many times in turn and compare their means",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="serve the same messages with no game behind them (bench/floor_asgi.py): the server stack's own cost",
    )
    args = parser.parse_args(argv)

    env = prepared_env("wg_bench_live")
    if args.against_floor:
        return _against_floor(args, env)
    stats, clients, _ = _serve(args, env, FLOOR_APP if args.floor else SITE_APP)
    if args.floor:
        print("floor run: no game behind the messages, nothing stored to check")
        return 1 if _lost(stats) else 0
    equal = _check_database(stats, clients)
    return 1 if _lost(stats) or not equal else 0


def _lost(stats: Stats) -> int:
    """Submissions that got no result: a bug, whatever the figures."""
    return len(set(stats.sent) - set(stats.replied))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
