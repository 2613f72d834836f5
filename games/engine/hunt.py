"""Word hunts: boards, paths, scoring and the solver (docs/rules-rampage.md, docs/rules-classic.md).

A board is a square grid of faces; a face is one letter, or ``"qu"`` for the Qu cube of
Classic hunt, which spells two letters on one tile. A path is a tuple of ``(row, col)``
squares, each a neighbour (8 directions) of the one before, no square twice. Rampage
boards carry bonus tiles (``2L 3L 2W 3W``); Classic boards carry none.

Everything here is pure: generation takes a seed, and values are immutable.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from types import MappingProxyType
from typing import Protocol

import cython

from games.engine.tiles import CLASSIC_DICE, LETTER_VALUES, QU, RAMPAGE_BAG

Square = tuple[int, int]
Path = tuple[Square, ...]

LETTER_BONUSES = MappingProxyType({"2L": 2, "3L": 3})
WORD_BONUSES = MappingProxyType({"2W": 2, "3W": 3})
BONUSES = frozenset(LETTER_BONUSES) | frozenset(WORD_BONUSES)

# RULES §2: points of a remaining word by its length in letters (Qu counts as two).
CLASSIC_POINTS = MappingProxyType({3: 1, 4: 1, 5: 2, 6: 3, 7: 5})
CLASSIC_POINTS_LONG = 11  # eight letters or more

MIN_WORDS = 30  # RULES §1/§2: a generated board holding fewer words is redrawn
MAX_DRAWS = 1000  # a lexicon that never reaches MIN_WORDS is an error, not a hang


class Lexicon(Protocol):
    """The traversal part of ``lexicon.core.Lexicon`` that the solver walks (its
    ``tables`` are the arrays it follows)."""

    root: object

    def tables(self): ...

    def child(self, node: object, letter: str) -> object | None: ...

    def letters(self, node: object) -> str: ...

    def is_word(self, node: object) -> bool: ...

    def __contains__(self, word: object) -> bool: ...


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class HuntRules:
    """The fixed settings of one kind of hunt board, as data."""

    game: str  # "rampage" or "classic"
    size: int
    min_length: int  # in letters; the Qu cube counts as two
    round_seconds: int  # default round length
    has_bonuses: bool


RAMPAGE = HuntRules(game="rampage", size=4, min_length=2, round_seconds=120, has_bonuses=True)
CLASSIC_4 = HuntRules(game="classic", size=4, min_length=3, round_seconds=180, has_bonuses=False)
CLASSIC_5 = HuntRules(game="classic", size=5, min_length=4, round_seconds=300, has_bonuses=False)
CLASSIC = MappingProxyType({4: CLASSIC_4, 5: CLASSIC_5})

# RULES §1: round length is a table setting of 1–5 minutes.
RAMPAGE_ROUND_SECONDS = (60, 120, 180, 240, 300)


def rules_for(game: str, size: int = 4) -> HuntRules:
    """The rules of ``game`` ("rampage" or "classic") on a ``size`` × ``size`` grid."""
    if game == "rampage" and size == 4:
        return RAMPAGE
    if game == "classic" and size in CLASSIC:
        return CLASSIC[size]
    raise ValueError(f"no {game} hunt on a {size}×{size} grid")


# --------------------------------------------------------------------------- board


def face_value(face: str) -> int:
    """The points a tile's face shows: its letter's value (the Qu cube: q and u together)."""
    return sum(LETTER_VALUES[letter] for letter in face)


@dataclass(frozen=True, eq=False)
class Board:
    """A square hunt grid: ``faces[row][col]`` and ``bonuses[(row, col)]``.

    Built from any nested sequence of faces (lists are fine); faces are stored as a
    tuple of tuples and the bonus map is read-only.
    """

    faces: tuple[tuple[str, ...], ...]
    bonuses: Mapping[Square, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        faces = tuple(tuple(str(face).lower() for face in row) for row in self.faces)
        size = len(faces)
        if size == 0 or any(len(row) != size for row in faces):
            raise ValueError("a hunt board is a non-empty square grid")
        for row in faces:
            for face in row:
                if not (face == QU or (len(face) == 1 and "a" <= face <= "z")):
                    raise ValueError(f"not a hunt face: {face!r}")
        bonuses = {}
        for square, bonus in dict(self.bonuses).items():
            row, col = square
            if not (0 <= row < size and 0 <= col < size):
                raise ValueError(f"bonus off the board at {square}")
            if bonus not in BONUSES:
                raise ValueError(f"not a bonus: {bonus!r}")
            bonuses[(row, col)] = bonus
        object.__setattr__(self, "faces", faces)
        object.__setattr__(self, "bonuses", MappingProxyType(dict(sorted(bonuses.items()))))

    @property
    def size(self) -> int:
        """Number of rows (and of columns)."""
        return len(self.faces)

    def face(self, square: Square) -> str:
        """The face showing on ``square``."""
        row, col = square
        return self.faces[row][col]

    def squares(self) -> Iterator[Square]:
        """Every square, row by row."""
        return ((row, col) for row in range(self.size) for col in range(self.size))

    def on_board(self, square: object) -> bool:
        """True if ``square`` is a ``(row, col)`` pair of ints inside the grid."""
        return (
            isinstance(square, tuple)
            and len(square) == 2
            and all(type(n) is int for n in square)
            and 0 <= square[0] < self.size
            and 0 <= square[1] < self.size
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.faces == other.faces and dict(self.bonuses) == dict(other.bonuses)

    def __hash__(self) -> int:
        return hash((self.faces, tuple(self.bonuses.items())))

    def __repr__(self) -> str:
        return f"Board.from_text({self.to_text()!r})"

    # Flat views for the solver: square i is (i // size, i % size).

    @cached_property
    def _flat_faces(self) -> tuple[str, ...]:
        return tuple(face for row in self.faces for face in row)

    @cached_property
    def _neighbours(self) -> tuple[tuple[int, ...], ...]:
        size = self.size
        result = []
        for row, col in self.squares():
            result.append(
                tuple(
                    r * size + c
                    for r in range(row - 1, row + 2)
                    for c in range(col - 1, col + 2)
                    if (r, c) != (row, col) and 0 <= r < size and 0 <= c < size
                )
            )
        return tuple(result)

    @cached_property
    def _square_points(self) -> tuple[tuple[int, int], ...]:
        """Per flat square, Rampage's (letter points with its letter bonus, word multiplier)."""
        bonuses = {row * self.size + col: bonus for (row, col), bonus in self.bonuses.items()}
        return tuple(
            (face_value(face) * LETTER_BONUSES.get(bonuses.get(i), 1), WORD_BONUSES.get(bonuses.get(i), 1))
            for i, face in enumerate(self._flat_faces)
        )

    # Serialisation --------------------------------------------------------------

    def to_text(self) -> str:
        """Compact text: rows joined by ``/``, Qu as ``Q``, then ``|`` and bonuses.

        >>> Board([["c", "a"], ["qu", "t"]], bonuses={(0, 0): "3L"}).to_text()
        'ca/Qt|0:3L'

        A bonus is written ``<index>:<kind>`` with the square's row-major index.
        """
        rows = "/".join("".join("Q" if face == QU else face for face in row) for row in self.faces)
        if not self.bonuses:
            return rows
        marks = ",".join(f"{row * self.size + col}:{kind}" for (row, col), kind in self.bonuses.items())
        return f"{rows}|{marks}"

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Rebuild a board from :meth:`to_text`; raise ``ValueError`` on bad text."""
        rows_text, _, marks = text.partition("|")
        faces = [[QU if ch == "Q" else ch for ch in row] for row in rows_text.split("/")]
        size = len(faces)
        bonuses = {}
        if marks:
            for mark in marks.split(","):
                index, _, kind = mark.partition(":")
                if not index.isdigit() or not 0 <= int(index) < size * size:
                    raise ValueError(f"bad bonus mark {mark!r}")
                bonuses[divmod(int(index), size)] = kind
        return cls(faces, bonuses=bonuses)


# --------------------------------------------------------------------------- paths


def are_adjacent(a: Square, b: Square) -> bool:
    """True if two different squares touch horizontally, vertically or diagonally."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def path_problem(board: Board, path: object) -> str | None:
    """Why ``path`` is not a legal path on ``board``, or None if it is.

    Accepts untrusted input (e.g. a decoded websocket message) and never raises.
    """
    if not isinstance(path, tuple) or not path:
        return "the path is empty"
    if len(path) > board.size * board.size:
        return "the path is longer than the board"
    for square in path:
        if not board.on_board(square):
            return "the path leaves the board"
    if len(set(path)) != len(path):
        return "the path uses a tile twice"
    for a, b in pairwise(path):
        if not are_adjacent(a, b):
            return "the path jumps between tiles that do not touch"
    return None


