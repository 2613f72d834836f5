"""Hunt engine: boards, paths, scoring, crossing off, the solver and board generation."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import hunt
from games.engine.tiles import CLASSIC_DICE, RAMPAGE_BAG
from lexicon.core import Lexicon
from tests.examples import examples

CAT_ROWS = [
    ["c", "a", "t", "s"],
    ["o", "r", "e", "x"],
    ["d", "i", "n", "g"],
    ["qu", "e", "e", "n"],
]


def cat_board(**bonuses: str) -> hunt.Board:
    return hunt.Board(CAT_ROWS, bonuses={tuple(map(int, k[1:].split("_"))): v for k, v in bonuses.items()})


# --------------------------------------------------------------------------- Board


def test_board_accepts_lists_and_stores_tuples():
    """A board built from lists keeps its faces as an immutable tuple of tuples."""
    board = hunt.Board(CAT_ROWS, bonuses={(0, 0): "3L"})
    assert board.faces[3] == ("qu", "e", "e", "n")
    assert board.size == 4
    assert board.face((3, 0)) == "qu"
    with pytest.raises(TypeError):
        board.bonuses[(1, 1)] = "2W"  # type: ignore[index]


def test_board_equality_and_hash():
    """Boards with the same faces and bonuses are equal and hash alike."""
    a = hunt.Board(CAT_ROWS, bonuses={(0, 0): "3L", (0, 2): "3W"})
    b = hunt.Board([tuple(r) for r in CAT_ROWS], bonuses={(0, 2): "3W", (0, 0): "3L"})
    assert a == b and hash(a) == hash(b)
    assert a != hunt.Board(CAT_ROWS)


@pytest.mark.parametrize(
    "rows, bonuses",
    [
        ([], {}),
        ([["a", "b"], ["c"]], {}),
        ([["a", "b"], ["c", "1"]], {}),
        ([["a", "b"], ["c", "xy"]], {}),
        ([["a", "b"], ["c", "d"]], {(2, 0): "2L"}),
        ([["a", "b"], ["c", "d"]], {(0, 0): "4L"}),
    ],
)
def test_board_refuses_malformed_grids(rows, bonuses):
    """A board must be square, of letters or "qu", with known bonuses on its squares."""
    with pytest.raises(ValueError):
        hunt.Board(rows, bonuses=bonuses)


def test_serialisation_example():
    """The text form is rows joined by "/", Qu written Q, then "|" and indexed bonuses."""
    board = hunt.Board([["c", "a"], ["qu", "t"]], bonuses={(0, 0): "3L", (1, 1): "2W"})
    assert board.to_text() == "ca/Qt|0:3L,3:2W"
    assert hunt.Board.from_text("ca/Qt|0:3L,3:2W") == board
    assert hunt.Board([["a"]]).to_text() == "a"


@pytest.mark.parametrize("text", ["", "ab/c", "ab/cd|9:2L", "ab/cd|x:2L", "ab/cd|0:9W", "a1/cd"])
def test_from_text_refuses_bad_text(text):
    """Malformed stored text raises ValueError instead of building a bad board."""
    with pytest.raises(ValueError):
        hunt.Board.from_text(text)


# --------------------------------------------------------------------------- paths


def test_find_path_cat():
    """CAT is found along the top row."""
    assert hunt.find_path(cat_board(), "cat") == ((0, 0), (0, 1), (0, 2))
    assert hunt.find_path(cat_board(), "CAT") == ((0, 0), (0, 1), (0, 2))


def test_find_path_none_when_absent():
    """A word the board cannot spell, or one needing a tile twice, has no path."""
    board = cat_board()
    assert hunt.find_path(board, "zebra") is None
    assert hunt.find_path(board, "tat") is None  # one T, so no tile may repeat
    assert hunt.find_path(board, "") is None


def test_find_path_qu_face_spells_two_letters():
    """The Qu cube is one tile spelling "qu": QUEEN takes four tiles."""
    path = hunt.find_path(cat_board(), "queen")
    assert len(path) == 4 and path[0] == (3, 0)
    assert hunt.spell(cat_board(), path) == "queen"
    assert hunt.find_path(cat_board(), "q") is None  # a lone q cannot come off a Qu face


def test_find_path_prefers_the_best_scoring_route():
    """Of two routes for one word, the one over a bonus tile is chosen."""
    board = hunt.Board([["a", "t"], ["t", "x"]], bonuses={(1, 0): "3W"})
    assert hunt.find_path(board, "at") == ((0, 0), (1, 0))


@pytest.mark.parametrize(
    "path, problem",
    [
        (((0, 0), (0, 1), (0, 2)), None),
        ((), "the path is empty"),
        ([(0, 0)], "the path is empty"),
        (((0, 0), (0, 4)), "the path leaves the board"),
        (((0, 0), (-1, 0)), "the path leaves the board"),
        (((0, 0), ("a", 1)), "the path leaves the board"),
        (((0, 0), (0, 1, 2)), "the path leaves the board"),
        (((0, 0), (0.0, 1)), "the path leaves the board"),
        (((0, 0), (0, 1), (0, 0)), "the path uses a tile twice"),
        (((0, 0), (0, 2)), "the path jumps between tiles that do not touch"),
        (((0, 0), (2, 2)), "the path jumps between tiles that do not touch"),
        (tuple((0, 0) for _ in range(17)), "the path is longer than the board"),
    ],
)
def test_path_problem(path, problem):
    """Untrusted paths get a reason a player understands, and legal ones get None."""
    assert hunt.path_problem(cat_board(), path) == problem


def test_every_square_touches_its_eight_neighbours_only():
    """Adjacency covers the eight directions and nothing further."""
    assert hunt.are_adjacent((1, 1), (0, 0))
    assert hunt.are_adjacent((1, 1), (2, 0))
    assert not hunt.are_adjacent((1, 1), (1, 1))
    assert not hunt.are_adjacent((1, 1), (3, 1))


# --------------------------------------------------------------------------- scoring


def test_cat_scores_5():
    """RULES §1: CAT = 3 + 1 + 1 = 5."""
    board = cat_board()
    assert hunt.score_rampage(board, hunt.find_path(board, "cat")) == 5


def test_cat_with_c_on_3l_scores_11():
    """RULES §1: with C on 3L, CAT = 9 + 1 + 1 = 11."""
    board = cat_board(s0_0="3L")
    assert hunt.score_rampage(board, ((0, 0), (0, 1), (0, 2))) == 11


def test_cat_with_3l_and_3w_scores_33():
    """RULES §1: the same path also over 3W scores 11 × 3 = 33."""
    board = cat_board(s0_0="3L", s0_2="3W")
    path = ((0, 0), (0, 1), (0, 2))
    assert hunt.score_rampage(board, path) == 33
    assert hunt.bonuses_used(board, path) == ("3L", "3W")


def test_letter_bonuses_each_apply_to_their_own_letter():
    """Two letter bonuses on one path each multiply only their own tile."""
    board = cat_board(s0_0="2L", s0_1="3L", s1_1="2W")
    assert hunt.score_rampage(board, ((0, 0), (0, 1), (0, 2))) == 6 + 3 + 1
    assert hunt.score_rampage(board, ((0, 0), (1, 1), (0, 2))) == (6 + 1 + 1) * 2


def test_word_bonus_off_the_path_does_not_count():
    """A word bonus elsewhere on the board leaves the word's score alone."""
    board = cat_board(s3_3="3W")
    assert hunt.score_rampage(board, ((0, 0), (0, 1), (0, 2))) == 5
    assert hunt.bonuses_used(board, ((0, 0), (0, 1), (0, 2))) == ()


