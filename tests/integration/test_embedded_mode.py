"""The embedded default, started as `make run` starts it: daphne alone, nothing else running."""

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.conftest import ROOT, free_port, wait_for_port


@pytest.fixture(scope="module")
def embedded_site(tmp_path_factory):
    var = tmp_path_factory.mktemp("embedded-var")
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "WORDFALL_TESTING", "DJANGO_SETTINGS_MODULE")
    }
    env["VAR_DIR"] = str(var)
    bin_dir = Path(sys.executable).parent
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True
    )
    port = free_port()
    log = open(var / "daphne.log", "w")
    server = subprocess.Popen(
        [str(bin_dir / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port, server)
        yield f"127.0.0.1:{port}", var
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_embedded_default_serves_the_home_page(embedded_site):
    host, var = embedded_site
    with urllib.request.urlopen(f"http://{host}/") as response:
        assert response.status == 200
        assert b"Play a word hunt" in response.read()
    assert (var / "wordfall.sqlite3").exists()


def test_embedded_default_serves_a_websocket(embedded_site):
    host, _ = embedded_site
    with connect(f"ws://{host}/ws/presence/", origin=f"http://{host}", open_timeout=10) as ws:
        ws.send('{"type": "ping"}')
        assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}


def test_embedded_default_runs_its_own_celery_worker(embedded_site):
    host, _ = embedded_site
    with urllib.request.urlopen(f"http://{host}/healthz") as response:
        body = json.loads(response.read())
    assert body["mode"] == "embedded"
    assert body["celery"] == "ok (embedded)"


EMBEDDED_COUNTDOWN_SCRIPT = """
import time
from datetime import timedelta
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.utils import timezone
from accounts.models import OnlineConnection, User
from accounts.tasks import sweep_presence
from config import embedded

ann = User.objects.create_user("ann", "ann@example.com", "x")
OnlineConnection.objects.create(channel_name="gone", user=ann, seen_at=timezone.now() - timedelta(hours=1))
embedded.start()
sent = time.monotonic()
sweep_presence.apply_async(countdown=1.5)
time.sleep(0.8)
early = OnlineConnection.objects.exists()
while OnlineConnection.objects.exists() and time.monotonic() - sent < 15:
    time.sleep(0.05)
print("early", early, "done", not OnlineConnection.objects.exists(), "after", round(time.monotonic() - sent, 1))
"""


def test_embedded_worker_honours_a_countdown(tmp_path):
    """With no broker, a task sent with a countdown runs in-process, and not before its time."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "WORDFALL_TESTING")}
    env.update(VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings")
    result = subprocess.run(
        [sys.executable, "-c", EMBEDDED_COUNTDOWN_SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr[-2000:]
    words = result.stdout.split()
    assert words[:4] == ["early", "True", "done", "True"], result.stdout
    assert 1.4 <= float(words[5]) < 15
