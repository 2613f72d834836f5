"""TOW table rules (RULES §5): the seed's examples, the bonuses and every refusal."""

import pytest

from games.engine import tow
from lexicon.core import Lexicon

LEX = Lexicon.from_words(
    [
        "at",
        "bat",
        "tab",
        "latch",
        "lo",
        "beet",
        "let",
        "the",
        "cat",
        "cow",
        "toe",
        "oho",
        "ah",
        "ha",
        "lava",
        "la",
        "noon",
        "jazz",
        "zax",
        "example",
        "horse",
        "comfort",
        "to",
        "woe",
        "cats",
        "ant",
        "on",
    ]
)


def table(*plays):
    """A table from plays given as strings ``"row,col,letter[,kind]"`` per tile, play by play."""
    tiles = []
    for number, play in enumerate(plays):
        for spec in play.split():
            parts = spec.split(",")
            kind = parts[3] if len(parts) > 3 else "letter"
            tiles.append((int(parts[0]), int(parts[1]), parts[2], kind, number))
    return tow.Table.empty().with_tiles(tiles)


def word_tiles(cells, word, kinds=None):
    kinds = kinds or {}
    return [(r, c, letter, kinds.get(i, "letter")) for i, ((r, c), letter) in enumerate(zip(cells, word))]


def straight(word, row=0, col=0, kinds=None):
    cells = [(row, col + i) for i in range(len(word))]
    return word_tiles(cells, word, kinds), cells


def refused(t, placement, path, lexicon=LEX):
    with pytest.raises(tow.IllegalPlay) as info:
        tow.evaluate(t, placement, path, lexicon)
    return info.value.reason


# -- the seed's examples ------------------------------------------------------------------

LATCH = table("-1,0,l 0,0,a 0,1,t 1,1,c 2,1,h")  # L above A; A-T across; T-C-H down


def test_beet_with_let():
    """BEET bends down at its new second E; the column L-E-T it makes scores as LET."""
    t = table("0,0,l 0,1,o")
    path = [(1, -2), (1, -1), (1, 0), (2, 0)]
    play = tow.evaluate(t, word_tiles(path, "beet"), path, LEX)
    assert play.words == [("beet", 6), ("let", 3)]
    assert play.score == 9
    assert play.bonuses == {}


def test_the_refused_because_its_run_is_no_word():
    """E laid after H-C-T makes the run H-C-T-E, a word neither way: THE is refused."""
    t = table("0,0,h 0,1,c 0,2,t")
    path = [(2, 3), (1, 3), (0, 3)]
    reason = refused(t, word_tiles(path, "the"), path)
    assert "the run H-C-T-E" in reason and "not a word either way" in reason


def test_batch_refused_over_atch_but_bat_allowed():
    """BATCH would turn at T, a tile already on the table; BAT keeps to the line A-T."""
    b = [(0, -1, "b", "letter")]
    reason = refused(LATCH, b, [(0, -1), (0, 0), (0, 1), (1, 1), (2, 1)])
    assert reason.startswith("the word turns at B1, a tile already on the table")
    play = tow.evaluate(LATCH, b, [(0, -1), (0, 0), (0, 1)], LEX)
    assert play.main_word == "bat"


def test_bat_and_tab_both_scored():
    """A straight word that reads as another word backwards scores both readings."""
    play = tow.evaluate(tow.Table.empty(), *straight("bat"), LEX)
    assert play.words == [("bat", 5), ("tab", 5)]
    assert play.score == 10


def test_palindrome_scored_once():
    """NOON reads the same both ways and scores once."""
    play = tow.evaluate(tow.Table.empty(), *straight("noon"), LEX)
    assert play.words == [("noon", 4)]


def test_letter_bonuses_only_in_words_of_four_or_more():
    """In JAZZ, J scores double and each Z triple; the three-letter ZAX has no bonus."""
    jazz = tow.evaluate(tow.Table.empty(), *straight("jazz"), LEX)
    assert jazz.words == [("jazz", 8 * 2 + 1 + 10 * 3 * 2)]
    assert jazz.details[0].letter_bonus == 8 + 20 * 2
    zax = tow.evaluate(tow.Table.empty(), *straight("zax"), LEX)
    assert zax.words == [("zax", 10 + 1 + 8)]


