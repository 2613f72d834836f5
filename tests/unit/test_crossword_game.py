"""The crossword game state machine: turns, racks, bag, end rules (RULES §3, §4)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import crossword as cw
from games.engine import movegen
from games.engine.crossword import WORD_GRID, WORDGAME, IllegalPlay, Move
from games.engine.tiles import WORD_GRID_BAG, WORDGAME_BAG
from lexicon.core import Lexicon

LEX = Lexicon.from_words(["cat", "cats", "at", "ta", "act", "scat", "as"])


def all_tiles(game):
    return sorted(
        "".join(game.racks)
        + "".join(game.bag)
        + "".join("?" if blank else letter for _, _, letter, blank in game.board.tiles())
    )


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


# -- random games to the end ------------------------------------------------------------


@pytest.fixture(scope="module")
def lexicons():
    from lexicon import wordlists

    return {WORD_GRID: wordlists.compile_lexicon("common"), WORDGAME: wordlists.compile_lexicon("wordgame")}


def random_move(game, rng):
    """A legal move picked at random: mostly plays, sometimes a swap or a pass."""
    seat = game.to_move
    rack = game.racks[seat]
    roll = rng.random()
    if roll < 0.85:
        plays = movegen.generate(game.board, rack, game.variant, game.lexicon)
        if plays:
            return Move.place(seat, rng.choice(plays).placement)
    if roll < 0.93 and rack and game.bag:
        count = rng.randint(1, min(len(rack), len(game.bag)))
        return Move.swap(seat, "".join(rng.sample(rack, count)))
    return Move.pass_(seat)


def play_out(variant, players, seed, lexicon, max_moves=400):
    rng = random.Random(seed)
    game = cw.new_game(variant, players, seed, lexicon)
    while not game.is_over and len(game.turns) < max_moves:
        game = game.apply(random_move(game, rng))
    return game


def check_finished(game):
    variant = game.variant
    assert game.is_over
    assert all_tiles(game) == sorted(variant.bag)
    earned = [0] * game.players
    for turn in game.turns:
        earned[turn.move.seat] += turn.score
    assert list(game.scores) == [e + a for e, a in zip(earned, game.adjustments)]
    values = [sum(variant.letter_values[t] for t in rack) for rack in game.racks]
    if game.end_reason == cw.WENT_OUT:
        out = game.went_out
        assert game.racks[out] == "" and not game.bag
        assert game.adjustments[out] == sum(values)
        assert all(game.adjustments[s] == -values[s] for s in range(game.players) if s != out)
    else:
        assert game.end_reason == cw.STREAK
        assert list(game.adjustments) == [-v for v in values]
        last = game.turns[-game.variant.end_streak_length(game.players) :]
        if variant.end_streak_kind == "pass":
            assert all(t.move.kind == cw.PASS for t in last)
        else:
            assert all(t.score == 0 for t in last)


@pytest.mark.parametrize("variant, players", [(WORD_GRID, 2), (WORD_GRID, 3), (WORDGAME, 2)])
def test_random_games_reach_an_end_with_correct_adjustments(lexicons, variant, players):
    """Games of random legal moves end by the rules, and replay to the same game."""
    reasons = set()
    for seed in range(4):
        game = play_out(variant, players, seed, lexicons[variant])
        check_finished(game)
        reasons.add(game.end_reason)
        assert cw.replay(variant, players, seed, game.moves, lexicons[variant]) == game
    assert cw.WENT_OUT in reasons


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10**9), moves=st.integers(0, 30), variant=st.sampled_from([WORD_GRID, WORDGAME]))
def test_a_replayed_game_equals_the_original(lexicons, seed, moves, variant):
    """Rebuilding a game from its seed and moves gives an equal game."""
    rng = random.Random(seed)
    game = cw.new_game(variant, 2, seed, lexicons[variant])
    for _ in range(moves):
        if game.is_over:
            break
        game = game.apply(random_move(game, rng))
    assert cw.replay(variant, 2, seed, game.moves, lexicons[variant]) == game


def test_placing_tiles_not_on_the_rack_is_refused():
    """A placement needs its letters (or blanks) on the seat's rack."""
    game = cw.new_game(WORD_GRID, 2, 1, LEX)
    missing = next(t for t in "abcdefghijklmnopqrstuvwxyz" if t not in game.racks[game.to_move])
    with pytest.raises(IllegalPlay, match="not on your rack"):
        game.apply(Move.place(game.to_move, [(7, 7, missing, False), (7, 8, missing, False)]))


