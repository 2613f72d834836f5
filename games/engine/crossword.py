"""The 15×15 crossword games: board, variants, placement legality and scoring.

docs/rules-wordgrid.md and docs/rules-wordgame.md. Public API::

    board = Board.empty().with_tiles([(7, 7, "a", False), ...])  # (row, col, letter, is_blank)
    play = evaluate(board, [(7, 8, "t", False)], WORD_GRID, lexicon)
    play.score; play.words   # [(word, points), ...], main word first (an immutable list)
    play.placement           # the tiles placed, lower case, as given
    play.across; play.main_word; play.key()   # direction, word, canonical placement
    # an illegal placement raises IllegalPlay; .reason says why, in a player's words
    offered_squares(board, pending)   # squares the UI rings for the next tile
    square_name(7, 7) == "H8"; parse_square("H8") == (7, 7)

Coordinates are (row, col), 0-based, row 0 at the top. A square is *named* for players
as its column letter A–O (left to right) followed by its row number 1–15 (top to
bottom): (0, 0) is A1, the centre star (7, 7) is H8, (14, 14) is O15. ``square_name``
is the only place that spells a square.

The variants are data (``Variant``): rack size, bag, premium squares, first-word minimum
length, how word multipliers combine, the all-tiles bonus, the longest word, player
count and end rules. The scoring rules (``multiplier_combiner``, ``play_total``,
``main_word_points``) are shared with ``movegen`` so each is written once.

The game state machine (seats, racks, bag, turns) lives in ``crossword_game`` and is
re-exported here: ``new_game``, ``Game``, ``Move`` and friends.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

from games.engine.tiles import LETTER_VALUES, WORD_GRID_BAG, WORDGAME_BAG

SIZE = 15
CENTRE = (7, 7)
COLUMN_NAMES = "ABCDEFGHIJKLMNO"
LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")

Tile = tuple[int, int, str, bool]  # (row, col, letter, is_blank)


def square_name(row: int, col: int) -> str:
    """Name a square for players: column A–O then row 1–15, so (7, 7) is "H8"."""
    return f"{COLUMN_NAMES[col]}{row + 1}"


def parse_square(name: str) -> tuple[int, int]:
    """Inverse of ``square_name``: "H8" -> (7, 7)."""
    name = name.strip().upper()
    col = COLUMN_NAMES.index(name[0])
    row = int(name[1:]) - 1
    if not 0 <= row < SIZE:
        raise ValueError(f"no such square: {name}")
    return row, col


# -- premium squares (RULES §3, shared by both variants) ------------------------------


def _premiums() -> Mapping[tuple[int, int], str]:
    table = {
        "3W": "(0,0) (0,7) (0,14) (7,0) (7,14) (14,0) (14,7) (14,14)",
        "2W": "(1,1) (2,2) (3,3) (4,4) (1,13) (2,12) (3,11) (4,10) (13,1) (12,2) (11,3) "
        "(10,4) (13,13) (12,12) (11,11) (10,10) (7,7)",
        "3L": "(1,5) (1,9) (5,1) (5,5) (5,9) (5,13) (9,1) (9,5) (9,9) (9,13) (13,5) (13,9)",
        "2L": "(0,3) (0,11) (2,6) (2,8) (3,0) (3,7) (3,14) (6,2) (6,6) (6,8) (6,12) (7,3) "
        "(7,11) (8,2) (8,6) (8,8) (8,12) (11,0) (11,7) (11,14) (12,6) (12,8) (14,3) "
        "(14,11)",
    }
    squares = {}
    for kind, spec in table.items():
        for pair in spec.split():
            row, col = (int(n) for n in pair.strip("()").split(","))
            squares[(row, col)] = kind
    return MappingProxyType(squares)


PREMIUMS = _premiums()


# -- variants ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False, repr=False)
class Variant:
    """The rules of one crossword game, as a table.

    ``word_multipliers``: "product" (every new 2W/3W in a word multiplies it: two 2W ->
    ×4) or "highest" (only the single highest applies). ``all_tiles_bonus``: points added
    when a whole rack is played, and ``all_tiles_doubles_main``: whether that also
    doubles the main word. ``end_streak`` ends the game after that many consecutive
    ``end_streak_kind`` turns ("scoreless" or "pass"); when ``end_streak_per_player``
    every player still in the game must have had that many in a row (with no one gone:
    ``end_streak`` × players consecutive turns).
    """

    name: str
    rack_size: int
    bag: tuple[str, ...]
    premiums: Mapping[tuple[int, int], str]
    first_word_min_length: int
    word_multipliers: str
    all_tiles_bonus: int
    all_tiles_doubles_main: bool
    max_word_length: int
    min_players: int
    max_players: int
    first_player: str  # "rotate" (seat N opens game N) or "draw"
    end_streak: int
    end_streak_kind: str  # "scoreless" or "pass"
    end_streak_per_player: bool
    redeal_after_opening_passes: bool
    default_lexicon: str
    letter_values: Mapping[str, int] = field(default_factory=lambda: LETTER_VALUES)

    def end_streak_length(self, players: int) -> int:
        """Consecutive qualifying turns that end a game with ``players`` players."""
        return self.end_streak * players if self.end_streak_per_player else self.end_streak

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"

    def __reduce__(self):
        # Variants are singletons compared by identity: a pickled one comes back as itself.
        return (variant_named, (self.name,))


WORD_GRID = Variant(
    name="wordgrid",
    rack_size=7,
    bag=WORD_GRID_BAG,
    premiums=PREMIUMS,
    first_word_min_length=2,
    word_multipliers="product",
    all_tiles_bonus=50,
    all_tiles_doubles_main=False,
    max_word_length=10,
    min_players=2,
    max_players=4,
    first_player="rotate",
    end_streak=2,
    end_streak_kind="scoreless",
    end_streak_per_player=True,
    redeal_after_opening_passes=False,
    default_lexicon="common",
)

WORDGAME = Variant(
    name="wordgame",
    rack_size=8,
    bag=WORDGAME_BAG,
    premiums=PREMIUMS,
    first_word_min_length=4,
    word_multipliers="highest",
    all_tiles_bonus=0,
    all_tiles_doubles_main=True,
    max_word_length=SIZE,
    min_players=2,
    max_players=2,
    first_player="draw",
    end_streak=3,
    end_streak_kind="pass",
    end_streak_per_player=False,
    redeal_after_opening_passes=True,
    default_lexicon="wordgame",
)

VARIANTS = MappingProxyType({WORD_GRID.name: WORD_GRID, WORDGAME.name: WORDGAME})


def variant_named(name: str) -> Variant:
    """The variant called ``name`` ("wordgrid" or "wordgame")."""
    return VARIANTS[name]


_LETTER_MULTIPLIER = {"2L": 2, "3L": 3}
_WORD_MULTIPLIER = {"2W": 2, "3W": 3}


@cache
def premium_table(variant: Variant) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Letter and word multipliers of every square, indexed ``row * 15 + col``."""
    letter = [1] * (SIZE * SIZE)
    word = [1] * (SIZE * SIZE)
    for (row, col), kind in variant.premiums.items():
        letter[row * SIZE + col] = _LETTER_MULTIPLIER.get(kind, 1)
        word[row * SIZE + col] = _WORD_MULTIPLIER.get(kind, 1)
    return tuple(letter), tuple(word)


