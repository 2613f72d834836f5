"""Ranked results that mean something: games ended before both players tried are not
rated, a pair that keeps meeting counts less and then not at all, one opponent never
makes most of a rating, and staff can void a result (the pool replayed from history)."""

from __future__ import annotations

import itertools
import threading
from datetime import timedelta

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from config.errors import Refused
from games import registry
from games.crosswords import services as crosswords
from games.crosswords.models import Game
from games.ratings import fairplay, selectors, services
from games.ratings.models import RatedPlayer, RatedResult, Rating
from games.ratings.selectors import player_rating
from games.ratings.templatetags.ratings import change_of
from tests.concurrency import run_threads, wait_for_a_blocked_session

pytestmark = pytest.mark.django_db

DAY = 86400
_ids = itertools.count(1)


def farm_one(winner, loser) -> Game:
    """The farming script's game: a ranked Wordgame, one pass by whoever opens, then the
    loser resigns."""
    game = crosswords.game_create(
        creator=winner, variant="wordgame", seconds_per_move=DAY, invitees=[loser], ranked=True
    )
    crosswords.game_accept(game_id=game.pk, player=loser)
    game.refresh_from_db()
    opener = game.seats.get(index=game.to_move).user
    crosswords.game_pass(game_id=game.pk, player=opener, move_count=game.move_count)
    crosswords.game_resign(game_id=game.pk, player=loser)
    return game


def test_the_farming_script_moves_no_rating(client, make_user):
    """12 ranked Wordgames of "one pass, then resign": nobody's rating moves, the winner is
    nowhere on the leaderboard, and each game says why it was not rated."""
    winner, loser = make_user("winner"), make_user("loser")
    games = [farm_one(winner, loser) for _ in range(12)]
    services.ratings_apply(pool="wordgame")
    assert player_rating(winner, "wordgame").rating == player_rating(loser, "wordgame").rating == 1500
    assert player_rating(winner, "wordgame").games == 0
    board = client.get("/api/leaderboards/wordgame").json()
    assert "winner" not in [row["username"] for row in board["players"]]
    change = change_of("crossword", games[0].pk, winner.pk)
    assert change == {
        "state": "unrated",
        "reason": "Not rated: the game ended by a resignation before each player had made 2 moves.",
    }
    client.force_login(winner)
    assert "before each player had made 2 moves" in client.get(games[-1].get_absolute_url()).content.decode()


def outcome(ann, bob, *, ann_moves=5, bob_moves=5, ending=registry.Ending.RESIGNED, at=None, pool="wordgame"):
    """A ranked two-player outcome in which ann beat bob (bob resigned, by default)."""
    return registry.Outcome(
        kind="crossword",
        object_id=next(_ids),
        pool=pool,
        ranked=True,
        ending=ending,
        players=(
            registry.PlayerResult(ann.pk, 1, 100, moves=ann_moves),
            registry.PlayerResult(bob.pk, 2, 50, registry.Ended.RESIGNED, moves=bob_moves),
        ),
        finished_at=at or timezone.now(),
    )


def test_a_game_resigned_before_both_players_moved_twice_is_not_rated(make_user):
    """One move short is enough; a game played to its end with few moves is rated."""
    ann, bob = make_user("ann"), make_user("bob")
    short = services.outcome_record(outcome(ann, bob, ann_moves=2, bob_moves=1))
    assert (short.weight, short.reason) == (
        0,
        "Not rated: the game ended by a resignation before each player had made 2 moves.",
    )
    forfeit = services.outcome_record(outcome(ann, bob, bob_moves=0, ending=registry.Ending.FORFEITED))
    assert "ended by a forfeit" in forfeit.reason
    later = timezone.now() + timedelta(days=2)
    played = services.outcome_record(outcome(ann, bob, ann_moves=2, bob_moves=2, at=later))
    assert played.weight == 1 and played.reason == ""


def test_a_pair_that_keeps_meeting_counts_less_then_not_at_all(make_user):
    """Within a day: in full, in full, half, a quarter, then not rated; a day later, in full."""
    ann, bob = make_user("ann"), make_user("bob")
    start = timezone.now()
    results = [services.outcome_record(outcome(ann, bob, at=start + timedelta(minutes=n))) for n in range(6)]
    assert [result.weight for result in results] == [1, 1, 0.5, 0.25, 0, 0]
    assert results[2].reason == "Counts half: game 3 of the same players in this pool within a day."
    assert results[4].reason == "Not rated: game 5 of the same players in this pool within a day."
    assert services.outcome_record(outcome(ann, bob, at=start + timedelta(days=1, minutes=10))).weight == 1
    services.ratings_apply(pool="wordgame")
    rows = {r.result_id: r for r in RatedPlayer.objects.filter(user=ann)}
    gains = [rows[result.pk].change for result in results]
    assert gains[0] > gains[1] > gains[2] > 0
    assert gains[4] == gains[5] == 0


