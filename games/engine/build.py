"""Which build of the engine's hot modules this process runs: compiled or pure Python.

The modules in ``COMPILED`` (move generation, the hunt solver, the lexicon core) are
plain Python, the reference. ``make install`` also compiles them, from the same files,
with Cython (``tools/build_engine.py``) into ``build/compiled/``, beside a manifest of
the sources it compiled. Each package holding one of them calls ``prefer_compiled`` on
its ``__path__``, so that its compiled modules are imported instead of the Python
files, but only while every source is the one compiled (an edited file never runs
stale machine code) and unless ``WORDFALL_ENGINE=python`` asks for the reference.

    build.status()   # Build(compiled=True, detail="compiled with Cython 3.3.1")

No Django, no clock: reading the manifest and the sources is all it does.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from functools import cache
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMPILED_DIR = ROOT / "build" / "compiled"
MANIFEST = COMPILED_DIR / "manifest.json"
#: The compiled modules, as source paths from the repository's root.
COMPILED = (
    "lexicon/core.py",
    "games/engine/hunt.py",
    "games/engine/movegen/blanks.py",
    "games/engine/movegen/cross_checks.py",
    "games/engine/movegen/dawg.py",
    "games/engine/movegen/left_parts.py",
    "games/engine/movegen/plays.py",
    "games/engine/movegen/position.py",
    "games/engine/movegen/search.py",
    "games/engine/movegen/shadow.py",
)
#: ``python`` runs the reference build even where a compiled one is present.
SWITCH = "WORDFALL_ENGINE"


@dataclass(frozen=True)
class Build:
    """``compiled``: the compiled modules are imported; ``detail`` says which build and why."""

    compiled: bool
    detail: str


def source_digest(path: str) -> str:
    return hashlib.sha256((ROOT / path).read_bytes()).hexdigest()


def compiled_file(path: str, folder: Path = COMPILED_DIR) -> Path:
    """Where the compiled module of a source is, for this interpreter."""
    return folder / (path.removesuffix(".py") + EXTENSION_SUFFIXES[0])


def decide(switch: str | None, folder: Path = COMPILED_DIR) -> Build:
    """The build to run, given ``WORDFALL_ENGINE``'s value and the compiled folder."""
    if switch == "python":
        return Build(False, f"pure Python ({SWITCH}=python)")
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError):
        return Build(False, "pure Python (no compiled build: make install compiles one where a C compiler is)")
    sources = manifest.get("sources", {})
    for path in COMPILED:
        if sources.get(path) != source_digest(path):
            return Build(False, f"pure Python (the compiled build is older than {path}: make engine rebuilds it)")
        if not compiled_file(path, folder).exists():
            return Build(False, f"pure Python (no compiled {path} for this Python)")
    return Build(True, f"compiled with Cython {manifest.get('cython', '?')}")


@cache
def status() -> Build:
    """The build this process runs, decided once, at the first import of an engine package."""
    return decide(os.environ.get(SWITCH))


def prefer_compiled(package_path: list[str], package_dir: str) -> None:
    """Put the compiled modules of ``package_dir`` (e.g. "games/engine") first on a
    package's ``__path__`` when the compiled build is to run."""
    if status().compiled:
        package_path.insert(0, str(COMPILED_DIR / package_dir))
