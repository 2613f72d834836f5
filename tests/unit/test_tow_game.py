"""The TOW game as a state machine (RULES §5): bag, first draw, turns, votes, end."""

from collections import Counter

import pytest

from games.engine import tow
from games.engine.tow import IllegalPlay, Move
from lexicon.core import Lexicon

LEX = Lexicon.from_words(["at", "bat", "tab", "cat", "cats", "act", "ta", "ate", "eat", "tea"])


def game_with_racks(racks, players=None, house_vote=False, lexicon=LEX, seed="g"):
    """A fresh game whose seats hold ``racks`` (the bag keeps the rest, so 104 in all)."""
    players = players or len(racks)
    game = tow.new_game(players, seed, lexicon, house_vote=house_vote)
    pool = Counter(tow.BAG)
    for rack in racks:
        pool.subtract(rack)
    assert min(pool.values()) >= 0
    bag = tuple(sorted(pool.elements()))
    return tow.Game(**{**game.__dict__, "racks": tuple("".join(sorted(r)) for r in racks), "bag": bag, "to_move": 0})


def test_the_bag_holds_104_tiles():
    """98 letters of the Word Grid bag, 4 corner tiles and 2 PZ tiles."""
    counts = Counter(tow.BAG)
    assert len(tow.BAG) == 104
    assert counts["+"] == 4 and counts["*"] == 2 and counts["?"] == 0
    assert counts["e"] == 12 and counts["z"] == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_deals_racks_of_seven(players):
    game = tow.new_game(players, "deal", LEX)
    assert all(len(rack) == 7 for rack in game.racks)
    assert sorted("".join(game.racks) + "".join(game.bag)) == sorted(tow.BAG)
    assert game.table.is_empty and game.scores == (0,) * players


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_is_two_to_four(players):
    with pytest.raises(ValueError):
        tow.new_game(players, "x", LEX)


def test_first_draw_pz_beats_everything_then_corner_then_nearest_a():
    """The opener drew the best tile of the deciding round; earlier rounds were ties."""
    seen_pz = seen_tie = False
    for seed in range(300):
        rounds, opener = tow.first_draw(4, seed)
        rank = {"*": -2, "+": -1}
        final = dict(rounds[-1])
        best = min(final.values(), key=lambda t: rank.get(t, ord(t)))
        assert final[opener] == best
        assert [t for t in final.values()].count(best) == 1
        for earlier in rounds[:-1]:
            tiles = dict(earlier)
            top = min(tiles.values(), key=lambda t: rank.get(t, ord(t)))
            assert list(tiles.values()).count(top) >= 2
        seen_pz |= "*" in final.values() and final[opener] == "*"
        seen_tie |= len(rounds) > 1
    assert seen_pz and seen_tie


def test_first_draw_is_replayable_and_shown():
    assert tow.new_game(3, "s", LEX).draws == tow.new_game(3, "s", LEX).draws
    assert tow.new_game(3, "s", LEX).to_move == tow.first_draw(3, "s/1")[1]


def test_a_play_scores_lays_tiles_and_draws_back_to_seven():
    game = game_with_racks(["catqxyz", "eeeeeee"])
    game = game.apply(
        Move.place(0, [(0, 0, "c", "letter"), (0, 1, "a", "letter"), (0, 2, "t", "letter")], [(0, 0), (0, 1), (0, 2)])
    )
    assert game.scores == (5, 0)
    assert len(game.racks[0]) == 7 and game.to_move == 1
    assert game.table.get(0, 1) == tow.Tile("a", "letter", 0)
    assert game.turns[-1].play.words == [("cat", 5)] and game.turns[-1].drawn == 3


def test_wildcards_come_from_the_rack_and_keep_their_letter():
    game = game_with_racks(["+*abxyz", "eeeeeee"])
    game = game.apply(
        Move.place(0, [(0, 0, "c", "corner"), (0, 1, "a", "letter"), (0, 2, "t", "pz")], [(0, 0), (0, 1), (0, 2)])
    )
    assert game.scores[0] == 6
    assert game.table.get(0, 0) == tow.Tile("c", "corner", 0)
    with pytest.raises(IllegalPlay, match="not on your rack"):
        game.apply(Move.place(1, [(0, 3, "s", "corner")], [(0, 0), (0, 1), (0, 2), (0, 3)]))