def test_an_illegal_placement_is_refused_with_its_reason():
    """The game passes on evaluate's reason."""
    lex = Lexicon.from_words([])
    game = cw.new_game(WORD_GRID, 2, 1, lex)
    first, second = game.racks[game.to_move].replace("?", "")[:2]
    with pytest.raises(IllegalPlay, match="the first word must cover the centre"):
        game.apply(Move.place(game.to_move, [(0, 0, first, False), (0, 1, second, False)]))


@pytest.mark.parametrize(
    "move",
    [
        Move.place(0, [(7, 7, "c", False), (7, 8, "a", True)]),
        Move.swap(1, "q?"),
        Move.pass_(0),
        Move.resign(1),
        Move.forfeit(0),
    ],
)
def test_moves_survive_their_json_form(move):
    """A stored move reads back equal."""
    import json

    assert Move.from_dict(json.loads(json.dumps(move.to_dict()))) == move


# -- end rules and turns (audit) -----------------------------------------------------


def test_a_swap_is_scoreless_in_word_grid_but_not_a_pass_in_wordgame():
    """Word Grid counts a swap among the scoreless turns; Wordgame's pass count restarts."""
    game = cw.new_game(WORD_GRID, 2, 21, LEX)
    game = game.apply(Move.pass_(game.to_move)).apply(Move.pass_(1 - game.to_move))
    game = game.apply(Move.swap(game.to_move, game.racks[game.to_move][:1]))
    assert game.streak == 3 and not game.is_over
    game = game.apply(Move.pass_(game.to_move))
    assert game.is_over and game.end_reason == cw.STREAK

    game = cw.new_game(WORDGAME, 2, 21, LEX)
    game = game.apply(Move.pass_(game.to_move))
    game = game.apply(Move.swap(game.to_move, game.racks[game.to_move][:1]))
    assert game.streak == 0
    for _ in range(2):
        game = game.apply(Move.pass_(game.to_move))
    assert not game.is_over and not any(t.redeal for t in game.turns)
    game = game.apply(Move.pass_(game.to_move))
    assert game.is_over and game.end_reason == cw.STREAK


def test_word_grid_with_three_seats_ends_after_six_scoreless_turns():
    """2 × 3 consecutive scoreless turns end a three-seat game, not five."""
    game = cw.new_game(WORD_GRID, 3, 8, LEX)
    for _ in range(5):
        game = game.apply(Move.pass_(game.to_move))
    assert not game.is_over
    assert game.apply(Move.pass_(game.to_move)).is_over


def test_after_a_forfeit_the_streak_counts_the_seats_left():
    """With one of three seats gone, 2 × 2 scoreless turns end the game."""
    game = cw.new_game(WORD_GRID, 3, 8, LEX)
    game = game.apply(Move.forfeit(game.to_move))
    for _ in range(3):
        game = game.apply(Move.pass_(game.to_move))
    assert not game.is_over
    game = game.apply(Move.pass_(game.to_move))
    assert game.is_over
    left = game.left_order[0]
    assert game.adjustments[left] == 0 and game.standings()[-1][0] == left


def test_a_swap_needs_as_many_tiles_in_the_bag():
    """Swapping more tiles than the bag holds is refused."""
    game = cw.new_game(WORD_GRID, 2, 3, LEX)
    from dataclasses import replace

    game = replace(game, bag=game.bag[:2])
    with pytest.raises(IllegalPlay, match="the bag holds only 2 tiles"):
        game.apply(Move.swap(game.to_move, game.racks[game.to_move][:3]))
    assert len(game.apply(Move.swap(game.to_move, game.racks[game.to_move][:2])).bag) == 2


