"""The ranked matcher behind a real PgBouncer in transaction mode.

Each transaction a client sends may run on another of PgBouncer's server connections. A
lock that outlives its transaction (a session advisory lock) stays on whichever server
connection took it, the unlock lands on another, and every later pass skips the pool.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import psycopg
import pytest
from django.conf import settings

from games.hunts import services
from games.hunts.models import HuntSeat, QueueEntry
from tests.conftest import ROOT, _database_url
from tests.services import PgBouncerServer

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 8

# One matcher process: set up, says so and waits for the players to queue (a queued
# player silent for 15 s is dropped), then passes over the rampage pool for a few
# seconds, through PgBouncer.
MATCHER = """
import json, sys, time
import django
django.setup()
from games.hunts.services import matchmaking
print("ready", flush=True)
sys.stdin.readline()
reports, stop = [], time.monotonic() + 4
while time.monotonic() < stop:
    report = matchmaking.match_pool(pool="rampage")
    reports.append({"skipped": report.skipped, "tables": list(report.tables)})
    time.sleep(0.02)
print(json.dumps(reports))
"""


@pytest.fixture
def pgbouncer():
    db = settings.DATABASES["default"]
    with PgBouncerServer((db.get("HOST") or "127.0.0.1", int(db.get("PORT") or 5432)), pool_size=3) as server:
        yield server


def advisory_locks() -> list[tuple]:
    db = settings.DATABASES["default"]
    url = _database_url(db)
    with psycopg.connect(url, autocommit=True) as connection:
        return connection.execute(
            "SELECT l.classid, l.objid, a.application_name FROM pg_locks l JOIN pg_database d ON d.oid = l.database"
            " LEFT JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND d.datname = %s",
            [db["NAME"]],
        ).fetchall()


def test_two_matchers_through_pgbouncer_seat_each_player_once_and_leave_no_lock(pgbouncer, make_user):
    """Two matcher processes at once behind PgBouncer: every queued player at one table, no lock left."""
    env = dict(os.environ)
    env["DATABASE_URL"] = pgbouncer.url_for(settings.DATABASES["default"]["NAME"])
    env["DATABASE_POOL_SIZE"] = "0"  # PgBouncer pools
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    matchers = [
        subprocess.Popen(
            [sys.executable, "-c", MATCHER],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for matcher in matchers:
        assert matcher.stdout.readline().strip() == "ready", matcher.stderr.read()
    players = [make_user() for _ in range(PLAYERS)]
    for player in players:
        services.queue_join(user=player, pool="rampage")
    for matcher in matchers:  # both at once
        matcher.stdin.write("go\n")
        matcher.stdin.flush()
    outputs = [matcher.communicate(timeout=120) for matcher in matchers]
    for matcher, (_, errors) in zip(matchers, outputs, strict=True):
        assert matcher.returncode == 0, errors
    reports = [report for out, _ in outputs for report in json.loads(out.strip().splitlines()[-1])]
    seats = {player.pk: HuntSeat.objects.filter(user=player).count() for player in players}
    assert seats == {player.pk: 1 for player in players}
    assert not QueueEntry.objects.exists()
    assert len({table for report in reports for table in report["tables"]}) >= 2
    assert advisory_locks() == []
