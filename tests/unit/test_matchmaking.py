"""The pure matcher: who sits down together, and when (games/engine/matching.py)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.matching import DEFAULT_POLICY, MatchPolicy, Seeker, match

POLICY = MatchPolicy(base_window=50, widen_per_second=10, max_window=400, fill_wait=8, bot_offer_after=30)


def accepts(a: Seeker, b: Seeker, now: float, policy: MatchPolicy = POLICY) -> bool:
    gap = abs(a.rating - b.rating)
    return gap <= policy.window(a, now) and gap <= policy.window(b, now)


def clique(group, now, policy=POLICY) -> bool:
    return all(accepts(a, b, now, policy) for a, b in combinations(group, 2))


@st.composite
def queues(draw, max_size=9):
    size = draw(st.integers(0, max_size))
    ratings = draw(st.lists(st.integers(1100, 1900), min_size=size, max_size=size))
    joined = draw(st.lists(st.integers(0, 40), min_size=size, max_size=size))
    return [Seeker(player=i + 1, rating=r, joined_at=float(t)) for i, (r, t) in enumerate(zip(ratings, joined))]


# --------------------------------------------------------------------------- examples


def test_four_close_players_sit_at_once():
    """Four players within everyone's window form a full table the moment they are queued."""
    queue = [Seeker(i, 1500 + i * 10, 100.0) for i in range(4)]
    result = match(queue, 100.0, POLICY)
    assert [[s.player for s in t] for t in result.tables] == [[0, 1, 2, 3]]
    assert result.waiting == ()


def test_two_close_players_are_held_for_a_fuller_table_then_seated():
    """Two close players wait for others until the first has waited fill_wait seconds."""
    queue = [Seeker(1, 1500, 0.0), Seeker(2, 1520, 3.0)]
    assert match(queue, 7.9, POLICY).tables == ()
    result = match(queue, 8.0, POLICY)
    assert [[s.player for s in t] for t in result.tables] == [[1, 2]]


def test_window_widens_with_the_wait():
    """Players 300 apart are not matched on joining, and are once both windows reach 300."""
    queue = [Seeker(1, 1400, 0.0), Seeker(2, 1700, 0.0)]
    assert match(queue, 10.0, POLICY).tables == ()  # windows of 150
    assert match(queue, 24.0, POLICY).tables == ()  # 290
    assert len(match(queue, 25.0, POLICY).tables) == 1  # 300


def test_acceptance_is_mutual():
    """A long waiter's wide window does not pull in a newcomer whose own window is narrow."""
    old, new = Seeker(1, 1400, 0.0), Seeker(2, 1700, 60.0)
    assert match([old, new], 60.0, POLICY).tables == ()
    assert len(match([old, new], 85.0, POLICY).tables) == 1


def test_window_stops_at_the_maximum():
    """Beyond max_window nobody is matched, however long they wait; they are offered a bot."""
    queue = [Seeker(1, 1000, 0.0), Seeker(2, 2000, 0.0)]
    result = match(queue, 10_000.0, POLICY)
    assert result.tables == ()
    assert result.lonely == (1, 2)


def test_spread_queue_forms_tables_of_close_ratings():
    """A queue spread over 1,000 points sits in tables of near ratings, not across the range."""
    rng = random.Random(7)
    queue = [Seeker(i, 1000 + rng.randrange(1000), float(rng.randrange(5))) for i in range(200)]
    result = match(queue, 10.0, POLICY)
    seated = sum(len(t) for t in result.tables)
    assert seated >= 190
    assert all(max(s.rating for s in t) - min(s.rating for s in t) <= 150 for t in result.tables)
    assert sum(len(t) == 4 for t in result.tables) >= 40


def test_longest_waiter_is_seated_first():
    """An old seeker takes the one opponent in reach even if that breaks up a fuller table."""
    old = Seeker(1, 1300, 0.0)
    pack = [Seeker(2, 1420, 13.0), Seeker(3, 1430, 13.0), Seeker(4, 1440, 13.0), Seeker(5, 1450, 13.0)]
    result = match([old, *pack], 20.0, POLICY)
    first = result.tables[0]
    assert set(first) == {old, pack[0]}
    assert result.waiting == tuple(pack[1:])


def test_prefers_the_fuller_table_over_the_closer_pair():
    """Around a patient seeker, three in reach beat the closest two."""
    queue = [Seeker(1, 1500, 0.0), Seeker(2, 1501, 5.0), Seeker(3, 1540, 5.0)]
    result = match(queue, 8.0, POLICY)
    assert [len(t) for t in result.tables] == [3]


def test_bot_offer_after_the_set_wait():
    """Only seekers left waiting for bot_offer_after seconds are offered a bot."""
    queue = [Seeker(1, 1000, 0.0), Seeker(2, 1900, 10.0)]
    assert match(queue, 29.0, POLICY).lonely == ()
    assert match(queue, 30.0, POLICY).lonely == (1,)