def spell(board: Board, path: Iterable[Square]) -> str:
    """The word a path spells (a Qu face gives two letters)."""
    return "".join(board.face(square) for square in path)


def find_path(board: Board, word: str) -> Path | None:
    """A legal path spelling ``word``, or None if the board has none.

    When several paths spell the word, the one scoring most under Rampage scoring is
    chosen (first in row-major depth-first order among equals), so a typed word is never
    worth less than the best drag for it.
    """
    word = word.lower()
    search = _PathSearch(word, board._flat_faces, board._neighbours, board._square_points if board.bonuses else None)
    if word:  # the empty word has no path
        search.extend(0)
    if search.best is None:
        return None
    return tuple(divmod(i, board.size) for i in search.best)


@cython.cclass
class _PathSearch:
    """One ``find_path`` walk: every path spelling the word, depth first, kept if it
    scores more than the best so far. Without bonuses every path scores alike, so the
    first one ends the walk."""

    word = cython.declare(str)
    faces = cython.declare(tuple)
    neighbours = cython.declare(tuple)
    starts = cython.declare(tuple)  # every square, where a path may begin
    points = cython.declare(object)  # per square (letter points, word multiplier), or None
    used = cython.declare(list, visibility="readonly")
    best = cython.declare(object, visibility="readonly")
    best_score = cython.declare(cython.Py_ssize_t)

    def __init__(self, word: str, faces: tuple, neighbours: tuple, points) -> None:
        self.word, self.faces, self.neighbours, self.points = word, faces, neighbours, points
        self.starts = tuple(range(len(faces)))
        self.used = []
        self.best = None
        self.best_score = -1

    @cython.ccall
    @cython.locals(at=cython.Py_ssize_t, score=cython.Py_ssize_t, nxt=object)
    def extend(self, at) -> cython.bint:
        """Walk on from the path in ``used``, which spells the word's first ``at``
        letters; True once the walk may stop."""
        used = self.used
        if at == len(self.word):
            if self.points is None:
                self.best = tuple(used)
                return True
            score = _rampage_points(self.points, used)
            if score > self.best_score:
                self.best, self.best_score = tuple(used), score
            return False
        for nxt in self.neighbours[used[-1]] if used else self.starts:
            face = self.faces[nxt]
            if nxt not in used and self.word.startswith(face, at):
                used.append(nxt)
                if self.extend(at + len(face)):
                    return True
                used.pop()
        return False