@pytest.mark.parametrize(
    "kinds, points",
    [
        ({0: "corner"}, (0 + 1 + 1) * 2),
        ({1: "pz"}, (3 + 0 + 1) * 3),
        ({0: "corner", 2: "pz"}, (0 + 1 + 0) * 6),
        ({0: "corner", 2: "corner"}, (0 + 1 + 0) * 2),
    ],
)
def test_word_bonuses_corner_pz_and_both(kinds, points):
    """A corner tile doubles its word, a PZ triples it, both ×6; two corners still ×2."""
    play = tow.evaluate(tow.Table.empty(), *straight("cat", kinds=kinds), LEX)
    assert play.words == [("cat", points)]
    names = {2: "corner", 3: "PZ", 6: "corner and PZ"}
    assert play.details[0].word_bonus == names[play.details[0].multiplier]


def test_word_bonus_from_a_corner_tile_already_on_the_table():
    """A later word through an old corner tile is doubled too; the wildcard counts 0."""
    t = table("0,0,c,corner 0,1,a 0,2,t")
    play = tow.evaluate(t, [(0, 3, "s", "letter")], [(0, 0), (0, 1), (0, 2), (0, 3)], LEX)
    assert play.words == [("cats", (0 + 1 + 1 + 1) * 2)]


def test_bridge():
    """H joins CAT's two hanging words COW and TOE, which did not touch: +10."""
    t = table("0,0,c 0,1,a 0,2,t", "1,0,o 2,0,w", "1,2,o 2,2,e")
    play = tow.evaluate(t, [(1, 1, "h", "letter")], [(1, 0), (1, 1), (1, 2)], LEX)
    assert play.words == [("oho", 6), ("ah", 5), ("ha", 5)]
    assert play.bonuses == {"bridge": 10}
    assert play.score == 26


def test_no_bridge_between_plays_that_already_touch():
    """Adding to one earlier play (or two that touch) earns no bridge."""
    t = table("0,0,c 0,1,a 0,2,t")
    play = tow.evaluate(t, [(0, 3, "s", "letter")], [(0, 0), (0, 1), (0, 2), (0, 3)], LEX)
    assert play.bonuses == {}


def test_full_fit():
    """Placing all seven rack tiles adds 50 (X triple in the 7-letter EXAMPLE)."""
    play = tow.evaluate(tow.Table.empty(), *straight("example"), LEX)
    assert play.words == [("example", 1 + 24 + 1 + 3 + 3 + 1 + 1)]
    assert play.bonuses == {"full_fit": 50}
    assert play.score == 34 + 50


def test_cluster_lava_on_a_two_by_two_block():
    """LAVA around a 2×2 block: +5; its left column L-A scores as LA."""
    path = [(0, 0), (0, 1), (1, 1), (1, 0)]
    play = tow.evaluate(tow.Table.empty(), word_tiles(path, "lava"), path, LEX)
    assert play.words == [("lava", 1 + 1 + 8 + 1), ("la", 2)]
    assert play.bonuses == {"cluster": 5}
    assert play.score == 18


def test_multi_direction():
    """A word of four directional lines (a staircase) adds 5."""
    path = [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2)]
    play = tow.evaluate(tow.Table.empty(), word_tiles(path, "horse"), path, LEX)
    assert play.bonuses == {"multi_direction": 5}
    assert play.score == 8 + 5


def test_corner_double():
    """The corner T ends CAT and starts TO, two words of one play: +10."""
    placement = [(0, 0, "c", "letter"), (0, 1, "a", "letter"), (0, 2, "t", "corner"), (1, 2, "o", "letter")]
    play = tow.evaluate(tow.Table.empty(), placement, [(0, 0), (0, 1), (0, 2)], LEX)
    assert play.words == [("cat", 8), ("to", 2)]
    assert play.bonuses == {"corner_double": 10}


