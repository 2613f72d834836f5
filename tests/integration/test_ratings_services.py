"""Rating use cases against PostgreSQL: recording, ordered exactly-once updates, rebuild."""

from __future__ import annotations

import itertools
import random
import threading
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from games.hunts import services as hunts
from games.hunts.models import HuntRound, HuntSeat
from games.ratings import scale, services
from games.ratings.models import PoolClock, RatedPlayer, RatedResult, Rating
from games.ratings.selectors import DEFAULT, player_rating, player_ratings, pool_codes
from games.ratings.services import Finish
from games.ratings.services.recording import ranks_of

pytestmark = pytest.mark.django_db

_ids = itertools.count(1)


def record(pool, users, places, left=()):
    """Record a rated result of ``users`` finishing at ``places`` (``left``: who left)."""
    finishes = [Finish(user.pk, place, 0, user in left) for user, place in zip(users, places, strict=True)]
    return services.result_record(pool=pool, kind="hunt", object_id=next(_ids), finishes=finishes)


def ratings_of(*users, pool="rampage"):
    got = player_ratings([u.pk for u in users], pool)
    return [got[u.pk].rating for u in users]


def change_of(result, user):
    return RatedPlayer.objects.get(result=result, user=user).change


def snapshot(pool):
    return {
        (r.user_id, r.pool): (r.mu, r.sigma, r.rating, r.games, r.wins, r.last_played_at)
        for r in Rating.objects.filter(pool=pool)
    }


# --------------------------------------------------------------------------- the read interface


def test_pools_follow_the_engine_tables():
    """The pools are the hunt rules, the crossword variants and TOW, in display order."""
    assert pool_codes() == ("rampage", "classic4", "classic5", "wordgrid", "wordgame", "tow")


def test_a_new_player_has_the_default_rating(make_user):
    """No rated game: 1500, provisional, 0 games; unknown pools are refused."""
    ann = make_user("ann")
    assert player_rating(ann, "wordgrid") == DEFAULT
    assert (DEFAULT.rating, DEFAULT.provisional, DEFAULT.games) == (1500, True, 0)
    assert player_ratings([ann.pk], "tow") == {ann.pk: DEFAULT}
    with pytest.raises(ValueError):
        player_rating(ann, "chess")


def test_player_ratings_reads_many_in_one_query(make_user, django_assert_num_queries):
    """Ratings of many players come from one query, new players filled with the default."""
    users = [make_user() for _ in range(4)]
    record("classic4", users[:2], [1, 2])
    services.ratings_apply(pool="classic4")
    with django_assert_num_queries(1):
        got = player_ratings([u.pk for u in users], "classic4")
    assert got[users[0].pk].rating > 1500 > got[users[1].pk].rating
    assert got[users[0].pk].games == 1 and got[users[0].pk].provisional
    assert got[users[2].pk] == DEFAULT


# --------------------------------------------------------------------------- results


def test_two_players_winner_gains_and_loser_loses_the_same(make_user):
    """In a two-player game between new players the winner gains what the loser loses."""
    ann, bob = make_user("ann"), make_user("bob")
    result = record("rampage", [ann, bob], [1, 2])
    assert services.ratings_apply(pool="rampage") == 1
    a, b = ratings_of(ann, bob)
    assert a > 1500 > b and a - 1500 == 1500 - b
    assert change_of(result, ann) == a - 1500 and change_of(result, bob) == b - 1500
    rating = Rating.objects.get(user=ann, pool="rampage")
    assert (rating.games, rating.wins) == (1, 1) and rating.sigma < scale.SIGMA


def test_a_two_player_tie_between_equals_changes_no_rating(make_user):
    """Equal players who tie keep their rating (only the uncertainty shrinks)."""
    ann, bob = make_user("ann"), make_user("bob")
    record("rampage", [ann, bob], [1, 1])
    services.ratings_apply(pool="rampage")
    assert ratings_of(ann, bob) == [1500, 1500]
    assert Rating.objects.get(user=ann, pool="rampage").wins == 0


def test_three_players_with_a_tie_for_first(make_user):
    """Two tied winners gain the same, the third loses."""
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    record("classic5", [ann, bob, cy], [1, 1, 3])
    services.ratings_apply(pool="classic5")
    a, b, c = ratings_of(ann, bob, cy, pool="classic5")
    assert a == b > 1500 > c


def test_four_players_ordered_by_finish_with_a_tie_in_the_middle(make_user):
    """Four players: first gains most, the tied middle pair the same, last loses most."""
    users = [make_user() for _ in range(4)]
    record("rampage", users, [1, 2, 2, 4])
    services.ratings_apply(pool="rampage")
    a, b, c, d = ratings_of(*users)
    assert a > b == c > d and a > 1500 > d


