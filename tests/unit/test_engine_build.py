"""The two builds of the engine's hot modules: compiled (Cython) and pure Python.

The pure-Python modules are the reference. Whichever build this run imports, the
exactness tests (move generation equal to brute force and to the golden baselines, the
bounded search equal to full generation, the hunt solver and the lexicon) are run once
more under the other build where there is one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from games.engine import build, hunt
from games.engine.movegen import search
from lexicon import core
from tests.examples import SHARE_VARIABLE

#: The tests that pin the hot modules' results, run under both builds.
EXACTNESS = (
    "tests/unit/test_movegen.py",
    "tests/unit/test_movegen_golden.py",
    "tests/unit/test_movegen_bounds.py",
    "tests/unit/test_hunt.py",
    "tests/unit/test_lexicon_core.py",
)


def _manifest(folder, sources):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.json").write_text(json.dumps({"cython": "3.9", "sources": sources}))


def _compiled_files(folder):
    for path in build.COMPILED:
        target = build.compiled_file(path, folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(b"")


def test_a_fresh_compiled_build_is_chosen(tmp_path):
    """With every module compiled from the sources as they are, the compiled build runs."""
    _manifest(tmp_path, {path: build.source_digest(path) for path in build.COMPILED})
    _compiled_files(tmp_path)
    assert build.decide(None, tmp_path) == build.Build(True, "compiled with Cython 3.9")


def test_an_edited_source_falls_back_to_pure_python(tmp_path):
    """A source changed since the build is never shadowed by its stale machine code."""
    sources = {path: build.source_digest(path) for path in build.COMPILED}
    sources["games/engine/movegen/search.py"] = "0" * 64
    _manifest(tmp_path, sources)
    _compiled_files(tmp_path)
    chosen = build.decide(None, tmp_path)
    assert not chosen.compiled and "older than games/engine/movegen/search.py" in chosen.detail


def test_no_build_or_a_missing_module_or_the_switch_means_pure_python(tmp_path):
    assert not build.decide(None, tmp_path / "nowhere").compiled
    _manifest(tmp_path, {path: build.source_digest(path) for path in build.COMPILED})
    assert "no compiled" in build.decide(None, tmp_path).detail  # manifest without modules
    _compiled_files(tmp_path)
    assert build.decide("python", tmp_path) == build.Build(False, f"pure Python ({build.SWITCH}=python)")


def test_the_modules_imported_are_the_build_reported():
    """The build the process reports is the one its hot modules were imported from."""
    compiled = build.status().compiled
    for module in (search, hunt, core):
        assert module.__file__.endswith(".py") is not compiled, module.__file__


@pytest.mark.timeout(1800)
@pytest.mark.skipif(not build.status().compiled, reason="the compiled build is not built here (no C compiler)")
@pytest.mark.parametrize("path", EXACTNESS)
def test_pure_python_gives_the_same_results(path):
    """The exactness tests pass under the pure-Python reference too (this run imports the
    compiled build), with a quarter of the random examples (``tests/examples.py``)."""
    env = dict(os.environ, **{build.SWITCH: "python", SHARE_VARIABLE: "0.25"})
    chosen = subprocess.run(
        [sys.executable, "-c", "from games.engine import build; print(build.status().compiled)"],
        cwd=build.ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert chosen.stdout.strip() == "False"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", path],
        cwd=build.ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
