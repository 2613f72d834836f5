"""The fault tests' site: daphne, a worker and beat as processes, on a Redis the test owns.

``fault_site`` is the browser tests' ``LiveSite`` with two additions: each process can be
killed (SIGKILL, as a crash) and started again by name, and the broker, channel layer and
cache are a private ``RedisServer`` (tests/services.py) that the test may restart.
Players are websocket clients (``SocketPlayer``) that read in a thread of their own.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect_sync

from tests.conftest import ROOT, LiveSite, _database_url, session_cookie_for, wait_for_port
from tests.services import RedisServer


def wait_until(condition, seconds: float, step: float = 0.2):
    """Poll ``condition`` until it is truthy or ``seconds`` pass; its last value."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(step)


class FaultSite(LiveSite):
    """A ``LiveSite`` whose processes can be killed and started again one by one."""

    def __init__(self, env: dict[str, str], redis: RedisServer):
        super().__init__(env)
        self.logs = self.logs / f"faults-{self.port}"
        self.logs.mkdir(exist_ok=True)
        self.redis = redis
        self.commands: dict[str, list[str]] = {}
        self.running: dict[str, subprocess.Popen] = {}
        self.players: list[SocketPlayer] = []

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen:
        # Appends, so a restarted process's log follows the killed one's.
        with open(self.logs / f"{name}-{self.port}.log", "a") as log:
            process = subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.commands[name] = args
        self.running[name] = process
        self.processes.append(process)
        return process

    def kill(self, name: str) -> None:
        """SIGKILL one process (``daphne``, ``worker`` or ``beat``), as a crash would."""
        process = self.running[name]
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    def restart(self, name: str) -> None:
        """Start a killed process again, with the same command (daphne on the same port)."""
        process = self._spawn(name, self.commands[name])
        if name == "daphne":
            wait_for_port(self.port, process)

    def worker_ready(self, timeout: float = 30) -> bool:
        """Whether a worker answers a control ping over the private broker within ``timeout``."""
        from celery import Celery

        # Not the current app: ``shared_task`` proxies send through the current app, so
        # every later ``.delay()`` in this process would go to this test's Redis, stopped
        # when the test ends (the browser tests that ran after these could not send).
        probe = Celery("fault-probe", broker=self.redis.url, set_as_current=False)
        try:
            return bool(wait_until(lambda: probe.control.ping(timeout=1.0), timeout, step=0.5))
        finally:
            probe.close()

    def log(self, name: str) -> str:
        return (self.logs / f"{name}-{self.port}.log").read_text(errors="replace")

    def note(self, text: str) -> None:
        """Add a line to the fault tests' summary (var/test-logs/faults-summary.txt): what was
        broken, when, and what was lost."""
        with open(self.logs.parent / "faults-summary.txt", "a") as summary:
            summary.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {text}\n")


@pytest.fixture
def fault_site(transactional_db, django_db_setup):
    """daphne + worker + beat on the test database and a private Redis, for one test."""
    from django.conf import settings

    with RedisServer() as redis:
        env = dict(os.environ)
        env["DATABASE_URL"] = _database_url(settings.DATABASES["default"])
        env["REDIS_URL"] = redis.url
        site = FaultSite(env, redis).start()
        try:
            assert site.worker_ready(), "the worker did not start"
            yield site
        finally:
            for player in site.players:
                player.close()
            site.stop()


class SocketPlayer:
    """A websocket client of the live site that behaves as the hunt table page does.

    It reads every message in a thread; when the server closes the socket it connects
    again (as hunt.js does, after half a second, retrying while the server is away);
    when it hears that the round ended it asks for the whole state. ``messages`` keeps
    everything received across reconnections; ``closes`` the close codes seen.
    """

    def __init__(self, site: FaultSite, path: str, user=None):
        self.site, self.path, self.user = site, path, user
        self.messages: list[dict] = []
        self.closes: list[int | None] = []
        self.lock = threading.Lock()
        self.socket = None
        self.reader: threading.Thread | None = None
        self.closing = False
        # Made here: the reader thread reconnects without touching the database.
        self.cookie = session_cookie_for(user) if user is not None else None
        site.players.append(self)
        self.connect()

    def connect(self, timeout: float = 10) -> None:
        headers = {"Origin": self.site.url}
        if self.cookie is not None:
            headers["Cookie"] = self.cookie
        url = self.site.url.replace("http://", "ws://") + self.path
        socket = ws_connect_sync(url, additional_headers=headers, open_timeout=timeout)
        self.socket = socket
        self.reader = threading.Thread(target=self._read, args=(socket,), daemon=True)
        self.reader.start()

    def _reconnect(self, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while not self.closing and time.monotonic() < deadline:
            time.sleep(0.5)
            try:
                self.connect(timeout=3)
                return
            except Exception:  # refused while the server is down, or a failed handshake
                continue

    def _read(self, socket) -> None:
        with socket:
            try:
                while True:
                    message = json.loads(socket.recv())
                    with self.lock:
                        self.messages.append(message)
                    if message.get("type") == "round.ended":
                        socket.send(json.dumps({"type": "state"}))
            except ConnectionClosed:
                pass
        self.closes.append(socket.close_code)
        if not self.closing and socket.close_code != 4404:
            self._reconnect()

    @property
    def connected(self) -> bool:
        return self.socket is not None and self.socket.close_code is None

    def send(self, message: dict) -> None:
        self.socket.send(json.dumps(message))

    def of_type(self, kind: str) -> list[dict]:
        with self.lock:
            return [m for m in self.messages if m.get("type") == kind]

    def wait_for(self, predicate, seconds: float = 10):
        """The first message (from now on or already received) that ``predicate`` accepts."""

        def find():
            with self.lock:
                return next((m for m in self.messages if predicate(m)), None)

        return wait_until(find, seconds, step=0.05)

    def request(self, message: dict, seconds: float = 10) -> dict | None:
        """Send a message with a fresh id and wait for the reply carrying it."""
        message = {**message, "id": f"r{time.monotonic_ns()}"}
        self.send(message)
        return self.wait_for(lambda m: m.get("id") == message["id"], seconds)

    def close(self) -> None:
        self.closing = True
        if self.socket is not None:
            self.socket.close()