def test_leavers_finish_last_whatever_their_score(make_user):
    """Whoever left ranks below every stayer, leavers tied among themselves."""
    assert ranks_of([Finish(1, 1, left=True), Finish(2, 2), Finish(3, 3)]) == [3, 1, 2]
    assert ranks_of([Finish(1, 1, left=True), Finish(2, 3), Finish(3, 2, left=True), Finish(4, 3)]) == [2, 1, 2, 1]
    ann, bob = make_user("ann"), make_user("bob")
    record("rampage", [ann, bob], [1, 2], left=[ann])
    services.ratings_apply(pool="rampage")
    assert ratings_of(ann, bob)[0] < 1500 < ratings_of(ann, bob)[1]


def test_bad_results_are_refused_and_nothing_is_written(make_user):
    """One player, a player twice or an unknown pool is a RatingError; nothing is stored."""
    ann, bob = make_user("ann"), make_user("bob")
    for pool, users in (("rampage", [ann]), ("rampage", [ann, ann]), ("chess", [ann, bob])):
        with pytest.raises(services.RatingError):
            record(pool, users, list(range(1, len(users) + 1)))
    assert not RatedResult.objects.exists() and not PoolClock.objects.filter(recorded__gt=0).exists()


# --------------------------------------------------------------------------- exactly once, in order


def test_recording_a_game_twice_keeps_one_result(make_user):
    """The same game recorded twice is one result and one update."""
    ann, bob = make_user("ann"), make_user("bob")
    finishes = [Finish(ann.pk, 1), Finish(bob.pk, 2)]
    first = services.result_record(pool="wordgrid", kind="crossword", object_id=7, finishes=finishes)
    again = services.result_record(pool="wordgrid", kind="crossword", object_id=7, finishes=finishes)
    assert first.pk == again.pk and RatedResult.objects.count() == 1


def test_applying_twice_applies_once(make_user):
    """A second run of the update (a retry or a double delivery) changes nothing."""
    ann, bob = make_user("ann"), make_user("bob")
    record("rampage", [ann, bob], [1, 2])
    assert services.ratings_apply(pool="rampage") == 1
    before = snapshot("rampage")
    assert services.ratings_apply(pool="rampage") == 0
    assert services.ratings_sweep(grace=timedelta(0)).applied == {}
    assert snapshot("rampage") == before
    assert Rating.objects.get(user=ann, pool="rampage").games == 1


def test_each_result_is_applied_once_however_often_the_update_runs(make_user):
    """Updates after the first apply only the newer result, from the ratings the first left;
    one with nothing pending changes nothing."""
    ann, bob = make_user("ann"), make_user("bob")
    first = record("rampage", [ann, bob], [1, 2])
    assert services.ratings_apply(pool="rampage") == 1
    after_first = {p.user_id: p.rating_after for p in RatedPlayer.objects.filter(result=first)}
    second = record("rampage", [ann, bob], [2, 1])
    assert services.ratings_apply(pool="rampage") == 1
    assert {p.user_id: p.rating_before for p in RatedPlayer.objects.filter(result=second)} == after_first
    assert {p.user_id: p.rating_after for p in RatedPlayer.objects.filter(result=first)} == after_first
    before = snapshot("rampage")
    assert services.ratings_apply(pool="rampage") == 0
    assert snapshot("rampage") == before
    assert not RatedResult.objects.filter(applied=False).exists()
    assert [r.games for r in Rating.objects.filter(pool="rampage")] == [2, 2]


def test_results_at_the_same_instant_are_applied_in_finishing_order(make_user):
    """Two results of the same players recorded together both apply, the second from the first's after."""
    ann, bob = make_user("ann"), make_user("bob")
    first = record("rampage", [ann, bob], [1, 2])
    second = record("rampage", [ann, bob], [2, 1])
    RatedResult.objects.update(finished_at=first.finished_at)
    assert (first.seq, second.seq) == (1, 2)
    assert services.ratings_apply(pool="rampage") == 2
    one = RatedPlayer.objects.get(result=first, user=ann)
    two = RatedPlayer.objects.get(result=second, user=ann)
    assert two.mu_before == one.mu_after and two.rating_before == one.rating_after
    assert Rating.objects.get(user=ann, pool="rampage").games == 2
    assert PoolClock.objects.get(pool="rampage").applied == 2


