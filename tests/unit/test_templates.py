"""The site's templates are read by Django the way their authors meant."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def templates() -> list[Path]:
    return sorted(
        path
        for path in ROOT.rglob("templates/**/*")
        if path.is_file() and ".venv" not in path.parts and path.suffix in {".html", ".txt", ".js", ".xml"}
    )


def test_every_template_comment_closes_on_its_own_line():
    """Django's ``{# … #}`` is a comment on one line only; a longer one is shown on the page
    as text, so it is written with ``{% comment %}``."""
    unclosed = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in templates()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\{#(?!.*#\})", line)
    ]
    assert templates() and not unclosed, unclosed
