"""The lock, uv.lock: made from the current pyproject.toml, and production gets no dev tool."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UV = Path(sys.executable).parent / "uv"  # the dev group's uv, the version uv.lock pins


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _uv(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, UV_PYTHON_DOWNLOADS="never")
    return subprocess.run([str(UV), *args, "--offline"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def _exported(*args: str) -> set[str]:
    """The package names `uv sync --locked` with ``args`` would install, from uv.lock alone."""
    result = _uv("export", "--locked", "--no-hashes", "--no-header", "--no-annotate", *args)
    assert result.returncode == 0, result.stderr
    return {_canonical(re.split(r"[=;\s\[]", line, maxsplit=1)[0]) for line in result.stdout.splitlines() if line}


def test_the_lock_was_made_from_the_current_pyproject():
    """After a change to pyproject.toml's requirements, `make lock` (the install refuses a stale lock)."""
    result = _uv("lock", "--check")
    assert result.returncode == 0, f"uv.lock is out of date with pyproject.toml: run `make lock`\n{result.stderr}"


def test_every_locked_file_has_a_hash():
    packages = tomllib.loads((ROOT / "uv.lock").read_text())["package"]
    files = [f for p in packages for f in p.get("wheels", []) + ([p["sdist"]] if "sdist" in p else [])]
    assert files and all(re.fullmatch(r"sha256:[0-9a-f]{64}", f["hash"]) for f in files)


def test_a_production_install_has_the_runtime_packages_and_no_dev_tool():
    """`make run` installs with --no-dev: every runtime dependency, none of the test, lint and lock tools."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    runtime = {_canonical(re.split(r"[=<>!~\[ ;]", r, maxsplit=1)[0]) for r in project["project"]["dependencies"]}
    dev = {_canonical(re.split(r"[=<>!~\[ ;]", r, maxsplit=1)[0]) for r in project["dependency-groups"]["dev"]}
    production, development = _exported("--no-dev"), _exported()
    assert runtime <= production
    # The dev group may name a runtime package too (a test reads what it makes): these are the tools.
    tools = {"pytest", "pytest-django", "pytest-xdist", "hypothesis", "playwright", "ruff", "import-linter", "uv"}
    assert tools <= dev <= development
    assert not tools & production, f"dev tools in a production install: {sorted(tools & production)}"
