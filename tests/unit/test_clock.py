"""The game clock's rules (games.engine.clock): time left, overtime, its penalty, a loss
on time, and the penalty taken off a finished game's scores."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import clock as clocks
from games.engine import crossword_game as engine
from games.engine.clock import MINUTE, SECOND, Clock
from games.engine.crossword import WORD_GRID

WOOGLES = Clock(25 * 60, overtime=10 * 60)

clock_of = st.builds(
    Clock,
    seconds=st.integers(1, 3600),
    increment=st.integers(0, 30),
    overtime=st.integers(0, 1200),
)
times = st.integers(-20 * MINUTE, 60 * MINUTE)
durations = st.integers(0, 90 * MINUTE)


def test_each_player_starts_with_the_whole_time():
    assert Clock(300).start(3) == (300_000, 300_000, 300_000)


def test_without_overtime_the_flag_falls_at_zero():
    clock = Clock(300)
    assert not clock.lost_on_time(300_000, 299_999)
    assert clock.lost_on_time(300_000, 300_000)
    assert clock.left_after(300_000, 100_000) == 200_000


def test_overtime_lets_a_player_go_on_past_zero_until_its_end():
    assert not WOOGLES.lost_on_time(60_000, 60_000 + 10 * MINUTE - 1)
    assert WOOGLES.lost_on_time(60_000, 60_000 + 10 * MINUTE)
    assert WOOGLES.left_after(60_000, 90_000) == -30_000
    # A turn begun already over time has only the overtime left to it.
    assert WOOGLES.allowed(-4 * MINUTE) == 6 * MINUTE


def test_the_increment_comes_after_a_move_in_time_only():
    clock = Clock(600, increment=3)
    assert clock.left_after(10_000, 4_000) == 9_000
    assert clock.left_after(10_000, 4_000, moved=False) == 6_000
    assert clock.left_after(10_000, 10_000) == 0  # lost on time: no increment


def test_ten_points_for_every_minute_or_part_of_one_over():
    assert WOOGLES.penalty_for(0) == 0
    assert WOOGLES.penalty_for(5_000) == 0
    assert WOOGLES.penalty_for(-1) == 10
    assert WOOGLES.penalty_for(-MINUTE) == 10
    assert WOOGLES.penalty_for(-MINUTE - 1) == 20
    assert WOOGLES.penalty_for(-10 * MINUTE) == 100
    assert WOOGLES.penalties((1000, -90_000)) == (0, 20)


def test_the_clock_reads_in_minutes_and_seconds():
    assert clocks.shown(300_000) == ("5:00", False)
    assert clocks.shown(299_001) == ("5:00", False)  # a second begun is still to be had
    assert clocks.shown(1) == ("0:01", False)
    assert clocks.shown(0) == ("0:00", False)
    assert clocks.shown(-61_500) == ("1:01 over", True)


def test_labels_and_the_choices():
    assert WOOGLES.label == "25 min + 10 min overtime"
    assert Clock(600, increment=3).label == "10 min + 3 s a move"
    assert clocks.named("5+0") == Clock(300)
    with pytest.raises(KeyError):
        clocks.named("1+0")
    with pytest.raises(ValueError):
        Clock(0)


@given(clock_of, times, durations)
def test_a_turn_in_time_costs_exactly_what_it_lasted(clock, left, used):
    if not clock.lost_on_time(left, used):
        assert clock.left_after(left, used, moved=False) == left - used
        assert clock.left_after(left, used) == left - used + clock.increment * SECOND
        assert clock.running(left, used) == left - used


@given(clock_of, times, durations)
def test_time_never_goes_below_the_end_of_the_overtime(clock, left, used):
    assert clock.left_after(left, used) >= -clock.overtime * SECOND
    assert clock.running(left, used) >= -clock.overtime * SECOND
    assert clock.lost_on_time(left, used) == (used >= clock.allowed(left))


@given(clock_of, times, durations, durations)
def test_a_longer_turn_never_leaves_more_time_or_a_smaller_penalty(clock, left, used, more):
    if clock.lost_on_time(left, used):
        assert clock.lost_on_time(left, used + more)
    shorter, longer = clock.left_after(left, used, moved=False), clock.left_after(left, used + more, moved=False)
    assert longer <= shorter
    assert clock.penalty_for(longer) >= clock.penalty_for(shorter)


@given(clock_of, times)
def test_the_penalty_counts_every_minute_or_part_of_one(clock, left):
    penalty = clock.penalty_for(left)
    if left >= 0:
        assert penalty == 0
    else:
        minutes = penalty // clock.penalty if clock.penalty else None
        if minutes is not None:
            assert (minutes - 1) * MINUTE < -left <= minutes * MINUTE


def _passed_out(players: int = 2):
    """A game ended by scoreless turns: everyone passed twice, and lost their racks' values."""
    game = engine.new_game(WORD_GRID, players, "clock-seed", None, 1)
    while not game.is_over:
        game = game.apply(engine.Move.pass_(game.to_move))
    return game


def test_penalties_come_off_a_finished_game_and_decide_its_places():
    game = _passed_out()
    leader, other = game.winners()[0], 1 - game.winners()[0]
    gap = game.scores[leader] - game.scores[other]
    penalty = (gap // 10 + 1) * 10
    penalties = tuple(penalty if seat == leader else 0 for seat in range(2))
    penalised = game.with_time_penalties(penalties)
    assert penalised.scores[leader] == game.scores[leader] - penalty
    assert penalised.scores[other] == game.scores[other]
    assert penalised.time_penalties == penalties
    assert penalised.winners() == (other,)
    # Taken once: asking again with the same penalties changes nothing, other ones replace them.
    assert penalised.with_time_penalties(penalties) is penalised
    assert penalised.with_time_penalties((0, 0)).scores == game.scores
    assert penalised.with_time_penalties((10, 10)).scores == tuple(s - 10 for s in game.scores)


def test_penalties_wait_for_the_end_of_the_game():
    game = engine.new_game(WORD_GRID, 2, "clock-seed", None, 1)
    assert game.with_time_penalties((30, 0)) is game
    over = _passed_out()
    assert over.with_time_penalties((0, 0)) is over