def test_going_out_collects_everyone_elses_tiles():
    """Bag empty, the last tiles played: the player who went out gains the others' rack
    values and each other player loses theirs."""
    from dataclasses import replace

    lexicon = Lexicon.from_words(["cat"])
    game = cw.new_game(WORD_GRID, 3, 1, lexicon)
    seat = game.to_move
    racks = ["qz", "qz", "qz"]
    racks[seat] = "act"
    game = replace(game, racks=tuple(racks), bag=())
    game = game.apply(Move.place(seat, [(7, 7, "c", False), (7, 8, "a", False), (7, 9, "t", False)]))
    assert game.is_over and game.end_reason == cw.WENT_OUT and game.went_out == seat
    assert game.adjustments[seat] == 40
    assert [game.adjustments[s] for s in range(3) if s != seat] == [-20, -20]
    assert game.scores[seat] == 10 + 40


def test_playing_out_with_tiles_left_in_the_bag_does_not_end_the_game():
    """Emptying the rack ends the game only once the bag is empty too."""
    from dataclasses import replace

    lexicon = Lexicon.from_words(["cat"])
    game = cw.new_game(WORD_GRID, 2, 1, lexicon)
    seat = game.to_move
    game = replace(game, racks=tuple("act" if s == seat else game.racks[s] for s in range(2)), bag=("e",))
    game = game.apply(Move.place(seat, [(7, 7, "c", False), (7, 8, "a", False), (7, 9, "t", False)]))
    assert not game.is_over and game.racks[seat] == "e" and game.bag == ()


def test_equal_top_scores_are_a_draw():
    """Seats with the same highest score share first place."""
    from dataclasses import replace

    game = replace(cw.new_game(WORD_GRID, 3, 1, LEX), scores=(30, 30, 10))
    assert game.winners() == (0, 1)
    assert [place for _, _, place in game.standings()] == [1, 1, 3]


def test_wordgame_redeals_only_after_the_first_two_moves():
    """Two passes later in the game are just passes: no new racks."""
    game = cw.new_game(WORDGAME, 2, 6, LEX)
    game = game.apply(Move.swap(game.to_move, game.racks[game.to_move][:1]))
    racks = game.racks
    for _ in range(2):
        game = game.apply(Move.pass_(game.to_move))
    assert game.racks == racks and not any(t.redeal for t in game.turns)


def test_a_game_over_refuses_further_moves():
    """Nothing can be played after the end."""
    game = cw.new_game(WORD_GRID, 2, 5, LEX).apply(Move.resign(0))
    with pytest.raises(IllegalPlay, match="the game is over"):
        game.apply(Move.pass_(1))


def reference_score(board, placement, variant):
    """RULES §3/§4 scoring written out plainly, independent of the engine's helpers."""
    new = {(r, c): (letter, blank) for r, c, letter, blank in placement}
    rows = {r for r, _, _, _ in placement}

    def filled(r, c):
        return 0 <= r < 15 and 0 <= c < 15 and ((r, c) in new or board.letter(r, c))

    def word(r, c, dr, dc):
        while filled(r - dr, c - dc):
            r, c = r - dr, c - dc
        squares = []
        while filled(r, c):
            squares.append((r, c))
            r, c = r + dr, c + dc
        return squares

    def points(squares):
        total, multipliers = 0, []
        for square in squares:
            if square in new:
                letter, blank = new[square]
                kind = variant.premiums.get(square, "")
                value = 0 if blank else variant.letter_values[letter]
                total += value * {"2L": 2, "3L": 3}.get(kind, 1)
                if kind in ("2W", "3W"):
                    multipliers.append(int(kind[0]))
            elif not board.is_blank(*square):
                total += variant.letter_values[board.letter(*square)]
        factor = 1
        if variant.name == "wordgrid":
            for m in multipliers:
                factor *= m
        elif multipliers:
            factor = max(multipliers)
        return total * factor

    r0, c0 = placement[0][0], placement[0][1]
    if len(placement) > 1:
        across = len(rows) == 1
    else:
        across = bool(filled(r0, c0 - 1) or filled(r0, c0 + 1)) or not (filled(r0 - 1, c0) or filled(r0 + 1, c0))
    main = points(word(r0, c0, *((0, 1) if across else (1, 0))))
    crosses = 0
    for r, c in new:
        squares = word(r, c, *((1, 0) if across else (0, 1)))
        if len(squares) >= 2:
            crosses += points(squares)
    if len(placement) == variant.rack_size:
        if variant.name == "wordgrid":
            return main + crosses + 50
        return 2 * main + crosses
    return main + crosses


