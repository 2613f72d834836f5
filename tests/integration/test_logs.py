"""LOG_FORMAT=json: one JSON object a line, each naming the request, socket or task it belongs to."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.conftest import ROOT, _database_url, free_port, wait_for_port

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def json_site(tmp_path, transactional_db):
    """daphne and a Celery worker on the test database, logging JSON to files of their own."""
    from django.conf import settings

    env = dict(os.environ, LOG_FORMAT="json", DATABASE_URL=_database_url(settings.DATABASES["default"]))
    if getattr(settings, "CHANNEL_LAYER_PREFIX", None):
        env["CHANNEL_LAYER_PREFIX"] = settings.CHANNEL_LAYER_PREFIX
    bin_dir = Path(sys.executable).parent
    # Tasks earlier tests queued and no worker ran (emails among them, which the console
    # backend prints as plain text) are not this worker's to run.
    from config.celery import app

    app.control.purge()
    port = free_port()
    processes = {}
    for name, command in (
        ("web", [str(bin_dir / "daphne"), "-v", "0", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]),
        ("worker", procfile_worker(bin_dir)),
    ):
        with open(tmp_path / f"{name}.log", "w") as log:
            processes[name] = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, processes["web"])
        yield f"127.0.0.1:{port}", tmp_path
    finally:
        for process in processes.values():
            process.terminate()
        for process in processes.values():
            process.wait(timeout=30)


def procfile_worker(bin_dir: Path) -> list[str]:
    """The Procfile's worker command as shipped (its flags decide what it prints), on one
    thread: a prefork pool of two would only slow the test."""
    procfile = dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line)
    words = [word for word in shlex.split(procfile["worker"]) if not word.startswith("--concurrency")]
    return [str(bin_dir / "celery"), *words[1:], "--pool=threads", "--concurrency=1"]


def records(path: Path) -> list[dict]:
    """Every line the process wrote, each of which must be a JSON object."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def wait_for(path: Path, found, timeout: float = 30) -> list[dict]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = records(path)
        if found(lines):
            return lines
        time.sleep(0.2)
    raise AssertionError(path.read_text()[-3000:])


def get(url: str, **headers):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return response.status, response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


def test_each_line_is_json_and_names_its_request_socket_or_task(json_site):
    """A request's lines carry its X-Request-ID (the proxy's, or one made up), a socket's its own id, a task's its id."""
    host, logs = json_site
    status, headers = get(f"http://{host}/no-such-page/", **{"X-Request-ID": "edge-4f2a"})
    assert status == 404 and headers["X-Request-ID"] == "edge-4f2a"
    status, headers = get(f"http://{host}/no-such-page-either/", **{"X-Request-ID": "bad id; DROP"})
    made_up = headers["X-Request-ID"]
    assert status == 404 and made_up.startswith("req-")

    for _ in range(2):
        # An anonymous presence socket is told nothing until it asks: its first answer is the refusal.
        with connect(f"ws://{host}/ws/presence/", origin=f"http://{host}", open_timeout=10) as ws:
            ws.send("not json")
            assert json.loads(ws.recv(timeout=10))["type"] == "error"

    from config.celery import app

    task = app.send_task("accounts.tasks.sweep_presence", args=["unexpected"])

    web = wait_for(logs / "web.log", lambda lines: sum("Refused websocket" in r["message"] for r in lines) == 2)
    by_message = {r["message"]: r for r in web}
    assert by_message["Not Found: /no-such-page/"]["context"] == "edge-4f2a"
    assert by_message["Not Found: /no-such-page-either/"]["context"] == made_up
    assert by_message["Not Found: /no-such-page/"]["level"] == "WARNING"
    assert by_message["Not Found: /no-such-page/"]["logger"] == "django.request"
    refused = [r["context"] for r in web if "Refused websocket" in r["message"]]
    assert refused[0] != refused[1], "each socket has an id of its own"
    assert all(context.startswith("ws-") for context in refused)

    worker = wait_for(logs / "worker.log", lambda lines: any(r.get("context") == f"task-{task.id}" for r in lines))
    failed = next(r for r in worker if r.get("context") == f"task-{task.id}")
    assert failed["level"] == "ERROR" and "TypeError" in json.dumps(failed)


def test_the_default_is_readable_text_with_the_same_context():
    """Without LOG_FORMAT a line is text: time, level, logger, [context], message."""
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); import logging; from config import logs; "
            "logs.current.set('req-1'); logging.getLogger('wordfall.x').warning('a round ended')",
        ],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "LOG_FORMAT"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().endswith("WARNING wordfall.x [req-1]: a round ended")
