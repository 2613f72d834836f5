"""How to play: one page per game, its board examples drawn by the site's own templates.

Every number a page states (word lengths, bonuses, scores of the examples) is asked of
the engine, so the pages cannot drift from the rules the games play by.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from games.crosswords.selectors import Square
from games.engine import crossword, hunt
from lexicon.services import get_lexicon

GAMES = {
    "rampage": "Word Rampage",
    "classic": "Classic hunt",
    "wordgrid": "Word Grid",
    "wordgame": "Wordgame",
    "tow": "TOW",
}

# A 4×4 grid with one example word traced through it.
_GRID = [["w", "o", "r", "d"], ["a", "s", "e", "n"], ["t", "i", "l", "g"], ["h", "u", "n", "t"]]
_BONUSES = {(0, 2): "2L", (1, 2): "3W"}


def _hunt_example(game: str) -> dict:
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


def _crossword_example(name: str) -> dict:
    """The first play "WORD" across the centre, on the 5×5 squares around the star."""
    variant = crossword.VARIANTS[name]
    placement = [(7, 6 + i, letter, False) for i, letter in enumerate("word")]
    play = crossword.evaluate(crossword.Board.empty(), placement, variant, get_lexicon(variant.default_lexicon))
    placed = {(r, c): letter for r, c, letter, _ in placement}
    rows = []
    for row in range(5, 10):
        line = []
        for col in range(4, 11):
            letter = placed.get((row, col), "")
            line.append(
                Square(
                    row,
                    col,
                    crossword.square_name(row, col),
                    variant.premiums.get((row, col)),
                    letter=letter,
                    value=variant.letter_values[letter] if letter else 0,
                )
            )
        rows.append(line)
    return {"rows": rows, "columns": [sq.name[0] for sq in rows[0]], "play": play, "variant": variant}


def index(request):
    return render(request, "howto/index.html", {"games": GAMES})


def game(request, game: str):
    """How to play ``game``: the rules in short, and an example board."""
    if game not in GAMES:
        raise Http404("No such game.")
    context = {"game": game, "title": GAMES[game], "games": GAMES}
    if game in ("rampage", "classic"):
        context["example"] = _hunt_example(game)
        context["classic_5"] = hunt.rules_for("classic", 5)
    elif game in ("wordgrid", "wordgame"):
        context["example"] = _crossword_example(game)
    return render(request, f"howto/{game}.html", context)