# --------------------------------------------------------------------------- scoring


def score_rampage(board: Board, path: Iterable[Square]) -> int:
    """Rampage points of a path (RULES §1).

    Letter values, each times its tile's letter bonus, summed; then times the word
    bonus of every word-bonus tile the path covers.
    """
    size = board.size
    return _rampage_points(board._square_points, [row * size + col for row, col in path])


@cython.cfunc
@cython.locals(total=cython.Py_ssize_t, multiplier=cython.Py_ssize_t)
def _rampage_points(square_points: tuple, squares: list) -> cython.Py_ssize_t:
    """``score_rampage`` of flat squares, with the board's ``_square_points``."""
    total, multiplier = 0, 1
    for square in squares:
        letter_points, word_multiplier = square_points[square]
        total += letter_points
        multiplier *= word_multiplier
    return total * multiplier


def bonuses_used(board: Board, path: Iterable[Square]) -> tuple[str, ...]:
    """The bonuses (``2L 3L 2W 3W``) a path covers, in path order."""
    return tuple(board.bonuses[square] for square in path if square in board.bonuses)


def classic_points(word: str) -> int:
    """Classic hunt points of a remaining word by its length (RULES §2).

    Length counts letters, so ``"quit"`` (spelled with the Qu cube) is four letters.
    Words shorter than three letters score 0.
    """
    length = len(word)
    if length >= 8:
        return CLASSIC_POINTS_LONG
    return CLASSIC_POINTS.get(length, 0)


