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
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "PYTEST_VERSION", "DJANGO_SETTINGS_MODULE")}
    env["VAR_DIR"] = str(var)
    bin_dir = Path(sys.executable).parent
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True, capture_output=True)
    port = free_port()
    log = open(var / "daphne.log", "w")
    server = subprocess.Popen(
        [str(bin_dir / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
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
        message = json.loads(ws.recv(timeout=10))
        assert message["type"] == "presence.update"
        ws.send('{"type": "ping"}')
        assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}


def test_embedded_default_runs_its_own_celery_worker(embedded_site):
    host, _ = embedded_site
    with urllib.request.urlopen(f"http://{host}/healthz") as response:
        body = json.loads(response.read())
    assert body["mode"] == "embedded"
    assert body["celery"] == "ok (embedded)"
