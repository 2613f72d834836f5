"""A play judged: ``evaluate`` checks it against the path rules and the word list and
scores it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from games.engine.crossword import FrozenList

from .cells import Cell, names
from .paths import (
    IllegalPlay,
    check_cells,
    check_joined,
    check_path,
    check_table,
    directional_lines,
    normalise_path,
    normalise_placement,
    runs,
)
from .scoring import BONUS_LABELS, ScoredWord, play_bonuses, scored
from .table import Table


@dataclass(frozen=True, eq=True)
class Play:
    """A legal play and its score.

    ``placement`` holds the new tiles ``(row, col, letter, kind)``, ``path`` the main
    word's cells. ``unknown_words`` lists the words not in the lexicon on a house-vote
    table (always empty otherwise): such a play waits for the other players' votes.
    """

    score: int
    words: tuple[tuple[str, int], ...]
    bonuses: MappingProxyType
    details: tuple[ScoredWord, ...]
    placement: tuple[tuple[int, int, str, str], ...]
    path: tuple[Cell, ...]
    unknown_words: tuple[str, ...] = ()

    __hash__ = None

    @property
    def main_word(self) -> str:
        return self.words[0][0]

    def to_dict(self) -> dict:
        """A JSON-ready form for the score preview and the move history."""
        return {
            "score": self.score,
            "words": [list(w) for w in self.words],
            "details": [d.to_dict() for d in self.details],
            "bonuses": [
                {"name": name, "label": BONUS_LABELS[name], "points": points} for name, points in self.bonuses.items()
            ],
            "unknown_words": list(self.unknown_words),
            "path": [list(c) for c in self.path],
        }


def evaluate(
    table: Table, placement: Iterable[Sequence], path: Iterable[Sequence], lexicon, *, house_vote: bool = False
) -> Play:
    """Check a play against RULES §5 and score it.

    ``placement``: the new tiles ``(row, col, letter, kind)``; ``path``: the main word's
    cells, first letter first. Returns a ``Play`` or raises ``IllegalPlay``. On a
    house-vote table (``house_vote=True``) a word missing from ``lexicon`` does not
    refuse the play: it is listed in ``play.unknown_words`` for the vote, scored as it
    reads (the main word as declared, another run left to right or top to bottom).
    The rack is not checked here: that is the game's job.
    """
    check_table(table)
    tiles = normalise_placement(placement)
    cells = normalise_path(path)
    check_cells(table, tiles)
    new = {(r, c): (letter, kind) for r, c, letter, kind in tiles}
    check_path(table, new, cells)
    check_joined(table, new, cells)

    def tile_at(cell: Cell) -> tuple[str, str]:
        if cell in new:
            return new[cell]
        tile = table.get(*cell)
        return tile.letter, tile.kind

    def spell(run) -> str:
        return "".join(tile_at(cell)[0] for cell in run)

    unknown: list[str] = []
    details: list[ScoredWord] = []
    lines = directional_lines(cells)
    main = spell(cells)
    if main not in lexicon:
        if not house_vote:
            raise IllegalPlay(f"{main.upper()} is not in the word list")
        unknown.append(main)
    details.append(scored(main, cells, tile_at, "main"))
    if len(lines) == 1 and main[::-1] != main and main[::-1] in lexicon:
        details.append(scored(main[::-1], cells[::-1], tile_at, "main", True))

    line_sets = {frozenset(line) for line in lines}
    for run in runs(table, new):
        if frozenset(run) in line_sets:
            continue
        forward = spell(run)
        backward = forward[::-1]
        readings = [(forward, run, False)]
        if backward != forward:
            readings.append((backward, run[::-1], True))
        valid = [reading for reading in readings if reading[0] in lexicon]
        if not valid:
            if not house_vote:
                shown = "-".join(forward.upper())
                raise IllegalPlay(f"the run {shown} ({names([run[0], run[-1]])}) is not a word either way")
            unknown.append(forward)
            valid = readings[:1]
        for word, ordered, backwards in valid:
            details.append(scored(word, ordered, tile_at, "secondary", backwards))

    bonuses = play_bonuses(table, new, cells, lines, details, tile_at)
    score = sum(d.points for d in details) + sum(bonuses.values())
    return Play(
        score,
        FrozenList((d.word, d.points) for d in details),
        MappingProxyType(bonuses),
        tuple(details),
        FrozenList(tiles),
        tuple(cells),
        tuple(dict.fromkeys(unknown)),
    )


def is_legal(table: Table, placement, path, lexicon, *, house_vote: bool = False) -> bool:
    """True if ``evaluate`` accepts the play."""
    try:
        evaluate(table, placement, path, lexicon, house_vote=house_vote)
    except IllegalPlay:
        return False
    return True