@pytest.mark.parametrize("variant", [WORD_GRID, WORDGAME])
def test_every_play_of_random_games_scores_as_the_rules_say(lexicons, variant):
    """Each placement's score equals the rules' arithmetic done independently of the
    engine: premiums once, blanks 0, word squares per variant, whole-rack bonus."""
    for seed in range(3):
        game = play_out(variant, 2, seed, lexicons[variant])
        board = cw.Board.empty()
        for turn in game.turns:
            if turn.play is not None:
                placement = list(turn.move.placement)
                assert turn.score == reference_score(board, placement, variant)
                board = board.with_tiles(placement)


def test_a_forfeit_that_shortens_the_needed_streak_ends_the_game_at_once():
    """Three seats, five scoreless turns, then a forfeit: the two seats left have had
    2 × 2 scoreless turns in a row, so the game ends there with the usual adjustments."""
    game = cw.new_game(WORD_GRID, 3, 8, LEX)
    for _ in range(5):
        game = game.apply(Move.pass_(game.to_move))
    leaver = game.to_move
    game = game.apply(Move.forfeit(leaver))
    assert game.is_over and game.end_reason == cw.STREAK
    values = [sum(WORD_GRID.letter_values[t] for t in rack) for rack in game.racks]
    assert game.adjustments == tuple(-v for v in values) and game.adjustments[leaver] == 0
    assert game.standings()[-1][0] == leaver


def test_after_a_seat_leaves_each_remaining_seat_needs_its_own_two_scoreless_turns():
    """Three seats pass once each, then one forfeits: four scoreless turns have been
    played, but the seat to move has had only one, so the game goes on until it has
    had two (RULES §3 (b): every player has had two scoreless turns in a row)."""
    game = cw.new_game(WORD_GRID, 3, 8, LEX)
    first = game.to_move
    for _ in range(3):
        game = game.apply(Move.pass_(game.to_move))
    game = game.apply(Move.pass_(game.to_move))  # the first seat's second pass
    gone = (first + 1) % 3
    game = game.apply(Move.forfeit(gone))
    assert not game.is_over and game.to_move == (first + 2) % 3
    game = game.apply(Move.pass_(game.to_move))
    assert game.is_over and game.end_reason == cw.STREAK


def test_scoreless_turns_of_a_seat_that_left_do_not_end_the_game_for_the_others():
    """Three seats pass once each and the third leaves; a second pass by the first seat
    makes four scoreless turns in a row, but the second seat has had only one."""
    game = cw.new_game(WORD_GRID, 3, 8, LEX)
    first = game.to_move
    for _ in range(3):
        game = game.apply(Move.pass_(game.to_move))
    game = game.apply(Move.resign((first + 2) % 3))
    game = game.apply(Move.pass_(first))
    assert not game.is_over
    game = game.apply(Move.pass_((first + 1) % 3))
    assert game.is_over and game.end_reason == cw.STREAK


def test_random_games_with_resigns_and_forfeits_end_by_the_rules(lexicons):
    """Two to four seats, random plays and now and then a seat leaving: every game ends,
    no tile is lost, the scores are the turns plus the adjustments, and a replay agrees."""
    lexicon = lexicons[WORD_GRID]
    rng = random.Random(5)
    for seed in range(6):
        players = 2 + seed % 3
        game = cw.new_game(WORD_GRID, players, seed, lexicon)
        while not game.is_over and len(game.turns) < 400:
            if rng.random() < 0.03:
                seat = rng.choice([s for s in range(players) if game.in_play[s]])
                game = game.apply(Move.forfeit(seat) if rng.random() < 0.5 else Move.resign(seat))
            else:
                game = game.apply(random_move(game, rng))
        assert game.is_over
        assert all_tiles(game) == sorted(WORD_GRID.bag)
        earned = [0] * players
        for turn in game.turns:
            earned[turn.move.seat] += turn.score
        assert list(game.scores) == [e + a for e, a in zip(earned, game.adjustments)]
        order = [seat for seat, _, _ in game.standings()]
        assert order[len(order) - len(game.left_order) :] == list(reversed(game.left_order))
        assert cw.replay(WORD_GRID, players, seed, game.moves, lexicon) == game
