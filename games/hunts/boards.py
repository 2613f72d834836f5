"""A round's board and its words' paths as the database stores them: the board as
``hunt.Board.to_text()``, a path as the row-major indices of its squares."""

from __future__ import annotations

from functools import lru_cache

from games.engine import hunt


@lru_cache(maxsize=512)
def board_of(text: str) -> hunt.Board:
    """The board stored as ``text`` (parsed once per process)."""
    return hunt.Board.from_text(text)


def path_to_text(board: hunt.Board, path: hunt.Path) -> str:
    return ",".join(str(row * board.size + col) for row, col in path)


def path_from_text(board: hunt.Board, text: str) -> hunt.Path:
    return tuple(divmod(int(i), board.size) for i in text.split(",") if i)