def test_apply_stops_at_its_limit_and_pools_are_independent(make_user):
    """Results apply earliest first; a pool's queue does not touch another pool."""
    ann, bob = make_user("ann"), make_user("bob")
    results = [record("rampage", [ann, bob], [1, 2]) for _ in range(3)]
    record("wordgame", [ann, bob], [2, 1])
    assert services.ratings_apply(pool="rampage", limit=2) == 2
    assert list(RatedResult.objects.filter(applied=True).values_list("pk", flat=True).order_by("pk")) == [
        results[0].pk,
        results[1].pk,
    ]
    assert services.ratings_sweep(grace=timedelta(0)).applied == {"rampage": 1, "wordgame": 1}
    assert player_rating(ann, "wordgame").rating < 1500 < player_rating(ann, "rampage").rating


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_apply_each_result_once(make_user):
    """Two connections applying the same pool at once: every result applied once, in order."""
    users = [make_user() for _ in range(4)]
    rng = random.Random(3)
    for _ in range(12):
        players = rng.sample(users, rng.randint(2, 4))
        record("rampage", players, [rng.randint(1, 3) for _ in players])
    counts, errors = [], []
    barrier = threading.Barrier(2)

    def work():
        try:
            barrier.wait()
            counts.append(services.ratings_apply(pool="rampage"))
        except Exception as error:  # surfaced below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=work) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors and sum(counts) == 12
    assert sum(r.games for r in Rating.objects.filter(pool="rampage")) == RatedPlayer.objects.count()
    incremental = snapshot("rampage")
    services.ratings_rebuild(pools=["rampage"])
    assert snapshot("rampage") == incremental


def test_rebuild_equals_the_incremental_ratings_after_random_games(make_user):
    """ratings_rebuild replays history to the very same ratings, in every pool."""
    users = [make_user() for _ in range(7)]
    rng = random.Random(20261130)
    for _ in range(60):
        pool = rng.choice(("rampage", "classic4", "wordgrid"))
        size = 2 if pool == "wordgrid" else rng.randint(2, 4)
        players = rng.sample(users, size)
        places = sorted(rng.randint(1, size) for _ in players)
        left = [p for p in players if rng.random() < 0.1]
        record(pool, players, places, left=left)
        if rng.random() < 0.3:
            services.ratings_apply(pool=pool)
    services.ratings_sweep(grace=timedelta(0))
    incremental = {pool: snapshot(pool) for pool in pool_codes()}
    changes = dict(RatedPlayer.objects.values_list("pk", "rating_after"))
    call_command("ratings_rebuild")
    assert {pool: snapshot(pool) for pool in pool_codes()} == incremental
    assert dict(RatedPlayer.objects.values_list("pk", "rating_after")) == changes
    call_command("ratings_rebuild", "--pool", "rampage")
    assert snapshot("rampage") == incremental["rampage"]


def test_rebuild_also_applies_pending_results(make_user):
    """Rebuilding takes in results not applied yet, and they are not applied again later."""
    ann, bob = make_user("ann"), make_user("bob")
    record("rampage", [ann, bob], [1, 2])
    services.ratings_rebuild(pools=["rampage"])
    assert services.ratings_apply(pool="rampage") == 0
    assert Rating.objects.get(user=ann, pool="rampage").games == 1


# --------------------------------------------------------------------------- hunt rounds


RAMPAGE_BOARD = "cats/orex/ding/plum"


def play_round(table, words=None, leave=None):
    """Start a round at ``table``, submit ``words`` {user: [word]}, let ``leave`` stand up, end it."""
    game_round = hunts.round_start(table_id=table.pk, by=table.host)
    from games.engine import hunt

    board = hunt.Board([list(row) for row in RAMPAGE_BOARD.split("/")])
    HuntRound.objects.filter(pk=game_round.pk).update(board=board.to_text())
    during = game_round.starts_at + timedelta(seconds=1)
    for user, found in (words or {}).items():
        for word in found:
            assert hunts.round_submit(round_id=game_round.pk, user=user, word=word, now=during).outcome == "accepted"
    for user in leave or ():
        hunts.table_leave(table_id=table.pk, user=user)
    return hunts.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))


def test_a_ranked_round_between_people_is_rated(make_user):
    """Ranked, people only: the finished round records a result; the update moves ratings."""
    ann, bob = make_user("ann"), make_user("bob")
    table = hunts.table_create(host=ann, game="rampage", seat_count=2, ranked=True)
    hunts.table_join(table_id=table.pk, user=bob)
    game_round = play_round(table, {ann: ["cat", "cats"], bob: ["ore"]})
    result = RatedResult.objects.get(kind="hunt", object_id=game_round.pk)
    assert result.pool == "rampage" and result.url == game_round.get_absolute_url()
    services.ratings_apply(pool="rampage")
    assert player_rating(ann, "rampage").rating > 1500 > player_rating(bob, "rampage").rating