def word_points(rules: HuntRules, board: Board, word: str, path: Iterable[Square] | None = None) -> int:
    """Points of a found word: Rampage scores its path's tiles, Classic its length.

    In Rampage a word without a ``path`` is scored on its best path (``find_path``);
    Classic needs no path.
    """
    if rules.game == "rampage":
        if path is None:
            path = find_path(board, word)
            if path is None:
                raise ValueError(f"{word!r} is not on the board")
        return score_rampage(board, path)
    return classic_points(word)


def computer_points(word: str, size: int) -> int:
    """Points for the comparison against the computer (RULES §2).

    A word of the shortest allowed length scores 1, each extra letter 1 more; a word
    below the minimum scores 0.
    """
    minimum = rules_for("classic", size).min_length
    return max(0, len(word) - minimum + 1)


def cross_off(lists: Mapping[str, Iterable[str]]) -> tuple[dict[str, set[str]], set[str]]:
    """Cross common words off every list (RULES §2).

    Returns the words left to each player and the set of common words: those on more
    than one player's list. A word listed twice by one player is not common.
    """
    words = {player: {w.lower() for w in listed} for player, listed in lists.items()}
    seen: set[str] = set()
    common: set[str] = set()
    for player_words in words.values():
        common |= seen & player_words
        seen |= player_words
    return {player: player_words - common for player, player_words in words.items()}, common


# --------------------------------------------------------------------------- solver


def solve(board: Board, lex: Lexicon, min_length: int = 3) -> dict[str, Path]:
    """Every lexicon word of at least ``min_length`` letters on the board, with one path each.

    A depth-first walk over the board that follows the lexicon's trie, so a branch ends
    as soon as no word starts with the letters spelled so far. The path kept for a word
    is the first one found in row-major order (use :func:`find_path` for the best one).
    """
    faces = board._flat_faces
    squares = tuple(board.squares())
    # Per square: (neighbour, its face, its (row, col)).
    steps = tuple(tuple((nxt, faces[nxt], squares[nxt]) for nxt in neighbours) for neighbours in board._neighbours)
    solver = _Solver(lex.tables(), steps, min_length)
    for start, face in enumerate(faces):
        node = solver.follow(lex.root, face)
        if node < 0:
            continue
        solver.trail.append(squares[start])
        solver.spelled.append(face)
        if len(face) >= min_length and node < solver.n_final:
            solver.found.setdefault(face, (squares[start],))
        solver.taken[start] = True
        solver.walk(start, node, len(face))
        solver.taken[start] = False
        solver.trail.pop()
        solver.spelled.pop()
    return solver.found


@cython.cclass
class _Solver:
    """One solve's walk over the lexicon's arrays (``Lexicon.tables``). Compiled
    (``make engine``), its steps are C functions over C ints; run as Python it is the
    same walk."""

    node_letters = cython.declare(tuple)
    first = cython.declare(cython.uint[:])
    targets = cython.declare(cython.uint[:])
    n_final = cython.declare(cython.Py_ssize_t, visibility="readonly")
    min_length = cython.declare(cython.Py_ssize_t)
    steps = cython.declare(tuple)
    found = cython.declare(dict, visibility="readonly")
    # The squares taken, the path so far as (row, col)s and the faces it spells.
    taken = cython.declare(list, visibility="readonly")
    trail = cython.declare(list, visibility="readonly")
    spelled = cython.declare(list, visibility="readonly")

    def __init__(self, tables, steps: tuple, min_length: int) -> None:
        self.node_letters, self.first, self.targets, self.n_final = (
            tuple(tables.node_letters),
            tables.first,
            tables.targets,
            tables.n_final,
        )
        self.steps, self.min_length = steps, min_length
        self.found = {}
        self.taken = [False] * len(steps)
        self.trail, self.spelled = [], []

    @cython.ccall
    @cython.locals(node=cython.Py_ssize_t, face=str, i=cython.Py_ssize_t)
    def follow(self, node, face) -> cython.Py_ssize_t:
        """The node ``face``'s letters lead to from ``node``, or -1."""
        for letter in face:
            i = self.node_letters[node].find(letter)
            if i < 0:
                return -1
            node = self.targets[self.first[node] + i]
        return node

    @cython.ccall
    @cython.returns(cython.void)
    @cython.locals(
        index=cython.Py_ssize_t,
        node=cython.Py_ssize_t,
        length=cython.Py_ssize_t,
        after=cython.Py_ssize_t,
        nxt=cython.Py_ssize_t,
        longer=cython.Py_ssize_t,
        i=cython.Py_ssize_t,
        continuing=str,
        face=str,
        taken=list,
        trail=list,
        spelled=list,
        step=tuple,
    )
    def walk(self, index, node, length):
        continuing = self.node_letters[node]
        if not continuing:
            return
        taken, trail, spelled = self.taken, self.trail, self.spelled
        for step in self.steps[index]:
            nxt = step[0]
            face = step[1]
            # Checking the letter in the node's short edge string is far cheaper than
            # asking the trie for a child that mostly does not exist.
            if taken[nxt]:
                continue
            i = continuing.find(face[0])
            if i < 0:
                continue
            after = self.targets[self.first[node] + i]
            if len(face) > 1:
                after = self.follow(after, face[1:])
                if after < 0:
                    continue
            longer = length + len(face)
            trail.append(step[2])
            spelled.append(face)
            if after < self.n_final and longer >= self.min_length:
                word = "".join(spelled)
                if word not in self.found:
                    self.found[word] = tuple(trail)
            taken[nxt] = True
            self.walk(nxt, after, longer)
            taken[nxt] = False
            trail.pop()
            spelled.pop()


