"""The hunts' how-to-play pages: an example grid with a word traced through it.

Every number the pages state (word lengths, bonuses, the example's points) is asked of
the engine, so the pages cannot drift from the rules the rounds play by.
"""

from __future__ import annotations

from games.engine import hunt

# A 4×4 grid with one example word traced through it.
_GRID = [["w", "o", "r", "d"], ["a", "s", "e", "n"], ["t", "i", "l", "g"], ["h", "u", "n", "t"]]
_BONUSES = {(0, 2): "2L", (1, 2): "3W"}


def _example(game: str) -> dict:
    board = hunt.Board(_GRID, bonuses=_BONUSES if game == "rampage" else {})
    word = "rose" if game == "rampage" else "tile"
    path = hunt.find_path(board, word)
    rules = hunt.rules_for(game, 4)
    cells = [
        {
            "face": face.upper(),
            "bonus": board.bonuses.get((r, c), ""),
            "step": path.index((r, c)) + 1 if (r, c) in path else None,
        }
        for r, row in enumerate(board.faces)
        for c, face in enumerate(row)
    ]
    example = {"cells": cells, "word": word.upper(), "rules": rules}
    if game == "rampage":
        example["points"] = hunt.score_rampage(board, path)
    else:
        lists = {"You": {"tile", "word", "lint"}, "Bob": {"tile", "sore"}}
        kept, common = hunt.cross_off(lists)
        example.update(
            points=hunt.classic_points(word),
            common=sorted(common),
            lists={name: sorted(words) for name, words in lists.items()},
            kept={name: sum(hunt.classic_points(w) for w in words) for name, words in kept.items()},
            by_length=[(n, hunt.classic_points("x" * n)) for n in range(3, 9)],
        )
    return example


def rampage() -> dict:
    return {"example": _example("rampage"), "classic_5": hunt.rules_for("classic", 5)}


def classic() -> dict:
    return {"example": _example("classic"), "classic_5": hunt.rules_for("classic", 5)}