@pytest.mark.parametrize(
    "word, points",
    [
        ("at", 0),
        ("cat", 1),
        ("cats", 1),
        ("stone", 2),
        ("stones", 3),
        ("rattles", 5),
        ("pastries", 11),
        ("outstanding", 11),
    ],
)
def test_classic_points_table(word, points):
    """RULES §2: by length 3→1, 4→1, 5→2, 6→3, 7→5, 8+→11 (and nothing below 3)."""
    assert hunt.classic_points(word) == points


def test_qu_counts_as_two_letters():
    """RULES §2: QUIT has four letters although the Qu cube makes it three tiles."""
    board = hunt.Board([["qu", "i"], ["t", "e"]])
    path = hunt.find_path(board, "quit")
    assert len(path) == 3
    assert hunt.classic_points("quit") == 1
    assert hunt.classic_points("quite") == 2
    assert hunt.computer_points("quit", 5) == 1  # the 5×5 minimum, met thanks to Qu
    lex = Lexicon.from_words(["quit", "quite", "tie"])
    assert set(hunt.solve(board, lex, min_length=4)) == {"quit", "quite"}


@pytest.mark.parametrize(
    "word, size, points",
    [
        ("cat", 4, 1),
        ("cats", 4, 2),
        ("stone", 4, 3),
        ("stone", 5, 2),
        ("cats", 5, 1),
        ("cat", 5, 0),
        ("at", 4, 0),
        ("outstanding", 4, 9),
    ],
)
def test_computer_points(word, size, points):
    """RULES §2: the shortest allowed length scores 1, each extra letter 1 more."""
    assert hunt.computer_points(word, size) == points