# --------------------------------------------------------------------------- generation


def _draw_rampage(rng: random.Random, size: int) -> Board:
    tiles = rng.sample(RAMPAGE_BAG, size * size)
    faces = [tiles[row * size : (row + 1) * size] for row in range(size)]
    squares = [(row, col) for row in range(size) for col in range(size)]
    letter_1, letter_2, letter_3, word = rng.sample(squares, 4)
    bonuses = {square: ("2L" if rng.random() < 0.8 else "3L") for square in (letter_1, letter_2, letter_3)}
    bonuses[word] = "2W" if rng.random() < 0.9 else "3W"
    return Board(faces, bonuses=bonuses)


def _draw_classic(rng: random.Random, size: int) -> Board:
    dice = list(CLASSIC_DICE[size])
    rng.shuffle(dice)
    rolled = [rng.choice(die) for die in dice]
    return Board([rolled[row * size : (row + 1) * size] for row in range(size)])


def _generate(draw, seed: int | str, lex: Lexicon, size: int, min_length: int, min_words: int) -> Board:
    rng = random.Random(seed)
    for _ in range(MAX_DRAWS):
        board = draw(rng, size)
        if len(solve(board, lex, min_length)) >= min_words:
            return board
    raise ValueError(f"no board with {min_words} words in {MAX_DRAWS} draws: lexicon too small?")


def rampage_board(seed: int | str, lex: Lexicon, *, min_words: int = MIN_WORDS) -> Board:
    """A Word Rampage board from ``seed`` (RULES §1); the same seed gives the same board.

    16 tiles drawn without replacement from the Word Grid bag without blanks, three
    letter bonuses (each 80 % 2L, 20 % 3L) and one word bonus (90 % 2W, 10 % 3W) on four
    different tiles; redrawn until it holds ``min_words`` words of ``lex``.
    """
    return _generate(_draw_rampage, seed, lex, RAMPAGE.size, RAMPAGE.min_length, min_words)


def classic_board(seed: int | str, lex: Lexicon, size: int = 4, *, min_words: int = MIN_WORDS) -> Board:
    """A Classic hunt board from ``seed`` (RULES §2); the same seed gives the same board.

    The standard dice of the grid size rolled into random positions, one random face
    up each; redrawn until it holds ``min_words`` words of the grid's minimum length.
    """
    rules = rules_for("classic", size)
    return _generate(_draw_classic, seed, lex, size, rules.min_length, min_words)


def new_board(rules: HuntRules, seed: int | str, lex: Lexicon, *, min_words: int = MIN_WORDS) -> Board:
    """A fresh board for ``rules`` (Rampage or Classic of either size)."""
    if rules.game == "rampage":
        return rampage_board(seed, lex, min_words=min_words)
    return classic_board(seed, lex, rules.size, min_words=min_words)
