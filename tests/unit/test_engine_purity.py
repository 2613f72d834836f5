"""The rules library reads no clock, uses no global random generator and imports no
Django: a game replays exactly from its seed and moves."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = sorted((ROOT / "games" / "engine").rglob("*.py")) + [ROOT / "lexicon" / "core.py"]
FORBIDDEN_MODULES = {"django", "time", "datetime", "secrets", "uuid"}


def _imports(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", PURE, ids=lambda path: str(path.relative_to(ROOT)))
def test_engine_module_reads_no_clock_and_no_global_random(path):
    """No engine module imports Django or a clock, or calls the random module's own
    generator (only ``random.Random(seed)`` objects)."""
    tree = ast.parse(path.read_text(), str(path))
    assert not _imports(tree) & FORBIDDEN_MODULES
    global_random = [
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "random"
        and node.attr != "Random"
    ]
    assert not global_random
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            assert [alias.name for alias in node.names] == ["Random"]
