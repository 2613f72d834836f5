"""The crossword games' how-to-play pages: the first play of an example game.

The board, the premium squares and the play's score are the engine's, drawn by the
game page's own square template, so the pages cannot drift from the rules.
"""

from __future__ import annotations

from games.engine import crossword
from lexicon.services import get_lexicon

from .selectors import Square


def _example(name: str) -> dict:
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


def word_grid() -> dict:
    return {"example": _example(crossword.WORD_GRID.name)}


def wordgame() -> dict:
    return {"example": _example(crossword.WORDGAME.name)}
