"""The seat, turn and end core both tile games build on (games/engine/turns.py), and
TOW's ``Game.check``: what may be played now, asked before the table is looked at."""

from collections import Counter

import pytest

from games.engine import crossword_game, tow, turns
from games.engine.crossword import WORD_GRID
from games.engine.tow import IllegalPlay, Move
from lexicon.core import Lexicon
from tests.unit.test_tow_game import game_with_racks

LEX = Lexicon.from_words(["at", "bat", "tab", "cat", "cats", "act", "ta", "ate", "eat", "tea"])


def test_take_deal_and_shuffled():
    assert turns.take("aabc", "ab") == "ac"
    assert turns.take("abc", "zz") is None and turns.take("a", "aa") is None
    racks, bag = turns.deal(tuple("abcdefgh"), 2, 3)
    assert racks == ("abc", "def") and bag == ("g", "h")
    assert turns.shuffled("abcdef", "seed", 1) == turns.shuffled("fedcba", "seed", 1)
    assert turns.shuffled("abcdef", "seed", 1) != turns.shuffled("abcdef", "seed", 2)


@pytest.mark.parametrize("engine", [crossword_game, tow])
def test_both_games_share_the_moves_without_a_placement(engine):
    assert engine.Move.swap(1, "QA") == engine.Move(turns.SWAP, 1, tiles="aq")
    assert engine.Move.pass_(0).kind == engine.PASS == turns.PASS
    assert engine.Move.resign(2).kind == turns.RESIGN and engine.Move.forfeit(2).kind == turns.FORFEIT
    assert engine.WENT_OUT == turns.WENT_OUT and engine.LAST_SEAT == turns.LAST_SEAT


@pytest.mark.parametrize(
    "game",
    [crossword_game.new_game(WORD_GRID, 3, "leave", LEX), tow.new_game(3, "leave", LEX)],
    ids=["word grid", "tow"],
)
def test_a_seat_that_leaves_finishes_last_in_both_games(game):
    """The same leaving rule: tiles back to the bag, last place, the next seat moves."""
    mover = game.to_move
    move_type = crossword_game.Move if isinstance(game, crossword_game.Game) else tow.Move
    after = game.apply(move_type.resign(mover))
    assert not after.in_play[mover] and after.racks[mover] == ""
    assert sorted(after.bag) == sorted(game.bag + tuple(game.racks[mover]))
    assert after.standings()[-1][0] == mover and after.to_move != mover and not after.is_over
    assert after.unseen(after.to_move) == "".join(
        sorted(after.bag + tuple("".join(r for s, r in enumerate(after.racks) if s != after.to_move)))
    )


def test_tow_check_refuses_what_may_not_be_played_now():
    game = game_with_racks(["catqxyz", "eeeeeee"])
    with pytest.raises(IllegalPlay, match="it is not your turn"):
        game.check(Move.pass_(1))
    with pytest.raises(IllegalPlay, match="not on your rack"):
        game.check(Move.place(0, [(0, 0, "b", "letter"), (0, 1, "a", "letter")], [(0, 0), (0, 1)]))
    with pytest.raises(IllegalPlay, match="not on your rack"):
        game.check(Move.swap(0, "ee"))
    with pytest.raises(IllegalPlay, match="no play is waiting for votes"):
        game.check(Move.vote(1, True))
    with pytest.raises(IllegalPlay, match="that seat is not in the game"):
        game.check(Move.pass_(5))
    game.check(Move.resign(1))  # any seat may leave at any time
    game.check(Move.place(0, [(0, 0, "c", "letter"), (0, 1, "a", "letter")], [(0, 0), (0, 1)]))


def test_tow_check_leaves_a_malformed_placement_to_evaluate():
    """check says nothing of a placement's shape; apply then refuses it with evaluate's reason."""
    game = game_with_racks(["catqxyz", "eeeeeee"])
    malformed = Move.place(0, [(0, 0, "a", "joker")], [(0, 0), (0, 1)])
    game.check(malformed)
    with pytest.raises(IllegalPlay, match="Unknown tile kind|unknown tile kind"):
        game.apply(malformed)


def test_tow_check_while_a_play_waits_for_the_house_vote():
    game = game_with_racks(["catqxyz", "eeeeeee", "aaaaaaa"], house_vote=True)
    waiting = game.apply(Move.place(0, [(0, 0, "q", "letter"), (0, 1, "a", "letter")], [(0, 0), (0, 1)]))
    assert waiting.pending is not None
    with pytest.raises(IllegalPlay, match="waiting for the house vote"):
        waiting.check(Move.pass_(0))
    with pytest.raises(IllegalPlay, match="your own play"):
        waiting.check(Move.vote(0, True))
    voted = waiting.apply(Move.vote(1, True))  # one of two voters: not yet a majority
    with pytest.raises(IllegalPlay, match="already voted"):
        voted.check(Move.vote(1, True))
    waiting.check(Move.close_vote(0))


def test_the_end_adjustments_are_the_same_rule_in_both_games():
    """Everyone passes twice: each seat loses its rack's value (TOW's wildcards are 0)."""
    game = game_with_racks(["+*abxyz", "eeeeeee"])
    for seat in (0, 1, 0, 1):
        game = game.apply(Move.pass_(seat))
    assert game.is_over and game.end_reason == tow.PASSES
    values = Counter({"a": 1, "b": 3, "x": 8, "y": 4, "z": 10})
    assert game.adjustments == (-sum(values.values()), -7)
    assert game.scores == game.adjustments