def multiplier_combiner(variant: Variant):
    """The function folding a new word square's multiplier into a word's multiplier.

    Word Grid multiplies them (two 2W -> ×4); Wordgame keeps the highest (3W with 2W
    -> ×3). ``evaluate`` and ``movegen`` both score through this.
    """
    return operator.mul if variant.word_multipliers == "product" else max


def combine_multipliers(variant: Variant, current: int, new: int) -> int:
    """Fold one newly covered word square's multiplier into a word's multiplier."""
    return multiplier_combiner(variant)(current, new)


def play_total(variant: Variant, main_points: int, cross_points: int, tiles_placed: int) -> int:
    """Score of a play from its main word's and cross words' points (bonuses included)."""
    if tiles_placed == variant.rack_size:
        if variant.all_tiles_doubles_main:
            main_points *= 2
        return main_points + cross_points + variant.all_tiles_bonus
    return main_points + cross_points


def all_tiles_points(variant: Variant, tiles_placed: int) -> int:
    """The all-tiles bonus a play earns on top of its words (Word Grid's +50), else 0."""
    return variant.all_tiles_bonus if tiles_placed == variant.rack_size else 0


def main_word_points(variant: Variant, main_points: int, tiles_placed: int) -> int:
    """Points the main word shows, the all-tiles doubling included (Wordgame)."""
    if tiles_placed == variant.rack_size and variant.all_tiles_doubles_main:
        return main_points * 2
    return main_points


# -- board --------------------------------------------------------------------------------

_EMPTY = "."