def test_one_opponent_never_makes_most_of_a_rating(make_user):
    """Win after win against one player, a day apart each: the net gain from them stops
    at fairplay.PAIR_POINTS, and so does the other's loss."""
    ann, bob = make_user("ann"), make_user("bob")
    start = timezone.now() - timedelta(days=40)
    for day in range(30):
        services.outcome_record(outcome(ann, bob, at=start + timedelta(days=day)))
    services.ratings_apply(pool="wordgame")
    assert player_rating(ann, "wordgame").rating - 1500 <= fairplay.PAIR_POINTS
    assert 1500 - player_rating(bob, "wordgame").rating <= fairplay.PAIR_POINTS
    assert player_rating(ann, "wordgame").rating - 1500 >= fairplay.PAIR_POINTS - 5


def snapshot(pool):
    return {(r.user_id,): (r.mu, r.sigma, r.rating, r.games, r.wins) for r in Rating.objects.filter(pool=pool)}


def test_the_rules_replay_exactly_from_history(make_user):
    """After short, repeated and capped results the rebuilt pool equals the incremental one."""
    players = [make_user(f"p{n}") for n in range(4)]
    start = timezone.now() - timedelta(days=20)
    for n in range(40):
        first, second = players[n % 4], players[(n * 3 + 1) % 4]
        if first == second:
            continue
        moves = 1 if n % 7 == 0 else 3
        services.outcome_record(outcome(first, second, bob_moves=moves, at=start + timedelta(hours=5 * n)))
        if n % 5 == 0:
            services.ratings_apply(pool="wordgame")
    services.ratings_apply(pool="wordgame")
    before = snapshot("wordgame")
    services.ratings_rebuild(pools=["wordgame"])
    assert snapshot("wordgame") == before


def test_staff_void_a_result_and_the_pool_is_replayed_once_in_order(make_user):
    """Voiding counts the result for nothing and replays the pool: the ratings equal those
    of the same history without it; a second void is refused."""
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    staff = make_user("staff", is_staff=True, is_superuser=True)
    start = timezone.now() - timedelta(days=5)
    first = services.outcome_record(outcome(ann, bob, at=start))
    services.outcome_record(outcome(cy, ann, at=start + timedelta(days=1)))
    services.outcome_record(outcome(bob, cy, at=start + timedelta(days=2)))
    services.ratings_apply(pool="wordgame")
    voided = services.result_void(result_id=first.pk, by=staff, reason="farmed")
    assert (voided.weight, voided.reason, voided.voided_by) == (0, "Voided by staff: farmed.", staff)
    replayed = snapshot("wordgame")
    services.ratings_rebuild(pools=["wordgame"])
    assert snapshot("wordgame") == replayed
    assert player_rating(ann, "wordgame").games == 1 and player_rating(bob, "wordgame").games == 1
    assert RatedPlayer.objects.get(result=first, user=ann).change == 0
    with pytest.raises(Refused, match="voided already"):
        services.result_void(result_id=first.pk, by=staff)


def test_the_admin_lists_suspicious_pairs_and_voids(client, make_user):
    """A one-sided pair shows on the admin's suspicious pairs page; the void action replays."""
    ann, bob = make_user("ann"), make_user("bob")
    staff = make_user("staff", is_staff=True, is_superuser=True)
    start = timezone.now() - timedelta(hours=6)
    results = [services.outcome_record(outcome(ann, bob, at=start + timedelta(minutes=n))) for n in range(5)]
    services.ratings_apply(pool="wordgame")
    (pair,) = selectors.suspicious_pairs()
    assert (pair.first, pair.second, pair.games, pair.first_wins, pair.discounted) == ("ann", "bob", 5, 5, 3)
    client.force_login(staff)
    page = client.get(reverse("admin:ratings_ratedresult_suspicious_pairs")).content.decode()
    assert 'data-pair="wordgame:ann:bob"' in page
    answer = client.post(
        reverse("admin:ratings_ratedresult_changelist"),
        {"action": "void", "_selected_action": [results[0].pk, results[1].pk]},
        follow=True,
    )
    assert "2 results voided" in answer.content.decode()
    assert RatedResult.objects.filter(voided_by=staff).count() == 2
    assert player_rating(ann, "wordgame").games == 2  # the half and the quarter still count