def test_computer_points_unknown_size():
    """Only 4×4 and 5×5 Classic grids exist."""
    with pytest.raises(ValueError):
        hunt.computer_points("stone", 6)


# --------------------------------------------------------------------------- crossing off


def test_cross_off_example():
    """RULES §2: a word on more than one player's list is crossed off every list."""
    remaining, common = hunt.cross_off(
        {
            "ann": ["tear", "rate", "tea", "eat"],
            "bob": ["tear", "tare", "eat"],
            "cy": ["rate", "art"],
        }
    )
    assert common == {"tear", "rate", "eat"}
    assert remaining == {"ann": {"tea"}, "bob": {"tare"}, "cy": {"art"}}


def test_cross_off_one_player_listing_twice_is_not_common():
    """The same word twice on one list is a duplicate, not a common word."""
    remaining, common = hunt.cross_off({"ann": ["tea", "tea"], "bob": []})
    assert common == set()
    assert remaining == {"ann": {"tea"}, "bob": set()}


# --------------------------------------------------------------------------- rules table


def test_rules_table():
    """Rampage is 4×4 from 2 letters, 2 minutes; Classic 4×4 3 letters/3 min, 5×5 4/5 min."""
    assert (hunt.RAMPAGE.min_length, hunt.RAMPAGE.round_seconds) == (2, 120)
    assert (hunt.rules_for("classic", 4).min_length, hunt.CLASSIC_4.round_seconds) == (3, 180)
    assert (hunt.rules_for("classic", 5).min_length, hunt.CLASSIC_5.round_seconds) == (4, 300)
    with pytest.raises(ValueError):
        hunt.rules_for("rampage", 5)


# --------------------------------------------------------------------------- solver

WORDS = [
    "cat",
    "cats",
    "at",
    "ate",
    "tea",
    "tear",
    "tar",
    "rat",
    "rate",
    "ore",
    "queen",
    "quee",
    "din",
    "ding",
    "dine",
    "diner",
    "in",
    "inn",
    "tern",
    "ten",
    "sex",
    "xi",
    "zzz",
    "tax",
]


def test_solve_finds_words_with_legal_paths():
    """Solve lists every word of the minimum length that the board holds, with a path."""
    lex = Lexicon.from_words(WORDS)
    board = cat_board()
    found = hunt.solve(board, lex, min_length=3)
    assert {"cat", "queen", "ding", "inn", "diner"} <= set(found)
    assert "at" not in found and "zzz" not in found and "tax" not in found
    for word, path in found.items():
        assert hunt.path_problem(board, path) is None
        assert hunt.spell(board, path) == word
    assert "at" in hunt.solve(board, lex, min_length=2)


def test_solve_on_an_empty_lexicon():
    """An empty lexicon holds no words, so nothing is found."""
    assert hunt.solve(cat_board(), Lexicon.from_words([])) == {}


def every_path(board: hunt.Board, worth_extending=lambda path: True):
    """Every legal path on ``board``, row-major depth first, by exhaustive search; a path
    is extended only while ``worth_extending`` says so."""
    squares = list(board.squares())

    def extend(path):
        yield path
        if worth_extending(path):
            for square in squares:
                if square not in path and hunt.are_adjacent(path[-1], square):
                    yield from extend(path + (square,))

    for square in squares:
        yield from extend((square,))


def brute_force(board: hunt.Board, words: set[str], min_length: int) -> set[str]:
    """Every word of ``words`` spelled by some simple path on ``board`` (checked exhaustively)."""
    spelled = (hunt.spell(board, path) for path in every_path(board))
    return {word for word in spelled if len(word) >= min_length and word in words}