@dataclass(frozen=True)
class Board:
    """An immutable 15×15 board. ``cells`` holds 225 letters, "." for an empty square."""

    cells: str = _EMPTY * (SIZE * SIZE)
    blanks: frozenset[tuple[int, int]] = frozenset()

    @classmethod
    def empty(cls) -> Board:
        """The board before the first play."""
        return _EMPTY_BOARD

    @classmethod
    def from_rows(cls, rows: Sequence[str], blanks: Iterable[tuple[int, int]] = ()) -> Board:
        """Build a board from up to 15 text rows; a space or "." is an empty square."""
        cells = []
        for row in range(SIZE):
            text = rows[row] if row < len(rows) else ""
            text = text.rstrip("\n").ljust(SIZE)[:SIZE].lower().replace(" ", _EMPTY)
            cells.append(text)
        return cls("".join(cells), frozenset(blanks))

    def with_tiles(self, tiles: Iterable[Sequence]) -> Board:
        """Return a board with ``(row, col, letter, is_blank)`` tiles added; no checks."""
        cells = list(self.cells)
        blanks = set(self.blanks)
        for row, col, letter, is_blank in tiles:
            cells[row * SIZE + col] = letter.lower()
            if is_blank:
                blanks.add((row, col))
            else:
                blanks.discard((row, col))
        return Board("".join(cells), frozenset(blanks))

    def letter(self, row: int, col: int) -> str | None:
        """The letter on a square, or None if it is empty."""
        letter = self.cells[row * SIZE + col]
        return None if letter == _EMPTY else letter

    def is_blank(self, row: int, col: int) -> bool:
        """True if the tile on the square is a blank (worth 0)."""
        return (row, col) in self.blanks

    @property
    def is_empty(self) -> bool:
        """True before the first play."""
        return self.cells == _EMPTY_BOARD.cells

    def tiles(self) -> Iterable[Tile]:
        """Every tile on the board as ``(row, col, letter, is_blank)``, row by row."""
        for index, letter in enumerate(self.cells):
            if letter != _EMPTY:
                row, col = divmod(index, SIZE)
                yield row, col, letter, (row, col) in self.blanks

    def rows(self) -> tuple[str, ...]:
        """The board as 15 text rows, "." for an empty square (blanks in upper case)."""
        cells = list(self.cells)
        for row, col in self.blanks:
            cells[row * SIZE + col] = cells[row * SIZE + col].upper()
        text = "".join(cells)
        return tuple(text[i : i + SIZE] for i in range(0, SIZE * SIZE, SIZE))

    def __str__(self) -> str:
        return "\n".join(self.rows())


_EMPTY_BOARD = Board()


# -- plays ----------------------------------------------------------------------------


