"""Arena points, streaks and pairing passes (games/engine/arena.py)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.arena import (
    ArenaPolicy,
    Finish,
    Waiting,
    arena_pass,
    arena_score,
    round_points,
    table_finishes,
)

WIN, DRAW, LOSS = Finish(1, 2), Finish(1, 2, shared=2), Finish(2, 2)


def test_a_table_of_two_scores_like_chess():
    """At a table of two a win is 2, a draw 1, a loss 0."""
    assert [round_points(f) for f in (WIN, DRAW, LOSS)] == [2, 1, 0]


def test_bigger_tables_score_by_placing():
    """A table of four gives 2, 1, 1, 0 from first to last; a table of three 2, 1, 0."""
    assert [round_points(Finish(place, 4)) for place in (1, 2, 3, 4)] == [2, 1, 1, 0]
    assert [round_points(Finish(place, 3)) for place in (1, 2, 3)] == [2, 1, 0]


def test_two_wins_then_a_draw_score_six():
    """Two wins set a player on fire: the draw that follows is doubled (2 + 2 + 2)."""
    score = arena_score([WIN, WIN, DRAW])
    assert score.rounds == (2, 2, 2)
    assert score.points == 6
    assert not score.on_fire


def test_on_fire_wins_score_four_until_a_round_is_not_won():
    """Wins on fire score 4; a loss on fire scores 0 and puts the fire out."""
    score = arena_score([WIN, WIN, WIN, WIN, LOSS, WIN])
    assert score.rounds == (2, 2, 4, 4, 0, 2)
    assert score.wins == 5
    assert score.streak == 1


def test_a_shared_first_place_is_not_a_win():
    """Sharing first place scores but does not count towards a streak."""
    score = arena_score([WIN, Finish(1, 3, shared=2), WIN])
    assert score.rounds == (2, 2, 2)
    assert score.streak == 1


def test_a_place_outside_the_table_is_refused():
    """A placing that cannot exist at its table is refused."""
    with pytest.raises(ValueError):
        Finish(4, 3)
    with pytest.raises(ValueError):
        Finish(1, 5)


def test_a_table_without_leavers_keeps_its_places():
    """With everyone to the end, each finish is the round's place, ties shared."""
    assert table_finishes([1, 1, 3, 4]) == (Finish(1, 4, 2), Finish(1, 4, 2), Finish(3, 4), Finish(4, 4))


def test_who_left_forfeits_and_who_stayed_move_up():
    """A player who left the table scores 0, whatever their words, and the players who
    stayed are placed among themselves: at a table of two the one who stayed wins."""
    assert [round_points(f) for f in table_finishes([2, None])] == [2, 0]
    finishes = table_finishes([None, 1, None, 3])
    assert [round_points(f) for f in finishes] == [0, 2, 0, 1]
    assert [f.is_win for f in finishes] == [False, True, False, False]


def test_a_forfeit_on_fire_scores_nothing_and_puts_the_fire_out():
    """Leaving a table while on fire scores 0, not double, and ends the streak."""
    (_, forfeit) = table_finishes([1, None])
    score = arena_score([WIN, WIN, forfeit, WIN])
    assert score.rounds == (2, 2, 0, 2)
    assert score.streak == 1


@given(st.lists(st.one_of(st.none(), st.integers(1, 4)), min_size=2, max_size=4))
def test_everyone_who_stayed_scores_at_least_everyone_who_left(places):
    """Whatever the places, a player who stayed never scores less than one who left, and
    who left score nothing."""
    finishes = table_finishes(places)
    stayed = [round_points(f) for f, place in zip(finishes, places) if place is not None]
    left = [round_points(f) for f, place in zip(finishes, places) if place is None]
    assert all(points == 0 for points in left)
    assert not left or not stayed or min(stayed) >= max(left)


@given(st.integers(2, 4))
def test_a_table_without_ties_hands_out_one_point_a_player(size):
    """Whatever its size, a table without ties gives its players as many points as seats, so
    a round is worth the same on average at any table."""
    assert sum(round_points(Finish(place, size)) for place in range(1, size + 1)) == size


# --------------------------------------------------------------------------- pairing


def test_leaders_meet_leaders():
    """Among players of one rating, those with most arena points sit together."""
    waiting = [Waiting(player, 1500, points, 0.0) for player, points in enumerate((0, 0, 30, 30, 0, 0, 30, 30))]
    tables = arena_pass(waiting, 10.0).tables
    assert sorted(sorted(seeker.player for seeker in table) for table in tables) == [[0, 1, 4, 5], [2, 3, 6, 7]]


def test_last_opponents_are_kept_apart_then_may_meet_again():
    """Two players who just played together, alone in the arena, wait; once they have waited
    the policy's time apart they are seated together again."""
    policy = ArenaPolicy()
    waiting = [Waiting(1, 1500, 2, 100.0, frozenset({2})), Waiting(2, 1500, 0, 100.0, frozenset({1}))]
    assert arena_pass(waiting, 110.0, policy).tables == ()
    later = arena_pass(waiting, 100.0 + policy.apart_for, policy)
    assert [sorted(s.player for s in table) for table in later.tables] == [[1, 2]]


@st.composite
def arenas(draw):
    size = draw(st.integers(0, 14))
    players = []
    for player in range(1, size + 1):
        opponents = draw(st.frozensets(st.integers(1, size), max_size=3))
        players.append(
            Waiting(
                player,
                draw(st.integers(1200, 1800)),
                draw(st.integers(0, 40)),
                float(draw(st.integers(0, 60))),
                opponents - {player},
            )
        )
    return players


@settings(max_examples=400, deadline=None)
@given(arenas(), st.floats(60, 200))
def test_a_pass_seats_tables_of_two_to_four_keeping_recent_opponents_apart(waiting, now):
    """A pass seats each waiting player at most once, at tables of 2–4, and never with a
    last opponent while either has waited less than the time apart."""
    policy = ArenaPolicy()
    result = arena_pass(waiting, now, policy)
    seated = [seeker.player for table in result.tables for seeker in table]
    assert len(seated) == len(set(seated))
    assert set(seated) | {seeker.player for seeker in result.waiting} == {w.player for w in waiting}
    by_player = {w.player: w for w in waiting}
    for table in result.tables:
        assert 2 <= len(table) <= 4
        for a, b in combinations(table, 2):
            wa, wb = by_player[a.player], by_player[b.player]
            recent = b.player in wa.last_opponents or a.player in wb.last_opponents
            fresh = now - wa.since < policy.apart_for or now - wb.since < policy.apart_for
            assert not (recent and fresh)


@settings(max_examples=200, deadline=None)
@given(arenas())
def test_everyone_waiting_is_seated_once_they_have_waited(waiting):
    """Given time, a pass leaves at most one player waiting: windows in an arena widen
    without limit and the time apart runs out."""
    result = arena_pass(waiting, 10_000.0)
    assert len(result.waiting) <= 1
