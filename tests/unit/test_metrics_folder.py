"""The metrics folder a test run makes for itself is removed when the run ends."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

# The process makes the folder, forks a child that writes a sample and exits the normal
# way (running the exit handlers it inherited), then checks the folder is still there.
RUN = """
import os, sys
from config import metrics
print(metrics.FOLDER, flush=True)
child = os.fork()
if child == 0:
    metrics.HUNT_SUBMISSIONS.labels("accepted").inc()
    sys.exit(0)
os.waitpid(child, 0)
assert os.path.isdir(metrics.FOLDER), "a child's exit removed the run's folder"
assert os.listdir(metrics.FOLDER), "the child wrote its sample there"
"""


def test_the_process_that_made_the_test_runs_metrics_folder_removes_it_as_it_exits():
    """A test run's own folder goes when the process that made it exits, not when a child of it does."""
    env = {key: value for key, value in os.environ.items() if key != "PROMETHEUS_MULTIPROC_DIR"}
    env["WORDFALL_TESTING"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", RUN], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    folder = Path(done.stdout.split()[0])
    assert folder.name.startswith("wordfall-metrics-")
    assert not folder.exists()


def test_a_given_metrics_folder_is_left_as_it_is(tmp_path):
    """A folder the operator gives (PROMETHEUS_MULTIPROC_DIR) outlives every process that writes to it."""
    env = {**os.environ, "WORDFALL_TESTING": "1", "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", RUN], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert any(tmp_path.iterdir())