class IllegalPlay(ValueError):
    """A placement the rules refuse; ``reason`` is shown to the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class FrozenList(tuple):
    """An immutable sequence that also equals a list of the same items.

    ``Play.words`` and ``Play.placement`` are documented as lists
    (``[(word, points), ...]``) but a Play is an immutable value.
    """

    __slots__ = ()

    def __eq__(self, other):
        if isinstance(other, list):
            other = tuple(other)
        return tuple.__eq__(self, other)

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = tuple.__hash__


class Play:
    """A legal placement and its score.

    ``words`` is ``((word, points), ...)`` for every word formed, main word first; a
    play that places all rack tiles counts its all-tiles doubling in the main word's
    points and its all-tiles bonus only in ``score``. ``across`` tells the main word's
    direction. Plays from ``movegen`` work their words out only when asked.
    """

    __slots__ = ("_source", "_words", "across", "placement", "score")

    def __init__(
        self,
        score: int,
        placement: tuple[Tile, ...],
        across: bool,
        words: tuple[tuple[str, int], ...] | None = None,
        source=None,
    ) -> None:
        init = object.__setattr__
        init(self, "score", score)
        init(self, "placement", FrozenList(placement))
        init(self, "across", across)
        init(self, "_words", None if words is None else FrozenList(words))
        init(self, "_source", source)  # (board, variant) to work out the words lazily

    def __setattr__(self, name, value):
        raise AttributeError("a Play is immutable")

    @property
    def words(self) -> tuple[tuple[str, int], ...]:
        if self._words is None:
            board, variant = self._source
            words = _score_words(board, self.placement, variant, self.across)[1]
            object.__setattr__(self, "_words", FrozenList(words))
        return self._words

    @property
    def main_word(self) -> str:
        """The word along the line of play."""
        return self.words[0][0]

    def key(self) -> tuple:
        """The placement in a canonical order (for comparing and de-duplicating plays)."""
        return tuple(sorted(self.placement))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.score == other.score and self.key() == other.key()

    def __hash__(self) -> int:
        return hash((self.score, self.key()))

    def __repr__(self) -> str:
        tiles = " ".join(
            f"{square_name(r, c)}{letter.upper() if blank else letter}"
            for r, c, letter, blank in sorted(self.placement)
        )
        return f"<Play {self.score} {tiles}>"


def _normalise(placement: Iterable[Sequence]) -> tuple[Tile, ...]:
    tiles = []
    for tile in placement:
        row, col, letter, is_blank = tile
        letter = (letter or "").lower()
        if is_blank and letter not in LETTERS:
            raise IllegalPlay("blank has no letter")
        if letter not in LETTERS:
            raise IllegalPlay(f"not a letter: {letter!r}")
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            raise IllegalPlay("off the board")
        tiles.append((row, col, letter, bool(is_blank)))
    return tuple(tiles)


def _check_geometry(board: Board, tiles: tuple[Tile, ...], variant: Variant) -> bool:
    """Raise IllegalPlay unless the tiles lie legally; return the main word's direction."""
    if not tiles:
        raise IllegalPlay("no tiles placed")
    squares = [(r, c) for r, c, _, _ in tiles]
    if len(set(squares)) != len(squares) or any(board.letter(r, c) for r, c in squares):
        raise IllegalPlay("square taken")
    rows = {r for r, _ in squares}
    cols = {c for _, c in squares}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalPlay("tiles are not in one line")
    placed = set(squares)
    if len(rows) == 1:
        row = next(iter(rows))
        for col in range(min(cols), max(cols) + 1):
            if (row, col) not in placed and board.letter(row, col) is None:
                raise IllegalPlay(f"there is a gap at {square_name(row, col)}")
    else:
        col = next(iter(cols))
        for row in range(min(rows), max(rows) + 1):
            if (row, col) not in placed and board.letter(row, col) is None:
                raise IllegalPlay(f"there is a gap at {square_name(row, col)}")
    if len(tiles) > 1:
        across = len(rows) == 1
    else:
        row, col = squares[0]
        # A lone tile's main word runs across unless it only has neighbours above or below.
        across = _has_neighbour(board, row, col, True) or not _has_neighbour(board, row, col, False)
    if board.is_empty:
        if CENTRE not in placed:
            raise IllegalPlay("the first word must cover the centre")
        if len(tiles) < variant.first_word_min_length:
            raise IllegalPlay(f"the first word must have at least {variant.first_word_min_length} letters")
    elif not any(_has_neighbour(board, r, c, True) or _has_neighbour(board, r, c, False) for r, c in squares):
        raise IllegalPlay("does not touch any tile on the board")
    return across


def _has_neighbour(board: Board, row: int, col: int, across: bool) -> bool:
    if across:
        return (col > 0 and board.letter(row, col - 1) is not None) or (
            col < SIZE - 1 and board.letter(row, col + 1) is not None
        )
    return (row > 0 and board.letter(row - 1, col) is not None) or (
        row < SIZE - 1 and board.letter(row + 1, col) is not None
    )


def _word_through(board: Board, new: dict, row: int, col: int, across: bool):
    """The word through (row, col) along a direction, as (row, col, letter, is_blank, is_new)."""
    dr, dc = (0, 1) if across else (1, 0)

    def filled(r: int, c: int) -> bool:
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            return False
        return (r, c) in new or board.letter(r, c) is not None

    while filled(row - dr, col - dc):
        row, col = row - dr, col - dc
    cells = []
    while filled(row, col):
        if (row, col) in new:
            letter, is_blank = new[(row, col)]
            cells.append((row, col, letter, is_blank, True))
        else:
            cells.append((row, col, board.letter(row, col), board.is_blank(row, col), False))
        row, col = row + dr, col + dc
    return cells


def word_through(board: Board, row: int, col: int, *, across: bool) -> tuple[Tile, ...]:
    """The tiles of the line through (row, col) along a direction, as placed on ``board``.

    A single tile (or an empty square) is a line of one (or none); a word has two or more.
    """
    return tuple(cell[:4] for cell in _word_through(board, {}, row, col, across))


def word_points(variant: Variant, cells, letter_mult, word_mult) -> int:
    """Points of one word: letters (new 2L/3L count), then its new word squares."""
    values = variant.letter_values
    total = 0
    multiplier = 1
    for row, col, letter, is_blank, is_new in cells:
        value = 0 if is_blank else values[letter]
        if is_new:
            index = row * SIZE + col
            total += value * letter_mult[index]
            multiplier = combine_multipliers(variant, multiplier, word_mult[index])
        else:
            total += value
    return total * multiplier