FACES = ["a", "e", "t", "s", "r", "qu"]
faces_st = st.sampled_from(FACES)
small_boards = st.integers(min_value=1, max_value=3).flatmap(
    lambda n: st.lists(st.lists(faces_st, min_size=n, max_size=n), min_size=n, max_size=n)
)


@st.composite
def board_and_words(draw):
    board = hunt.Board(draw(small_boards))
    # Half the words are spelled along random walks of the board so that many are found.
    walks = []
    for _ in range(draw(st.integers(0, 15))):
        path = [draw(st.sampled_from(list(board.squares())))]
        for _ in range(draw(st.integers(0, 5))):
            path.append(
                draw(
                    st.sampled_from(
                        [
                            (path[-1][0] + dr, path[-1][1] + dc)
                            for dr, dc in itertools.product((-1, 0, 1), repeat=2)
                            if 0 <= path[-1][0] + dr < board.size and 0 <= path[-1][1] + dc < board.size
                        ]
                    )
                )
            )
        walks.append(hunt.spell(board, path))
    others = draw(st.lists(st.text("aetsrqu", min_size=1, max_size=7), max_size=15))
    return board, set(walks) | set(others)


@settings(max_examples=examples(300), deadline=None)
@given(board_and_words(), st.integers(min_value=1, max_value=4))
def test_solve_equals_brute_force(case, min_length):
    """On small boards solve finds exactly the words an exhaustive path search finds."""
    board, words = case
    lex = Lexicon.from_words(words)
    found = hunt.solve(board, lex, min_length=min_length)
    assert set(found) == brute_force(board, words, min_length)


def every_path_spelling(board, word):
    """Every legal path spelling ``word``, row-major depth first, by exhaustive search."""

    def prefix(path):
        return word.startswith(hunt.spell(board, path))

    return [path for path in every_path(board, prefix) if hunt.spell(board, path) == word]


@settings(max_examples=examples(300), deadline=None)
@given(
    board_and_words(),
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.sampled_from(sorted(hunt.BONUSES))), max_size=4),
)
def test_find_path_is_the_first_best_scoring_of_every_path(case, marks):
    """find_path gives the highest-scoring path spelling the word, the first such in
    row-major depth-first order (with no bonuses, simply the first path); None if none."""
    board, words = case
    board = hunt.Board(board.faces, bonuses={(r, c): kind for r, c, kind in marks if r < board.size and c < board.size})
    for word in words:
        paths = every_path_spelling(board, word)
        best = max(paths, key=lambda path: hunt.score_rampage(board, path), default=None)
        assert hunt.find_path(board, word) == best


@settings(max_examples=examples(200), deadline=None)
@given(board_and_words(), st.integers(min_value=1, max_value=4))
def test_every_solve_path_is_legal_and_spells_its_word(case, min_length):
    """Each path solve returns is legal and spells its word; find_path agrees it exists."""
    board, words = case
    for word, path in hunt.solve(board, Lexicon.from_words(words), min_length).items():
        assert hunt.path_problem(board, path) is None
        assert hunt.spell(board, path) == word
        assert len(word) >= min_length
        best = hunt.find_path(board, word)
        assert best is not None and hunt.spell(board, best) == word


@settings(max_examples=examples(200), deadline=None)
@given(
    small_boards,
    st.dictionaries(st.tuples(st.integers(0, 2), st.integers(0, 2)), st.sampled_from(sorted(hunt.BONUSES)), max_size=4),
)
def test_text_round_trip(rows, bonuses):
    """A board rebuilt from its text equals the original."""
    size = len(rows)
    bonuses = {sq: b for sq, b in bonuses.items() if sq[0] < size and sq[1] < size}
    board = hunt.Board(rows, bonuses=bonuses)
    assert hunt.Board.from_text(board.to_text()) == board


# --------------------------------------------------------------------------- generation

# A lexicon rich enough that most boards hold a few dozen words of it.
GEN_WORDS = sorted(
    {"".join(letters) for n in (2, 3) for letters in itertools.product("aeiolnrst", repeat=n)}
    | {"".join(letters) for letters in itertools.product("aeinrst", repeat=4)}
)


@pytest.fixture(scope="module")
def gen_lex():
    return Lexicon.from_words(GEN_WORDS)


