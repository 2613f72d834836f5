"""Letter values, bags and dice: the tables of the rules pages (docs/rules-*.md) written once in games.engine.tiles."""

from collections import Counter

from games.engine import tiles


def test_letter_values_follow_the_common_rules():
    """A E I O U L N S T R 1; D G 2; B C M P 3; F H V W Y 4; K 5; J X 8; Q Z 10; blank 0."""
    expected = {1: "aeioulnstr", 2: "dg", 3: "bcmp", 4: "fhvwy", 5: "k", 8: "jx", 10: "qz"}
    for value, letters in expected.items():
        assert all(tiles.letter_value(letter) == value for letter in letters)
    assert tiles.letter_value("?") == 0
    assert set(tiles.LETTER_VALUES) == set("abcdefghijklmnopqrstuvwxyz?")


def test_word_grid_bag_holds_98_letters_and_2_blanks():
    """RULES §3: A9 B2 C2 D4 E12 ... Z1 and 2 blanks, 100 tiles."""
    bag = Counter(tiles.WORD_GRID_BAG)
    assert len(tiles.WORD_GRID_BAG) == 100 and bag["?"] == 2
    assert (bag["a"], bag["e"], bag["i"], bag["o"], bag["d"], bag["s"], bag["t"]) == (9, 12, 9, 8, 4, 4, 6)
    assert all(bag[letter] == 1 for letter in "jkqxz")


def test_wordgame_bag_holds_102_letters_and_2_blanks():
    """RULES §4: A8 B2 C3 D5 E13 F3 G2 H3 I8 ... Z1, +2 blanks."""
    bag = Counter(tiles.WORDGAME_BAG)
    assert len(tiles.WORDGAME_BAG) == 104 and bag["?"] == 2
    assert [bag[letter] for letter in "abcdefghi"] == [8, 2, 3, 5, 13, 3, 2, 3, 8]
    assert (bag["s"], bag["t"]) == (5, 7)


def test_rampage_bag_is_the_word_grid_bag_without_blanks():
    """RULES §1: 98 letter tiles, a Q tile being the letter Q."""
    assert Counter(tiles.RAMPAGE_BAG) + Counter("??") == Counter(tiles.WORD_GRID_BAG)
    assert "q" in tiles.RAMPAGE_BAG and tiles.QU not in tiles.RAMPAGE_BAG


def test_classic_dice_are_16_and_25_six_sided_dice_with_one_qu_face_each_set():
    """RULES §2: the 4×4 and 5×5 sets, one die in each carrying the Qu face."""
    for size, dice in tiles.CLASSIC_DICE.items():
        assert len(dice) == size * size
        assert all(len(die) == 6 for die in dice)
        assert sum(die.count(tiles.QU) for die in dice) == 1
        assert all(face == tiles.QU or len(face) == 1 for die in dice for face in die)
    assert ("h", "i", "m", "n", "u", "qu") in tiles.CLASSIC_DICE_4
    assert ("b", "j", "k", "qu", "x", "z") in tiles.CLASSIC_DICE_5
    assert tiles.CLASSIC_DICE_5.count(("d", "h", "l", "n", "o", "r")) == 2