def test_tiles_not_on_the_rack_are_refused():
    game = game_with_racks(["abcdefg", "eeeeeee"])
    with pytest.raises(IllegalPlay, match="not on your rack"):
        game.apply(Move.place(0, [(0, 0, "z", "letter"), (0, 1, "a", "letter")], [(0, 0), (0, 1)]))


def test_not_your_turn():
    game = game_with_racks(["catqxyz", "eeeeeee"])
    with pytest.raises(IllegalPlay, match="not your turn"):
        game.apply(Move.pass_(1))


def test_a_swap_puts_the_tiles_in_the_bag_and_draws_as_many_new_ones():
    """The kept tiles stay; the swapped ones go into the shuffled bag, and as many are drawn from it."""
    game = game_with_racks(["catqxyz", "eeeeeee"])
    after = game.apply(Move.swap(0, "qxz"))
    drawn = Counter(after.racks[0]) - Counter("caty")
    assert len(after.racks[0]) == 7 and drawn.total() == 3
    assert Counter(after.bag) == Counter(game.bag) + Counter("qxz") - drawn
    # The bag holds no other q, x or z: drawing all three back would mean the bag was not shuffled.
    assert drawn != Counter("qxz") and after.racks[0] != game.racks[0]
    assert after.scores == game.scores and after.to_move == 1 and after.turns[-1].drawn == 3


def test_a_swap_of_tiles_not_on_the_rack_is_refused():
    game = game_with_racks(["catqxyz", "eeeeeee"])
    with pytest.raises(IllegalPlay, match="not on your rack"):
        game.apply(Move.swap(0, "qq"))


def test_swap_needs_enough_tiles_in_the_bag():
    game = game_with_racks(["catqxyz", "eeeeeee"])
    game = tow.Game(**{**game.__dict__, "bag": ("a", "b")})
    with pytest.raises(IllegalPlay, match="the bag holds only 2 tiles"):
        game.apply(Move.swap(0, "qxz"))


def test_game_ends_when_everyone_passed_twice():
    """Two passes each end the game; everyone loses their rack's value."""
    game = game_with_racks(["catqxyz", "eeeeeee"])
    for seat in (0, 1, 0):
        game = game.apply(Move.pass_(seat))
    assert not game.is_over
    game = game.apply(Move.pass_(1))
    assert game.is_over and game.end_reason == tow.PASSES
    assert game.scores == (-(3 + 1 + 1 + 10 + 8 + 4 + 10), -7)


def test_a_swap_breaks_the_run_of_passes():
    game = game_with_racks(["catqxyz", "eeeeeee"])
    for move in (Move.pass_(0), Move.swap(1, "e"), Move.pass_(0), Move.pass_(1), Move.pass_(0)):
        game = game.apply(move)
    assert not game.is_over


def test_going_out_with_the_bag_empty_ends_the_game():
    """The player who goes out gains everyone's remaining tiles; they lose theirs."""
    game = game_with_racks(["cat", "eeq+"])
    game = tow.Game(**{**game.__dict__, "bag": ()})
    game = game.apply(
        Move.place(0, [(0, 0, "c", "letter"), (0, 1, "a", "letter"), (0, 2, "t", "letter")], [(0, 0), (0, 1), (0, 2)])
    )
    assert game.is_over and game.end_reason == tow.WENT_OUT and game.went_out == 0
    assert game.adjustments == (12, -12)
    assert game.scores == (5 + 12, -12)


def test_resign_leaves_last_and_the_game_goes_on_with_two():
    game = game_with_racks(["catqxyz", "eeeeeee", "aaaaaaa"])
    game = game.apply(Move.resign(1))
    assert not game.is_over and game.in_play == (True, False, True)
    assert game.standings()[-1][0] == 1
    game = game.apply(Move.forfeit(0))
    assert game.is_over and game.end_reason == tow.LAST_SEAT and game.winners() == (2,)


def test_moves_round_trip_through_dicts():
    for move in (
        Move.place(0, [(0, 0, "c", "corner")], [(0, 0), (0, 1)]),
        Move.swap(1, "+a"),
        Move.pass_(0),
        Move.resign(1),
        Move.forfeit(0),
        Move.vote(2, False),
        Move.close_vote(1),
    ):
        assert Move.from_dict(move.to_dict()) == move


# -- house vote ---------------------------------------------------------------------------------


