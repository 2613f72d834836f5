"""`make run` in server mode: supervisord restarts a process that dies and leaves the others running."""

from __future__ import annotations

import os
import pwd
import signal
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT, _database_url, free_port, wait_for_port
from tests.faults.conftest import wait_until
from tests.services import RedisServer

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]


class Supervisor:
    """supervisord with the repository's config/supervisord.conf, as `make run` starts it."""

    def __init__(self, redis: RedisServer, database_url: str):
        self.port = free_port()
        self.var = Path(tempfile.mkdtemp(prefix="wordfall-supervisor-"))
        bin_dir = Path(sys.executable).parent
        self.env = dict(
            os.environ,
            DATABASE_URL=database_url,
            REDIS_URL=redis.url,
            WF_BIN=str(bin_dir),
            WF_USER=pwd.getpwuid(os.getuid()).pw_name,
            VAR_DIR=str(self.var),
            HOST="127.0.0.1",
            PORT=str(self.port),
            CELERY_CONCURRENCY="2",
        )
        self.command = [str(bin_dir / "supervisord"), "-c", str(ROOT / "config" / "supervisord.conf")]
        self.ctl = [str(bin_dir / "supervisorctl"), "-c", str(ROOT / "config" / "supervisord.conf")]
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.var / "output.log", "w") as log:
            self.process = subprocess.Popen(self.command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        wait_for_port(self.port, self.process, timeout=60)

    def pids(self) -> dict[str, int]:
        """The pid of every program that is RUNNING."""
        out = subprocess.run([*self.ctl, "status"], env=self.env, capture_output=True, text=True).stdout
        pids = {}
        for line in out.splitlines():
            parts = line.split()
            if len(parts) >= 4 and parts[1] == "RUNNING":
                pids[parts[0]] = int(parts[3].rstrip(","))
        return pids

    def healthy(self) -> bool:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/healthz", headers={"Host": "127.0.0.1"})
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status == 200
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()


def test_a_killed_process_is_restarted_and_the_others_keep_running(transactional_db):
    """kill -9 the worker, then daphne: each comes back by itself; the other programs never stop."""
    from django.conf import settings

    with RedisServer() as redis:
        supervisor = Supervisor(redis, _database_url(settings.DATABASES["default"]))
        supervisor.start()
        try:
            first = wait_until(lambda: (p := supervisor.pids()) and len(p) == 3 and p, 30)
            assert first, "web, worker and beat did not all start"
            assert wait_until(supervisor.healthy, 30), "the site is not healthy"

            os.kill(first["worker"], signal.SIGKILL)
            after_worker = wait_until(
                lambda: (p := supervisor.pids()).get("worker") not in (None, first["worker"]) and p, 30
            )
            assert after_worker, "the worker was not restarted"
            assert after_worker["web"] == first["web"] and after_worker["beat"] == first["beat"]
            assert wait_until(supervisor.healthy, 30), "no worker answers after the restart"

            os.kill(first["web"], signal.SIGKILL)
            after_web = wait_until(lambda: (p := supervisor.pids()).get("web") not in (None, first["web"]) and p, 30)
            assert after_web, "daphne was not restarted"
            assert after_web["worker"] == after_worker["worker"] and after_web["beat"] == first["beat"]
            assert wait_until(supervisor.healthy, 30), "the site did not come back"
        finally:
            supervisor.stop()