def test_corner_double_not_for_two_readings_of_one_word():
    """BAT and TAB are one word of the table: a corner B at its end is no double."""
    play = tow.evaluate(tow.Table.empty(), *straight("bat", kinds={0: "corner"}), LEX)
    assert play.bonuses == {}


def test_ring():
    """COMFORT runs from C round to T and fences in the empty cell B2: +25."""
    t = table("0,0,c 0,1,a 0,2,t")
    path = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)]
    placement = word_tiles(path, "comfort")[1:-1]
    play = tow.evaluate(t, placement, path, LEX)
    assert play.words == [("comfort", 14)]
    assert play.bonuses == {"ring": 25}


def test_no_ring_inside_a_ring_already_closed():
    """A tile laid inside an old ring encloses nothing new."""
    t = table("0,0,c 0,1,a 0,2,t 0,3,s", "1,0,o 2,0,m 2,1,t 2,2,o 2,3,r 1,3,t")
    play = tow.evaluate(t, [(1, 1, "n", "letter")], [(0, 1), (1, 1), (2, 1)], LEX)
    assert play.words == [("ant", 3), ("on", 2)]
    assert play.bonuses == {}


# -- refusals -----------------------------------------------------------------------------

CAT = table("0,0,c 0,1,a 0,2,t")


def test_cells_far_away_do_not_touch_the_table():
    reason = refused(CAT, *straight("at", row=50, col=50))
    assert reason.startswith("the play does not touch the table")


def test_a_new_tile_not_joined_to_the_word():
    placement = [(0, 3, "s", "letter"), (5, 5, "a", "letter")]
    reason = refused(CAT, placement, [(0, 0), (0, 1), (0, 2), (0, 3)])
    assert reason == "a new tile is not joined to the word: F6"


def test_tiles_too_far_out():
    reason = refused(CAT, [(10**9, 0, "s", "letter")], [(10**9, 0), (0, 0)])
    assert "too far from the table" in reason


def test_two_tiles_on_one_cell():
    placement = [(0, 3, "s", "letter"), (0, 3, "a", "letter")]
    assert refused(CAT, placement, [(0, 0), (0, 1), (0, 2), (0, 3)]) == "two tiles placed on D1"


def test_tile_on_a_taken_cell():
    assert refused(CAT, [(0, 2, "s", "letter")], [(0, 1), (0, 2)]) == "C1 already holds a tile"


def test_unknown_kind():
    reason = refused(CAT, [(0, 3, "s", "joker")], [(0, 0), (0, 1), (0, 2), (0, 3)])
    assert reason == "unknown tile kind 'joker' at D1"


@pytest.mark.parametrize("kind, name", [("corner", "corner tile"), ("pz", "PZ tile")])
@pytest.mark.parametrize("letter", ["", None, "?", "ab"])
def test_wildcard_without_a_letter(kind, name, letter):
    reason = refused(CAT, [(0, 3, letter, kind)], [(0, 0), (0, 1), (0, 2), (0, 3)])
    assert reason == f"the {name} at D1 needs its letter"


def test_not_a_letter():
    assert refused(CAT, [(0, 3, "1", "letter")], [(0, 2), (0, 3)]).startswith("not a letter")


def test_path_not_through_the_placed_tiles():
    reason = refused(CAT, [(0, 3, "s", "letter")], [(0, 1), (0, 2)])
    assert reason == "the word does not use any tile placed this turn"


def test_path_of_one_tile():
    reason = refused(CAT, [(0, 3, "s", "letter")], [(0, 3)])
    assert reason.startswith("the word needs at least 2 letters")


def test_diagonal_step():
    reason = refused(CAT, [(1, 3, "s", "letter"), (1, 2, "o", "letter")], [(0, 2), (1, 3)])
    assert reason == "diagonal step from C1 to D2"


def test_cells_not_next_to_each_other():
    assert refused(CAT, [(0, 3, "s", "letter")], [(0, 0), (0, 3)]) == "A1 and D1 are not next to each other"