def test_players_kept_apart_sit_at_other_tables():
    """Two players named apart never share a table, even when they are the closest pair:
    the first of them gets the fullest table without the other."""
    queue = [Seeker(1, 1500, 0.0), Seeker(2, 1500, 0.0), Seeker(3, 1560, 0.0), Seeker(4, 1560, 0.0)]
    together = match(queue, 20.0, POLICY)
    assert [sorted(s.player for s in table) for table in together.tables] == [[1, 2, 3, 4]]
    apart = match(queue, 20.0, POLICY, apart={frozenset((1, 2))})
    assert [sorted(s.player for s in table) for table in apart.tables] == [[1, 3, 4]]
    assert [s.player for s in apart.waiting] == [2]


def test_a_player_queued_twice_is_an_error():
    with pytest.raises(ValueError):
        match([Seeker(1, 1500, 0.0), Seeker(1, 1600, 1.0)], 5.0)


@pytest.mark.parametrize(
    "settings_",
    [
        {"min_table": 1},
        {"min_table": 3, "max_table": 2},
        {"base_window": -1},
        {"max_window": 10, "base_window": 20},
        {"search_width": 2},
    ],
)
def test_bad_policies_are_refused(settings_):
    with pytest.raises(ValueError):
        MatchPolicy(**settings_)


def test_default_policy_pass_over_two_thousand_is_complete():
    """A busy queue: everybody within reach of a full table is seated in one pass."""
    rng = random.Random(3)
    queue = [Seeker(i, int(rng.gauss(1500, 250)), rng.uniform(0, 60)) for i in range(2000)]
    result = match(queue, 60.0, DEFAULT_POLICY)
    assert sum(len(t) for t in result.tables) + len(result.waiting) == 2000
    assert len(result.waiting) < 40


# --------------------------------------------------------------------------- properties


@settings(max_examples=400, deadline=None)
@given(queues(), st.integers(0, 60))
def test_a_pass_partitions_the_queue_into_valid_tables(queue, now):
    """Every seeker is in exactly one table or still waiting; tables hold 2–4 who all accept
    each other; a table short of four formed only after its longest waiter's fill_wait."""
    result = match(queue, float(now), POLICY)
    seated = [s for t in result.tables for s in t]
    assert sorted(s.player for s in seated + list(result.waiting)) == sorted(s.player for s in queue)
    for table in result.tables:
        assert 2 <= len(table) <= 4
        assert clique(table, now)
        if len(table) < 4:
            assert now - min(s.joined_at for s in table) >= POLICY.fill_wait
    assert list(result.waiting) == sorted(result.waiting, key=lambda s: (s.joined_at, s.player))


@settings(max_examples=400, deadline=None)
@given(queues(), st.integers(0, 60))
def test_nobody_is_left_waiting_who_could_sit(queue, now):
    """After a pass no four waiting seekers accept each other, and no waiting pair that
    accepts each other includes someone who has waited fill_wait."""
    result = match(queue, float(now), POLICY)
    waiting = result.waiting
    for a, b in combinations(waiting, 2):
        if accepts(a, b, now):
            assert now - min(a.joined_at, b.joined_at) < POLICY.fill_wait
    for four in combinations(waiting, 4):
        assert not clique(four, now)


@settings(max_examples=300, deadline=None)
@given(queues(), st.integers(0, 60), st.randoms(use_true_random=False))
def test_the_same_queue_in_any_order_gives_the_same_pass(queue, now, rng):
    """Deterministic: the order the queue is read in changes nothing."""
    shuffled = list(queue)
    rng.shuffle(shuffled)
    assert match(queue, float(now), POLICY) == match(shuffled, float(now), POLICY)


def brute_best(anchor, others, now):
    """The fullest, then closest table around ``anchor``, by trying every subset."""
    best, best_key = (anchor,), None
    for size in range(3, 0, -1):
        for chosen in combinations(others, size):
            group = (anchor, *chosen)
            if not clique(group, now):
                continue
            ratings = [s.rating for s in group]
            key = (
                max(ratings) - min(ratings),
                sum(abs(s.rating - anchor.rating) for s in chosen),
                sorted((s.joined_at, s.player) for s in chosen),
            )
            if best_key is None or key < best_key:
                best, best_key = group, key
        if best_key is not None:
            return best
    return best


@settings(max_examples=400, deadline=None)
@given(queues(max_size=8), st.integers(0, 60))
def test_the_longest_waiter_gets_the_best_table_a_full_search_finds(queue, now):
    """The first table formed is the fullest, closest one around the longest waiter."""
    if not queue:
        return
    anchor = min(queue, key=lambda s: (s.joined_at, s.player))
    expected = brute_best(anchor, [s for s in queue if s is not anchor], now)
    result = match(queue, float(now), POLICY)
    if len(expected) < 2 or (len(expected) < 4 and now - anchor.joined_at < POLICY.fill_wait):
        assert all(anchor not in t for t in result.tables)
        return
    assert set(result.tables[0]) == set(expected)


@settings(max_examples=100, deadline=None)
@given(queues(max_size=12))
def test_everyone_in_reach_is_seated_as_time_passes(queue):
    """Passes repeated every second seat, sooner or later, every seeker who has an opponent
    within max_window."""
    remaining = list(queue)
    now = 0.0
    while now < 200:
        remaining = list(match(remaining, now, POLICY).waiting)
        now += 1
    for a, b in combinations(remaining, 2):
        assert abs(a.rating - b.rating) > POLICY.max_window