def vote_game():
    """Three seats on a house-vote table; seat 0 lays CAT, seat 1 then plays the unknown TAC+O."""
    game = game_with_racks(["catqxyz", "oeeeeee", "aaaaaaa"], house_vote=True)
    game = game.apply(
        Move.place(0, [(0, 0, "c", "letter"), (0, 1, "a", "letter"), (0, 2, "t", "letter")], [(0, 0), (0, 1), (0, 2)])
    )
    return game.apply(Move.place(1, [(1, 0, "o", "letter")], [(0, 0), (1, 0)]))


def test_unknown_word_waits_for_the_vote():
    game = vote_game()
    assert game.pending is not None and game.pending.play.unknown_words == ("co",)
    assert game.voters == (0, 2)
    assert game.table.get(1, 0) is None and game.to_move == 1
    with pytest.raises(IllegalPlay, match="waiting for the house vote"):
        game.apply(Move.pass_(1))


def test_majority_accepts():
    game = vote_game().apply(Move.vote(0, True)).apply(Move.vote(2, True))
    assert game.pending is None and game.table.get(1, 0).letter == "o"
    assert game.turns[-1].votes == ((0, True), (2, True)) and game.turns[-1].accepted
    assert game.scores[1] == 4 and game.to_move == 2


def test_a_tie_rejects_and_the_player_moves_again():
    game = vote_game().apply(Move.vote(0, True))
    assert game.pending is not None
    game = game.apply(Move.vote(2, False))
    assert game.pending is None and game.table.get(1, 0) is None
    assert game.turns[-1].accepted is False and game.turns[-1].votes == ((0, True), (2, False))
    assert game.to_move == 1 and game.racks[1] == "eeeeeeo" and game.scores[1] == 0


def test_one_reject_of_two_voters_settles_it():
    """With two voters one reject already makes at best a tie."""
    game = vote_game().apply(Move.vote(2, False))
    assert game.pending is None and not game.turns[-1].accepted


def test_time_up_decides_on_the_votes_cast():
    assert vote_game().apply(Move.close_vote(1)).turns[-1].accepted is False


def test_vote_refusals():
    game = vote_game()
    with pytest.raises(IllegalPlay, match="your own play"):
        game.apply(Move.vote(1, True))
    with pytest.raises(IllegalPlay, match="no play is waiting"):
        game.apply(Move.vote(0, True)).apply(Move.vote(2, True)).apply(Move.vote(0, True))


def test_a_voter_leaving_settles_the_vote():
    game = vote_game().apply(Move.vote(0, True)).apply(Move.resign(2))
    assert game.pending is None and game.turns[-1].move.kind == tow.PLACE
    assert game.turns[-1].accepted


def test_lexicon_table_refuses_unknown_words_outright():
    game = game_with_racks(["catqxyz", "oeeeeee"])
    game = game.apply(
        Move.place(0, [(0, 0, "c", "letter"), (0, 1, "a", "letter"), (0, 2, "t", "letter")], [(0, 0), (0, 1), (0, 2)])
    )
    with pytest.raises(IllegalPlay, match="CO is not in the word list"):
        game.apply(Move.place(1, [(1, 0, "o", "letter")], [(0, 0), (1, 0)]))


def test_votes_are_moves_of_the_game():
    game = vote_game().apply(Move.vote(0, True)).apply(Move.vote(2, False))
    assert [m.kind for m in game.moves] == ["place", "place", "vote", "vote"]
    assert game.moves[-1] == Move.vote(2, False)


def test_the_player_leaving_during_the_vote_takes_the_play_away():
    game = vote_game().apply(Move.resign(1))
    assert game.pending is None and game.table.get(1, 0) is None
    assert game.to_move == 2 and game.in_play == (True, False, True)


def test_a_rejected_play_is_no_turn_for_the_end_by_passes():
    """Passes around a rejected play still end the game only once each seat passed twice."""
    game = game_with_racks(["catqxyz", "oeeeeee"], house_vote=True)
    game = game.apply(
        Move.place(0, [(0, 0, "c", "letter"), (0, 1, "a", "letter"), (0, 2, "t", "letter")], [(0, 0), (0, 1), (0, 2)])
    )
    for seat in (1, 0, 1):
        game = game.apply(Move.pass_(seat))
    game = game.apply(Move.place(0, [(0, 3, "q", "letter")], [(0, 0), (0, 1), (0, 2), (0, 3)]))
    game = game.apply(Move.vote(1, False))
    assert not game.is_over and game.to_move == 0
    game = game.apply(Move.pass_(0))
    assert game.is_over and game.end_reason == tow.PASSES
