"""A test run stopped by SIGTERM or SIGINT (a CI timeout, Ctrl-C) leaves no process running.

The run is a real pytest with one xdist worker: the main process starts the throwaway
PostgreSQL and Redis, the worker's test starts a Redis of its own and a program in its own
session (as daphne and the Celery worker are started), then waits. The signal goes to the
main process only, as a timeout sends it; afterwards none of the run's processes is left.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.services import descendants

ROOT = Path(__file__).resolve().parents[2]

INNER_TEST = """
import os, subprocess, sys, time
from pathlib import Path
from tests.services import RedisServer

def test_waits_to_be_stopped():
    server = RedisServer().start()
    program = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    Path(os.environ["STARTED"]).write_text(f"{server.process.pid} {program.pid} {server.dir}")
    time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has ended


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stopped_run_stops_every_server_and_program_it_started(tmp_path, signum):
    (tmp_path / "test_inner.py").write_text(INNER_TEST)
    started = tmp_path / "started"
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR") if k in os.environ}
    env.update(STARTED=str(started), PYTHONPATH=str(ROOT))
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path)]
        + ["-p", "no:django", "-p", "no:cacheprovider", "-q", "-n", "1", str(tmp_path / "test_inner.py")],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # the signal reaches the main process only, not its group
    )
    try:
        deadline = time.monotonic() + 180
        while not started.exists() or not started.read_text():
            assert run.poll() is None, run.stdout.read().decode()
            assert time.monotonic() < deadline, "the inner run's test did not start"
            time.sleep(0.1)
        redis_pid, program_pid, redis_dir = started.read_text().split()
        processes = descendants(run.pid)
        # The main process's PostgreSQL (with its backends) and Redis, the worker, its
        # Redis and the program in its own session.
        assert {int(redis_pid), int(program_pid)} <= set(processes) and len(processes) >= 6, processes

        run.send_signal(signum)
        output = run.communicate(timeout=60)[0].decode()
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()

    assert run.returncode == -signum, output
    left = [pid for pid in processes if _alive(pid)]
    assert not left, f"left running: {[Path(f'/proc/{pid}/cmdline').read_bytes() for pid in left]}"
    assert not Path(redis_dir).exists()
