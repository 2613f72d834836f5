"""TOW, the free-form tile table (docs/rules-tow.md): table, play legality, scoring, game.

One concept a module: ``tiles`` (kinds, the bag, values and bonuses), ``cells`` (cells
and their names), ``table``, ``paths`` (the path rules), ``scoring`` and ``rings`` (word
points and play bonuses), ``play`` (``evaluate``), ``finder`` (plays for a rack) and
``game``. The names below are the engine's public API, all importable from here.

Public API::

    table = Table.empty().with_tiles([(0, 0, "c", "letter", 0), ...])
    #   (row, col, letter, kind, play): kind "letter", "corner" or "pz"; a wildcard's
    #   letter is the letter it was declared as; play numbers the play that placed it.
    play = evaluate(table, [(0, 3, "s", "letter")], [(0, 0), (0, 1), (0, 2), (0, 3)], lex)
    play.score; play.words       # [(word, points), ...] main word first, reversed readings
    play.bonuses                 # {"bridge": 10, ...}: only the play bonuses earned
    play.details                 # ScoredWord per word: cells, letter bonus, multiplier
    paths(table, placement, "cats")   # every path spelling the word under the path rules
    cell_name(0, 1) == "B1"; parse_cell("B1") == (0, 1)

    game = new_game(players=3, seed="t-1", lexicon=lex, house_vote=True)
    game = game.apply(Move.place(seat, placement, path))   # swap, pass_, resign, forfeit
    game = game.apply(Move.vote(seat, True))                # house-vote tables
    replay(3, "t-1", moves, lex, house_vote=True) == game

Cells are (row, col) with any integers: the table has no edges. Players see a cell as a
column name and a row number, spreadsheet style, counted from the cell (0, 0): columns
0, 1, ..., 25, 26 are A, B, ..., Z, AA and columns -1, -2, ... are -A, -B, ...; rows
0, 1, 2 are 1, 2, 3 and rows -1, -2 are -1, -2 (there is no row 0). So (0, 0) is "A1",
(2, 1) is "B3", (-1, -2) is "-B-1". A game's first play is laid around (0, 0), so
names stay short; ``cell_name`` is the only place that spells a cell.

A rack or bag holds letters ``a``-``z``, ``+`` for a corner tile and ``*`` for a PZ
tile. Nothing here reads a clock or the global random generator: every shuffle is a
``random.Random`` seeded from the game's seed, so a game replays exactly.
"""

from games.engine.turns import FORFEIT, PASS, PLACE, RESIGN, SWAP
from games.engine.turns import LAST_SEAT as LAST_SEAT  # end reasons, named here too
from games.engine.turns import WENT_OUT as WENT_OUT

from .cells import STEPS, Cell, cell_name, column_name, parse_cell, row_name
from .finder import FIND_BUDGET, best_play, find_plays
from .game import (
    CLOSE_VOTE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MOVE_KINDS,
    PASSES,
    VOTE,
    Game,
    Move,
    PendingVote,
    TurnRecord,
    first_draw,
    new_game,
    replay,
)
from .paths import IllegalPlay, directional_lines, paths
from .play import Play, evaluate, is_legal
from .scoring import (
    BONUS_LABELS,
    BRIDGE,
    CLUSTER,
    CORNER_DOUBLE,
    FULL_FIT,
    MULTI_DIRECTION,
    PLAY_BONUSES,
    RING,
    ScoredWord,
)
from .table import Table, Tile
from .tiles import (
    BAG,
    CORNER,
    CORNER_TILE,
    KIND_MULTIPLIER,
    KIND_OF_TILE,
    KINDS,
    LETTER,
    LETTER_BONUS,
    LETTER_BONUS_MIN_LENGTH,
    LETTERS,
    MAX_COORDINATE,
    PZ,
    PZ_TILE,
    RACK_SIZE,
    TILE_COUNT,
    TILE_OF_KIND,
    rack_tile,
    tile_value,
)

__all__ = [
    "BAG",
    "BONUS_LABELS",
    "BRIDGE",
    "CLOSE_VOTE",
    "CLUSTER",
    "CORNER",
    "CORNER_DOUBLE",
    "CORNER_TILE",
    "FIND_BUDGET",
    "FORFEIT",
    "FULL_FIT",
    "KINDS",
    "KIND_MULTIPLIER",
    "KIND_OF_TILE",
    "LAST_SEAT",
    "LETTER",
    "LETTERS",
    "LETTER_BONUS",
    "LETTER_BONUS_MIN_LENGTH",
    "MAX_COORDINATE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MOVE_KINDS",
    "MULTI_DIRECTION",
    "PASS",
    "PASSES",
    "PLACE",
    "PLAY_BONUSES",
    "PZ",
    "PZ_TILE",
    "RACK_SIZE",
    "RESIGN",
    "RING",
    "STEPS",
    "SWAP",
    "TILE_COUNT",
    "TILE_OF_KIND",
    "VOTE",
    "WENT_OUT",
    "Cell",
    "Game",
    "IllegalPlay",
    "Move",
    "PendingVote",
    "Play",
    "ScoredWord",
    "Table",
    "Tile",
    "TurnRecord",
    "best_play",
    "cell_name",
    "column_name",
    "directional_lines",
    "evaluate",
    "find_plays",
    "first_draw",
    "is_legal",
    "new_game",
    "parse_cell",
    "paths",
    "rack_tile",
    "replay",
    "row_name",
    "tile_value",
]
