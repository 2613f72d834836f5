"""Live round load test: many websocket players on one daphne process (DESIGN.md budget).

Run with ``python -m bench.bench_live_round [--players 200] [--seconds 60] [--interval 2]``.
Needs PostgreSQL and Redis (server mode). It uses its own database,
$BENCH_DATABASE_URL (default ``postgres://postgres@127.0.0.1:5432/wg_bench_live``, created
and migrated if missing), and $BENCH_REDIS_URL (default $REDIS_URL, else
``redis://127.0.0.1:6379/14``), whose keys it leaves behind.

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

Budgets: p99 submit-to-broadcast < 100 ms, p99 reply < 50 ms, nothing lost, server CPU
per accepted submission < 1.5 ms. The exit status is non-zero
only when a submission got no result (a missed latency budget is reported, not failed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUDGET_P99_MS = 100.0
BUDGET_REPLY_P99_MS = 50.0
BUDGET_CPU_PER_ACCEPTED_MS = 1.5
ARRIVAL_SECONDS = 8.0


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # Persistent connections, as a server deployment would configure (?conn_max_age=).
    env["DATABASE_URL"] = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/wg_bench_live?conn_max_age=60"
    )
    env["REDIS_URL"] = os.environ.get("BENCH_REDIS_URL", os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/14"))
    env.setdefault("SECRET_KEY", "bench-" + "x" * 60)
    env["DJANGO_SETTINGS_MODULE"] = os.environ.get("BENCH_SETTINGS", "config.settings")
    env["DEBUG"] = "0"
    env["LOG_LEVEL"] = "WARNING"
    return env


def _ensure_database(url: str) -> None:
    import psycopg

    base = url.split("?", 1)[0]
    name = base.rsplit("/", 1)[1]
    admin = base.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


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
        now = timezone.now()
        HuntRound.objects.filter(pk=game_round.pk).update(
            starts_at=now, deadline=now + timezone.timedelta(seconds=seconds + 120)
        )
        board = hunt.Board.from_text(game_round.board)
        words = sorted(hunt.solve(board, get_lexicon(game_round.lexicon_code), game_round.min_length))
        for user in group:
            clients.append(
                {
                    "user_id": user.pk,
                    "session": sessions[user.pk],
                    "table_id": table.pk,
                    "round_id": game_round.pk,
                    "words": words,
                }
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
        self.window_cpu = 0.0  # daphne's CPU seconds while players submit (and 2 s after)
        self.window_messages = 0


async def _player(
    client: dict, url: str, origin: str, stats: Stats, go_at: float, stop_at: float, interval: float
) -> None:
    import websockets

    headers = {"Cookie": f"sessionid={client['session']}", "Origin": origin}
    rng = random.Random(client["user_id"])
    words = list(client["words"])
    rng.shuffle(words)
    await asyncio.sleep(rng.uniform(0, ARRIVAL_SECONDS))  # people arrive over a few seconds
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
                elif message["type"] == "round.found":
                    stats.broadcast_at.setdefault((client["table_id"], message["word"]), []).append(now)

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


async def _run(clients: list[dict], port: int, seconds: float, interval: float, server_pid: int) -> Stats:
    stats = Stats()
    origin = f"http://127.0.0.1:{port}"
    start = time.perf_counter()
    go_at = start + ARRIVAL_SECONDS + 3
    stop_at = go_at + seconds

    async def server_cpu_while_submitting():
        # Only the submitting phase: connecting 200 sockets is not a submission's cost.
        await asyncio.sleep(go_at - time.perf_counter())
        before, messages = _cpu_seconds(server_pid), stats.messages
        await asyncio.sleep(stop_at + 2 - time.perf_counter())
        stats.window_cpu = _cpu_seconds(server_pid) - before
        stats.window_messages = stats.messages - messages

    await asyncio.gather(
        server_cpu_while_submitting(),
        *(
            _player(c, f"ws://127.0.0.1:{port}/ws/hunts/{c['table_id']}/", origin, stats, go_at, stop_at, interval)
            for c in clients
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


def _cpu_seconds(pid: int) -> float:
    """User and system CPU time of every thread of ``pid`` so far (/proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _report(stats: Stats, clients: list[dict], seconds: float) -> bool:
    replies = [(at - stats.sent[key]) * 1000 for key, (at, _) in stats.replied.items()]
    lost_replies = len(set(stats.sent) - set(stats.replied))
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


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--interval", type=float, default=2.0)
    args = parser.parse_args(argv)

    env = _env()
    os.environ.update(env)
    _ensure_database(env["DATABASE_URL"])
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    clients = _setup(args.players, args.seconds)
    port = _free_port()
    log_path = ROOT / "var" / "bench-live-round-daphne.log"
    log_path.parent.mkdir(exist_ok=True)
    log = open(log_path, "w")
    command = [str(Path(sys.executable).parent / "daphne")]
    if os.environ.get("BENCH_SWITCH_INTERVAL"):
        # Experiment: how often threads hand over the GIL (default 5 ms).
        command = [
            sys.executable,
            "-c",
            "import sys; sys.setswitchinterval(float(sys.argv.pop(1))); "
            "from daphne.cli import CommandLineInterface; CommandLineInterface.entrypoint()",
            os.environ["BENCH_SWITCH_INTERVAL"],
        ]
    server_core, load_cores = _cores()
    daphne = subprocess.Popen(
        command + ["-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        preexec_fn=(lambda: os.sched_setaffinity(0, server_core)) if server_core else None,
    )
    if load_cores:
        os.sched_setaffinity(0, load_cores)  # this process is the load generator
    print(
        f"daphne on cores {sorted(server_core) or 'any'}, load generator (this process) on "
        f"{sorted(load_cores) or 'any'}"
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError as exc:
                if time.monotonic() > deadline or daphne.poll() is not None:
                    raise RuntimeError(f"daphne did not start; see {log_path}") from exc
                time.sleep(0.2)
        cpu_before, load_before = _cpu_seconds(daphne.pid), _cpu_seconds(os.getpid())
        started = time.perf_counter()
        stats = asyncio.run(_run(clients, port, args.seconds, args.interval, daphne.pid))
        server_cpu = _cpu_seconds(daphne.pid) - cpu_before
        load_cpu = _cpu_seconds(os.getpid()) - load_before
        cpu = server_cpu / (time.perf_counter() - started)
        print(
            f"daphne process CPU: {cpu * 100:.0f} % of one core during the run ({server_cpu:.1f} s); "
            f"load generator {load_cpu:.1f} s; machine load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
    finally:
        daphne.terminate()
        try:
            daphne.wait(timeout=10)
        except subprocess.TimeoutExpired:
            daphne.kill()
    # A missed latency budget is a figure to report; a lost submission is a bug.
    _report(stats, clients, args.seconds)
    accepted = stats.outcomes.get("accepted", 0)
    submitted = sum(stats.outcomes.values())
    if submitted and stats.window_messages:
        window = stats.window_cpu * 1000
        per_accepted = window / accepted if accepted else float("nan")
        print(
            f"server CPU while submitting (daphne's own counters, {stats.window_cpu:.1f} s): "
            f"{window / submitted:.2f} ms per submission, {per_accepted:.2f} ms per accepted submission "
            f"with its fan-out [budget < {BUDGET_CPU_PER_ACCEPTED_MS} ms; every submission's work counted "
            f"against the accepted ones], {window / stats.window_messages:.3f} ms per delivered message "
            f"({stats.window_messages} messages)"
        )
    lost = len(set(stats.sent) - set(stats.replied))
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