def test_casual_bot_and_empty_rounds_are_not_rated(make_user):
    """A casual table, a table with a bot, and a round where nobody found a word: no result."""
    ann, bob = make_user("ann"), make_user("bob")
    casual = hunts.table_create(host=ann, game="rampage", seat_count=2)
    hunts.table_join(table_id=casual.pk, user=bob)
    play_round(casual, {ann: ["cat"]})
    # A ranked table whose host then seats a bot (or was given one at creation).
    ranked = hunts.table_create(host=bob, game="rampage", seat_count=3, ranked=True)
    hunts.table_join(table_id=ranked.pk, user=ann)
    play_round(ranked, {})
    HuntSeat.objects.create(table=ranked, user=hunts.tables.bot_user("easy", ranked), position=2, bot_strength="easy")
    play_round(ranked, {ann: ["cats"]})
    assert not RatedResult.objects.exists()
    assert services.ratings_sweep(grace=timedelta(0)).applied == {}
    assert not Rating.objects.exists()


def test_leaving_a_ranked_round_early_finishes_last(make_user):
    """A player who found the most words but left before the end is rated last."""
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    table = hunts.table_create(host=ann, game="rampage", seat_count=3, ranked=True)
    hunts.table_join(table_id=table.pk, user=bob)
    hunts.table_join(table_id=table.pk, user=cy)
    game_round = play_round(table, {bob: ["cats", "cat", "ore"], ann: ["ding"], cy: ["at"]}, leave=[bob])
    result = RatedResult.objects.get(kind="hunt", object_id=game_round.pk)
    places = {p.user_id: (p.place, p.left) for p in result.players.all()}
    assert places[bob.pk] == (3, True)
    services.ratings_apply(pool="rampage")
    assert player_rating(bob, "rampage").rating == min(ratings_of(ann, bob, cy))


def test_leaving_after_the_deadline_while_the_round_end_is_late_is_not_leaving_early(make_user):
    """A round scored late (its end task lost, the sweep ends it): a player who stood up
    after the deadline played the whole round and keeps the place their score earned."""
    ann, bob = make_user("ann"), make_user("bob")
    table = hunts.table_create(host=ann, game="rampage", seat_count=2, ranked=True)
    hunts.table_join(table_id=table.pk, user=bob)
    game_round = hunts.round_start(table_id=table.pk, by=ann)
    from games.engine import hunt

    board = hunt.Board([list(row) for row in RAMPAGE_BOARD.split("/")])
    HuntRound.objects.filter(pk=game_round.pk).update(board=board.to_text())
    during = game_round.starts_at + timedelta(seconds=1)
    for word in ("cats", "cat"):
        hunts.round_submit(round_id=game_round.pk, user=bob, word=word, now=during)
    hunts.round_submit(round_id=game_round.pk, user=ann, word="ore", now=during)
    hunts.table_leave(table_id=table.pk, user=bob)
    HuntSeat.objects.filter(table=table, user=bob).update(left_at=game_round.deadline + timedelta(seconds=5))
    hunts.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=30))
    result = RatedResult.objects.get(kind="hunt", object_id=game_round.pk)
    places = {p.user_id: (p.place, p.left) for p in result.players.all()}
    assert places == {bob.pk: (1, False), ann.pk: (2, False)}


def test_the_sweep_leaves_a_fresh_result_to_its_task_and_applies_an_overdue_one(make_user):
    """A result younger than the grace is its task's; an older one is the sweep's."""
    ann, bob = make_user("ann"), make_user("bob")
    result = record("rampage", [ann, bob], [1, 2])
    assert services.ratings_sweep() == ({}, {})
    assert services.ratings_sweep(now=result.finished_at + timedelta(seconds=3)) == ({"rampage": 1}, {"rampage": 1})


@pytest.mark.django_db(transaction=True)
def test_two_results_finishing_at_once_for_the_same_players_are_both_applied_in_order(make_user):
    """Two games of the same players committing at the same instant get seq 1 and 2 and both apply."""
    ann, bob = make_user("ann"), make_user("bob")
    barrier, errors = threading.Barrier(2), []

    def finish(object_id, places):
        try:
            with transaction.atomic():
                barrier.wait()
                services.result_record(
                    pool="wordgame",
                    kind="crossword",
                    object_id=object_id,
                    finishes=[Finish(ann.pk, places[0]), Finish(bob.pk, places[1])],
                )
        except Exception as error:  # surfaced below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(n, places)) for n, places in ((1, (1, 2)), (2, (2, 1)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors
    first, second = RatedResult.objects.order_by("seq")
    assert (first.seq, second.seq) == (1, 2)
    assert services.ratings_apply(pool="wordgame") == 2
    assert (
        RatedPlayer.objects.get(result=second, user=ann).mu_before
        == RatedPlayer.objects.get(result=first, user=ann).mu_after
    )
    assert Rating.objects.get(user=ann, pool="wordgame").games == 2