def test_path_over_an_empty_cell():
    reason = refused(CAT, [(0, 3, "s", "letter")], [(0, 2), (0, 3), (0, 4)])
    assert reason == "the path crosses E1, an empty cell"


def test_path_uses_a_cell_twice():
    reason = refused(CAT, [(0, 3, "s", "letter")], [(0, 2), (0, 3), (0, 2)])
    assert reason == "the path uses C1 twice"


def test_main_word_not_in_the_lexicon():
    assert refused(CAT, [(0, 3, "x", "letter")], [(0, 0), (0, 1), (0, 2), (0, 3)]) == "CATX is not in the word list"


def test_more_tiles_than_a_rack():
    assert refused(tow.Table.empty(), *straight("abcdefgh")) == "a play places at most 7 tiles"


def test_empty_placement():
    assert refused(CAT, [], [(0, 0), (0, 1)]) == "no tiles placed"


@pytest.mark.parametrize(
    "placement, path",
    [
        ("cats", [(0, 3)]),
        ([(0, 3, "s")], [(0, 3)]),
        ([(0, "3", "s", "letter")], [(0, 3)]),
        ([(0, 3, "s", "letter")], [(0, 3, 1)]),
        ([(0, 3, "s", "letter")], 5),
        ([(True, 3, "s", "letter")], [(0, 3)]),
        ([(0, 3, "s", "letter")], [(0.5, 3)]),
    ],
)
def test_malformed_input_is_refused(placement, path):
    """Garbage placements and paths are refused with a reason, never a crash."""
    assert refused(CAT, placement, path)


def test_huge_table_refused():
    """A table with more tiles than a game has is refused before any search."""
    huge = tow.Table.empty().with_tiles((r, c, "a", "letter", 0) for r in range(20) for c in range(20))
    reason = refused(huge, [(20, 0, "t", "letter")], [(19, 0), (20, 0)])
    assert reason == "the table holds 400 tiles; a game has only 104"
    with pytest.raises(tow.IllegalPlay):
        tow.paths(huge, [(20, 0, "t", "letter")], "at")


def test_sparse_table_far_apart_stays_quick():
    """Tiles scattered far apart make a huge bounding box; the ring search stays bounded."""
    t = table("0,0,c 0,1,a 0,2,t", "9000,9000,x", "-9000,-9000,x")
    play = tow.evaluate(t, [(0, 3, "s", "letter")], [(0, 0), (0, 1), (0, 2), (0, 3)], LEX)
    assert play.bonuses == {}


def test_refusal_changes_nothing():
    before = CAT.tiles()
    refused(CAT, [(0, 3, "x", "letter")], [(0, 0), (0, 1), (0, 2), (0, 3)])
    assert CAT.tiles() == before


# -- cells and paths ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cell, name",
    [
        ((0, 0), "A1"),
        ((2, 1), "B3"),
        ((0, 25), "Z1"),
        ((0, 26), "AA1"),
        ((-1, 0), "A-1"),
        ((0, -1), "-A1"),
        ((-3, -27), "-AA-3"),
    ],
)
def test_cell_names(cell, name):
    assert tow.cell_name(*cell) == name
    assert tow.parse_cell(name) == cell


@pytest.mark.parametrize("name", ["", "A0", "1A", "A", "-1", "A1B"])
def test_bad_cell_names(name):
    with pytest.raises(ValueError):
        tow.parse_cell(name)


def test_paths_finds_the_one_path():
    assert tow.paths(LATCH, [(0, -1, "b", "letter")], "bat") == [[(0, -1), (0, 0), (0, 1)]]
    assert tow.paths(LATCH, [(0, -1, "b", "letter")], "batch") == []


def test_paths_lists_every_way():
    """A 2×2 block of A-T/T-A spells AT four ways."""
    placement = [(0, 0, "a", "letter"), (0, 1, "t", "letter"), (1, 0, "t", "letter"), (1, 1, "a", "letter")]
    found = tow.paths(tow.Table.empty(), placement, "at")
    assert found == [[(0, 0), (0, 1)], [(0, 0), (1, 0)], [(1, 1), (0, 1)], [(1, 1), (1, 0)]]
