"""tools/imports.py, the import rule of ``make lint``, on small trees of its own."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location("imports_tool", Path(__file__).parents[2] / "tools" / "imports.py")
imports_tool = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = imports_tool  # its dataclass looks its module up there
_SPEC.loader.exec_module(imports_tool)


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_an_import_inside_a_function_without_its_reason_fails_the_check(tmp_path, capsys):
    root = _tree(
        tmp_path,
        {
            "chat/__init__.py": "",
            "chat/models.py": "",
            "chat/views.py": "def show():\n    from . import models\n\n    return models\n",
        },
    )
    assert imports_tool.check(root) == 1
    assert "chat/views.py:2: an import inside a function says why in a comment" in capsys.readouterr().out


def test_an_import_inside_a_function_with_its_reason_passes(tmp_path):
    root = _tree(
        tmp_path,
        {
            "chat/__init__.py": "",
            "chat/models.py": "",
            "chat/views.py": "def show():\n    from . import models  # loaded late: why\n\n    return models\n",
        },
    )
    assert imports_tool.check(root) == 0


def test_more_imports_inside_functions_than_allowed_fail(tmp_path, monkeypatch, capsys):
    body = "".join(f"def f{n}():\n    from chat import models  # why\n" for n in range(3))
    root = _tree(tmp_path, {"chat/__init__.py": "", "chat/models.py": "", "chat/views.py": body})
    monkeypatch.setattr(imports_tool, "FUNCTION_IMPORTS", 2)
    assert imports_tool.check(root) == 1
    assert "3 project imports inside functions, at most 2" in capsys.readouterr().out


@pytest.mark.parametrize("statement", ["from chat.models import Message", "from .models import Message"])
def test_a_cycle_between_parts_is_found_through_absolute_and_relative_imports(tmp_path, capsys, statement):
    root = _tree(
        tmp_path,
        {
            "accounts/__init__.py": "",
            "accounts/views.py": "from chat import views\n",
            "chat/__init__.py": "",
            "chat/models.py": "from accounts import views\n",
            "chat/views.py": statement + "\n",
        },
    )
    imports_tool.figures(root)
    out = capsys.readouterr().out
    assert "import cycles between parts: 1" in out
    assert "one cycle joins 2 parts: accounts, chat" in out