def _score_words(board: Board, tiles: tuple[Tile, ...], variant: Variant, across: bool):
    """Every word the tiles form: (play score, ((word, points), ...) main word first).

    The main word runs along ``across``; a cross word is counted for each new tile that
    has a neighbour the other way.
    """
    new = {(r, c): (letter, blank) for r, c, letter, blank in tiles}
    letter_mult, word_mult = premium_table(variant)
    main_cells = _word_through(board, new, tiles[0][0], tiles[0][1], across)
    main_points = word_points(variant, main_cells, letter_mult, word_mult)
    words = [("".join(cell[2] for cell in main_cells), main_word_points(variant, main_points, len(tiles)))]
    cross_total = 0
    for r, c, _, _ in sorted(tiles):
        cells = _word_through(board, new, r, c, not across)
        if len(cells) >= 2:
            points = word_points(variant, cells, letter_mult, word_mult)
            cross_total += points
            words.append(("".join(cell[2] for cell in cells), points))
    return play_total(variant, main_points, cross_total, len(tiles)), tuple(words)


def evaluate(board: Board, placement: Iterable[Sequence], variant: Variant, lexicon) -> Play:
    """Check a placement against the rules and score it.

    Returns a ``Play``; raises ``IllegalPlay`` (with a player-facing ``reason``) if the
    placement is not legal. The rack is not checked here: that is the game's job.
    """
    tiles = _normalise(placement)
    across = _check_geometry(board, tiles, variant)
    total, words = _score_words(board, tiles, variant, across)
    too_long = [w for w, _ in words if len(w) > variant.max_word_length]
    if too_long:
        raise IllegalPlay(
            f"words have at most {variant.max_word_length} letters: "
            + ", ".join(dict.fromkeys(w.upper() for w in too_long))
        )
    unknown = [w for w, _ in words if w not in lexicon]
    if unknown:
        raise IllegalPlay("not in the word list: " + ", ".join(dict.fromkeys(w.upper() for w in unknown)))
    return Play(total, tiles, across, words)


def is_legal(board: Board, placement: Iterable[Sequence], variant: Variant, lexicon) -> bool:
    """True if ``evaluate`` accepts the placement."""
    try:
        evaluate(board, placement, variant, lexicon)
    except IllegalPlay:
        return False
    return True


_REACH = 7  # how far from a board tile, along its row or column, a turn's first tile may go


def offered_squares(board: Board, pending: Iterable[Sequence]) -> frozenset[tuple[int, int]]:
    """Squares offered for the next tile of a turn (RULES §3, "Squares offered").

    ``pending`` holds the tiles already put down this turn (anything starting with
    ``row, col``). Before the first tile: on an empty board the star's row and column,
    otherwise every empty square within 7 squares of a board tile along its row or
    column. With one tile down: that tile's row and column; with two or more: their line.
    """
    taken = {(t[0], t[1]) for t in pending}

    def free(r: int, c: int) -> bool:
        return board.letter(r, c) is None and (r, c) not in taken

    if not taken:
        if board.is_empty:
            row, col = CENTRE
            return frozenset([(row, c) for c in range(SIZE)] + [(r, col) for r in range(SIZE)])
        # Per line (a row, then a column): an empty square is offered when the 7 squares
        # either side of it along the line hold a tile. One pass over the 225 squares
        # twice, whatever the number of tiles (a board at move 60 costs what one at move 2 does).
        cells = board.cells
        offered = set()
        for line in range(SIZE):
            row = cells[line * SIZE : (line + 1) * SIZE]
            column = cells[line::SIZE]
            for at in range(SIZE):
                low, high = max(0, at - _REACH), at + _REACH + 1
                if row[at] == _EMPTY and row[low:high].strip(_EMPTY):
                    offered.add((line, at))
                if column[at] == _EMPTY and column[low:high].strip(_EMPTY):
                    offered.add((at, line))
        return frozenset(offered)
    rows = {r for r, _ in taken}
    cols = {c for _, c in taken}
    squares: set[tuple[int, int]] = set()
    if len(rows) == 1:
        row = next(iter(rows))
        squares.update((row, c) for c in range(SIZE))
    if len(cols) == 1:
        col = next(iter(cols))
        squares.update((r, col) for r in range(SIZE))
    return frozenset(s for s in squares if free(*s))


# -- the game state machine lives in crossword_game; its names are served from here too.

_GAME_NAMES = frozenset(
    {
        "Game",
        "Move",
        "TurnRecord",
        "new_game",
        "replay",
        "first_player",
        "PLACE",
        "SWAP",
        "PASS",
        "RESIGN",
        "FORFEIT",
        "WENT_OUT",
        "STREAK",
        "LAST_SEAT",
    }
)


def __getattr__(name: str):
    if name in _GAME_NAMES:
        from games.engine import crossword_game  # here, not at the top: crossword_game imports this module

        return getattr(crossword_game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
