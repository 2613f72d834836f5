"""The crossword game state machine: turns, racks, bag, end rules (RULES §3, §4)."""

import pytest

from games.engine import crossword as cw
from games.engine.crossword import WORD_GRID, WORDGAME, IllegalPlay, Move
from games.engine.tiles import WORD_GRID_BAG, WORDGAME_BAG
from lexicon.core import Lexicon

LEX = Lexicon.from_words("cat cats at ta act scat as".split())


def all_tiles(game):
    return sorted("".join(game.racks) + "".join(game.bag) + "".join(
        "?" if blank else letter for _, _, letter, blank in game.board.tiles()))


def test_new_game_deals_racks_from_a_shuffled_bag():
    """Each seat holds a full rack; racks, bag and board together are the variant's bag."""
    game = cw.new_game(WORD_GRID, 3, seed=7, lexicon=LEX)
    assert [len(r) for r in game.racks] == [7, 7, 7]
    assert len(game.bag) == 100 - 21
    assert all_tiles(game) == sorted(WORD_GRID_BAG)


def test_same_seed_same_game():
    """The state is a pure function of the seed: same seed, same racks and bag."""
    assert cw.new_game(WORD_GRID, 2, "x", LEX) == cw.new_game(WORD_GRID, 2, "x", LEX)
    assert cw.new_game(WORD_GRID, 2, "x", LEX) != cw.new_game(WORD_GRID, 2, "y", LEX)


def test_word_grid_first_player_rotates_over_a_series():
    """Seat 1 opens game 1, seat 2 game 2 ... (0-based seats 0, 1, 2, 0)."""
    assert [cw.first_player(WORD_GRID, 3, n, "s") for n in (1, 2, 3, 4)] == [0, 1, 2, 0]


def test_wordgame_first_player_is_drawn_from_the_seed():
    """Wordgame draws the opener; the draw is reproducible and both seats can open."""
    openers = {cw.first_player(WORDGAME, 2, 1, seed) for seed in range(20)}
    assert openers == {0, 1}
    assert cw.first_player(WORDGAME, 2, 1, 5) == cw.first_player(WORDGAME, 2, 1, 5)


def test_only_the_seat_to_move_may_play():
    """A move out of turn is refused."""
    game = cw.new_game(WORD_GRID, 2, 1, LEX)
    with pytest.raises(IllegalPlay, match="not your turn"):
        game.apply(Move.pass_(1 - game.to_move))


def test_swap_returns_tiles_and_draws_as_many():
    """A swap keeps the rack size, scores 0 and passes the turn."""
    game = cw.new_game(WORD_GRID, 2, 3, LEX)
    seat = game.to_move
    after = game.apply(Move.swap(seat, game.racks[seat][:4]))
    assert len(after.racks[seat]) == 7
    assert len(after.bag) == len(game.bag)
    assert after.scores == (0, 0)
    assert after.to_move == 1 - seat
    assert all_tiles(after) == sorted(WORD_GRID_BAG)


def test_swap_needs_the_tiles_on_the_rack():
    """Swapping a tile the seat does not hold is refused."""
    game = cw.new_game(WORD_GRID, 2, 3, LEX)
    missing = next(t for t in "abcdefghijklmnopqrstuvwxyz" if t not in game.racks[game.to_move])
    with pytest.raises(IllegalPlay, match="not on your rack"):
        game.apply(Move.swap(game.to_move, missing))


def test_word_grid_ends_after_two_scoreless_turns_each():
    """Four passes in a two-player Word Grid game end it; racks count against their holders."""
    game = cw.new_game(WORD_GRID, 2, 11, LEX)
    for _ in range(3):
        game = game.apply(Move.pass_(game.to_move))
    assert not game.is_over
    game = game.apply(Move.pass_(game.to_move))
    assert game.is_over and game.end_reason == cw.STREAK
    values = [sum(WORD_GRID.letter_values[t] for t in rack) for rack in game.racks]
    assert game.scores == tuple(-v for v in values)


def test_wordgame_redeals_after_two_opening_passes_then_ends_after_three():
    """Two opening passes deal new racks; then three passes in a row end the game."""
    game = cw.new_game(WORDGAME, 2, 4, LEX)
    racks = game.racks
    game = game.apply(Move.pass_(game.to_move)).apply(Move.pass_(1 - game.to_move))
    assert game.turns[-1].redeal and game.racks != racks and game.streak == 0
    assert all_tiles(game) == sorted(WORDGAME_BAG)
    for _ in range(2):
        game = game.apply(Move.pass_(game.to_move))
    assert not game.is_over
    game = game.apply(Move.pass_(game.to_move))
    assert game.is_over


def test_resign_ends_a_two_player_game():
    """The seat that resigns finishes last whatever the scores."""
    game = cw.new_game(WORD_GRID, 2, 5, LEX).apply(Move.resign(1))
    assert game.is_over and game.end_reason == cw.LAST_SEAT
    assert game.winners() == (0,)


def test_forfeit_returns_tiles_and_the_game_goes_on():
    """With three seats a forfeit puts the tiles back in the bag and skips that seat."""
    game = cw.new_game(WORD_GRID, 3, 5, LEX)
    seat = game.to_move
    after = game.apply(Move.forfeit(seat))
    assert not after.is_over
    assert after.racks[seat] == "" and len(after.bag) == len(game.bag) + 7
    assert after.to_move == (seat + 1) % 3
    assert after.standings()[-1][0] == seat


def test_unseen_tiles_are_bag_and_other_racks():
    """A seat cannot see the bag or the other racks, and sees its own rack."""
    game = cw.new_game(WORD_GRID, 2, 9, LEX)
    unseen = game.unseen(0)
    assert len(unseen) == 100 - 7
    assert sorted(unseen + game.racks[0]) == sorted(WORD_GRID_BAG)


def test_replay_rebuilds_the_same_game():
    """Replaying the moves of a game from its seed gives an equal game."""
    game = cw.new_game(WORD_GRID, 2, 2, LEX)
    game = game.apply(Move.swap(game.to_move, game.racks[game.to_move][:2]))
    game = game.apply(Move.pass_(game.to_move))
    assert cw.replay(WORD_GRID, 2, 2, game.moves, LEX) == game