def test_a_hunter_leaving_before_half_the_round_leaves_it_unrated():
    """In a hunt the round runs on its clock: leaving in its first half is the early end."""
    players = (
        registry.PlayerResult(1, 1, 30, moves=4, share_played=1.0),
        registry.PlayerResult(2, 2, 0, registry.Ended.LEFT, moves=0, share_played=0.2),
    )
    hunt = registry.Outcome("hunt", 1, "rampage", True, registry.Ending.NORMAL, players, timezone.now())
    assert fairplay.judge(hunt) == fairplay.Verdict(
        0.0, "Not rated: a player left before half of the round had passed."
    )
    later = registry.PlayerResult(2, 2, 0, registry.Ended.LEFT, moves=0, share_played=0.6)
    assert fairplay.judge(
        registry.Outcome("hunt", 1, "rampage", True, registry.Ending.NORMAL, (players[0], later), timezone.now())
    ).rated


def hunt_round(*finishers, at, pool="rampage"):
    """A ranked hunt round the players finished in this order, each sitting through it."""
    players = tuple(
        registry.PlayerResult(player.pk, place, 100 - place, moves=5, share_played=1.0)
        for place, player in enumerate(finishers, start=1)
    )
    return registry.Outcome("hunt", next(_ids), pool, True, registry.Ending.NORMAL, players, at)


def test_one_opponent_never_makes_most_of_a_rating_in_hunts_of_three_or_four(make_user):
    """Round after round of the same three and four, a day apart: what each player takes
    from each opponent stays within fairplay.PAIR_POINTS, so the winner's gain and the
    last player's loss stop at that for each opponent."""
    ann, bob, cy, dee = (make_user(name) for name in ("ann", "bob", "cy", "dee"))
    start = timezone.now() - timedelta(days=80)
    for day in range(30):
        services.outcome_record(hunt_round(ann, bob, cy, at=start + timedelta(days=day)))
        services.outcome_record(hunt_round(ann, bob, cy, dee, at=start + timedelta(days=day, hours=1), pool="classic4"))
    services.ratings_apply(pool="rampage")
    services.ratings_apply(pool="classic4")
    assert 0 < player_rating(ann, "rampage").rating - 1500 <= 2 * fairplay.PAIR_POINTS
    assert 0 < 1500 - player_rating(cy, "rampage").rating <= 2 * fairplay.PAIR_POINTS
    assert 0 < player_rating(ann, "classic4").rating - 1500 <= 3 * fairplay.PAIR_POINTS
    assert 0 < 1500 - player_rating(dee, "classic4").rating <= 3 * fairplay.PAIR_POINTS
    before = snapshot("rampage")
    services.ratings_rebuild(pools=["rampage"])
    assert snapshot("rampage") == before


def test_a_result_splits_among_the_opponents_without_losing_a_point():
    """Each opponent is charged a two-player result's share; the shares add up to the change."""
    assert fairplay.opponent_shares(30.0, [30.0]) == (30.0,)
    shares = fairplay.opponent_shares(82.4, [77.7, 77.7, 77.7])
    assert sum(shares) == pytest.approx(82.4) and len(set(shares)) == 1
    middle = fairplay.opponent_shares(21.1, [-77.7, 77.7])
    assert sum(middle) == pytest.approx(21.1) and middle[0] < 0 < middle[1]


@pytest.mark.django_db(transaction=True)
def test_a_pair_finishing_two_games_at_once_counts_both_meetings(make_user):
    """Two games of one pair finishing together (correspondence games run side by side):
    the second is counted after the first commits, so it is game 4, not a second game 3."""
    ann, bob = make_user("ann"), make_user("bob")
    start = timezone.now() - timedelta(hours=1)
    for minute in range(2):
        services.outcome_record(outcome(ann, bob, at=start + timedelta(minutes=minute)))
    third_recorded, blocked, results = threading.Event(), [], {}

    def third():
        with transaction.atomic():
            results["third"] = services.outcome_record(outcome(ann, bob, at=start + timedelta(minutes=2)))
            third_recorded.set()
            blocked.append(wait_for_a_blocked_session())

    def fourth():
        assert third_recorded.wait(10)
        results["fourth"] = services.outcome_record(outcome(ann, bob, at=start + timedelta(minutes=3)))

    run_threads(third, fourth)
    assert blocked == [True]
    assert (results["third"].weight, results["fourth"].weight) == (0.5, 0.25)


def test_a_voided_result_still_counts_as_the_pair_meeting(make_user):
    """Voiding a pair's farmed games does not make their next game of the day count in
    full: the pair met, and a result's weight never depends on when a void came."""
    ann, bob = make_user("ann"), make_user("bob")
    staff = make_user("staff", is_staff=True)
    start = timezone.now() - timedelta(hours=2)
    farmed = [services.outcome_record(outcome(ann, bob, at=start + timedelta(minutes=n))) for n in range(2)]
    for result in farmed:
        services.result_void(result_id=result.pk, by=staff)
    assert services.outcome_record(outcome(ann, bob, at=start + timedelta(minutes=5))).weight == 0.5
