"""A web process keeps its PostgreSQL connections within its pool, however many threads serve."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

from tests.conftest import ROOT, LiveSite, _database_url, session_cookie_for, wait_for_port

pytestmark = pytest.mark.django_db(transaction=True)

POOL_SIZE = 4
CLIENTS = 8
SECONDS = 10
APP_NAME = "wordfall-web-under-test"


@pytest.fixture
def web():
    """One daphne in server mode with a pool of ``POOL_SIZE`` connections, named in pg_stat_activity."""
    env = dict(os.environ)
    env["DATABASE_URL"] = _database_url(settings.DATABASES["default"])
    env["DATABASE_POOL_SIZE"] = str(POOL_SIZE)
    env["PGAPPNAME"] = APP_NAME  # libpq's default application_name
    env["HEAVY_PAGES_PER_USER"] = env["HEAVY_PAGES_PER_ADDRESS"] = "100000/m"
    if getattr(settings, "CHANNEL_LAYER_PREFIX", None):
        env["CHANNEL_LAYER_PREFIX"] = settings.CHANNEL_LAYER_PREFIX
    site = LiveSite(env)
    daphne = str(Path(sys.executable).parent / "daphne")
    process = site._spawn("daphne", [daphne, "-b", "127.0.0.1", "-p", str(site.port), "config.asgi:application"])
    wait_for_port(site.port, process)
    yield site
    site.stop()


def connections_of_the_web_process() -> int:
    db = settings.DATABASES["default"]
    with psycopg.connect(
        host=db.get("HOST") or "127.0.0.1",
        port=db.get("PORT") or 5432,
        user=db.get("USER") or "postgres",
        password=db.get("PASSWORD") or None,
        dbname=db["NAME"],
        autocommit=True,
    ) as connection:
        return connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [APP_NAME]
        ).fetchone()[0]


def test_eight_clients_for_ten_seconds_stay_within_the_pool(web, make_user):
    """Eight clients asking for pages for ten seconds never make the process hold more than its pool."""
    ann = make_user("ann")
    cookie = session_cookie_for(ann)
    pages = ["/", "/u/ann/", "/ratings/", "/hunts/", "/games/", "/friends/", "/notifications/"]
    answers: list[int] = []
    stop = time.monotonic() + SECONDS

    def client(n: int) -> None:
        i = n
        while time.monotonic() < stop:
            request = urllib.request.Request(web.url + pages[i % len(pages)], headers={"Cookie": cookie})
            i += 1
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    answers.append(response.status)
            except urllib.error.HTTPError as error:
                answers.append(error.code)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    peak = 0
    while any(thread.is_alive() for thread in threads):
        peak = max(peak, connections_of_the_web_process())
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    assert answers and set(answers) == {200}, sorted(set(answers))
    assert 1 <= peak <= POOL_SIZE, f"the web process held {peak} connections, its pool is {POOL_SIZE}"


def test_a_database_url_asking_for_persistent_connections_is_refused_with_the_reason():
    """``?conn_max_age=`` kept one connection per thread under daphne; the settings say to remove it."""
    env = dict(os.environ, DATABASE_URL=_database_url(settings.DATABASES["default"]) + "?conn_max_age=60")
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "conn_max_age in DATABASE_URL keeps a connection per thread; remove it" in result.stderr