def test_rampage_board_is_deterministic(gen_lex):
    """The same seed gives the same Rampage board; another seed gives another."""
    a = hunt.rampage_board(7, gen_lex)
    assert a == hunt.rampage_board(7, gen_lex)
    assert a != hunt.rampage_board(8, gen_lex)
    assert hunt.rampage_board("table-1/round-2", gen_lex) == hunt.rampage_board("table-1/round-2", gen_lex)


def test_rampage_board_shape(gen_lex):
    """16 tiles from the bag without replacement, 3 letter bonuses and 1 word bonus apart."""
    bag = Counter(RAMPAGE_BAG)
    for seed in range(40):
        board = hunt.rampage_board(seed, gen_lex)
        assert board.size == 4
        tiles = Counter(face for row in board.faces for face in row)
        assert all(tiles[t] <= bag[t] for t in tiles)
        kinds = sorted(board.bonuses.values())
        assert len(kinds) == 4
        assert sum(k in hunt.LETTER_BONUSES for k in kinds) == 3
        assert sum(k in hunt.WORD_BONUSES for k in kinds) == 1
        assert len(hunt.solve(board, gen_lex, min_length=2)) >= 30


def test_rampage_bonus_probabilities(gen_lex):
    """Letter bonuses are about 80 % 2L and word bonuses about 90 % 2W."""
    letter = Counter()
    word = Counter()
    for seed in range(600):
        board = hunt._draw_rampage(random.Random(seed), 4)
        for kind in board.bonuses.values():
            (letter if kind in hunt.LETTER_BONUSES else word)[kind] += 1
    assert 0.75 < letter["2L"] / sum(letter.values()) < 0.85
    assert 0.86 < word["2W"] / sum(word.values()) < 0.94


def dice_match(faces, dice) -> bool:
    """True if each face can be given its own die that shows it (bipartite matching)."""
    owner: dict[int, int] = {}  # die -> face index

    def assign(face_index, seen):
        for die_index, die in enumerate(dice):
            if faces[face_index] in die and die_index not in seen:
                seen.add(die_index)
                if die_index not in owner or assign(owner[die_index], seen):
                    owner[die_index] = face_index
                    return True
        return False

    return len(faces) == len(dice) and all(assign(i, set()) for i in range(len(faces)))


@pytest.mark.parametrize("size", [4, 5])
def test_classic_board_rolls_the_dice(gen_lex, size):
    """Each die of the grid's set shows one of its faces, each die used once; no bonuses."""
    for seed in range(20):
        board = hunt.classic_board(seed, gen_lex, size, min_words=5)
        assert board == hunt.classic_board(seed, gen_lex, size, min_words=5)
        assert board.size == size and not board.bonuses
        faces = [face for row in board.faces for face in row]
        assert dice_match(faces, CLASSIC_DICE[size])
        assert len(hunt.solve(board, gen_lex, hunt.rules_for("classic", size).min_length)) >= 5


def test_generation_redraws_until_enough_words(gen_lex):
    """A board below the word minimum is redrawn; a hopeless lexicon is an error, not a hang."""
    board = hunt.rampage_board(3, gen_lex, min_words=60)
    assert len(hunt.solve(board, gen_lex, min_length=2)) >= 60
    with pytest.raises(ValueError):
        hunt.classic_board(1, Lexicon.from_words(["zzzz"]), 4, min_words=1)


def test_new_board_dispatches_on_rules(gen_lex):
    """new_board builds a Rampage board with bonuses and Classic boards without."""
    assert hunt.new_board(hunt.RAMPAGE, 1, gen_lex).bonuses
    assert hunt.new_board(hunt.CLASSIC_5, 1, gen_lex, min_words=3).size == 5


@pytest.mark.parametrize("size", [4, 5])
def test_classic_boards_hold_thirty_words_of_the_minimum_length(size):
    """RULES §2: with the real lexicon a generated Classic board holds at least 30 words
    of the grid's minimum length (3 on 4×4, 4 on 5×5), and the same seed rolls it again."""
    from lexicon import wordlists

    lex = wordlists.compile_lexicon("en")
    min_length = hunt.rules_for("classic", size).min_length
    for seed in range(5):
        board = hunt.classic_board(seed, lex, size)
        assert board == hunt.classic_board(seed, lex, size)
        assert dice_match([face for row in board.faces for face in row], CLASSIC_DICE[size])
        words = hunt.solve(board, lex, min_length)
        assert len(words) >= 30 and min(map(len, words)) >= min_length
