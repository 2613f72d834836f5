"""A live crossword game's clock on PostgreSQL: time charged from the server's stored
turn start (each test passes its own time), the increment, overtime and its penalty in
the final scores, a loss on time by the deadline sweep, and a move racing the flag."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction

from games import registry
from games.crosswords import selectors, services
from games.crosswords.models import Game, Move, Seat, Status
from games.crosswords.services import Refused, deadlines
from games.engine import movegen
from games.engine.clock import Clock
from games.outcomes import outcome_of

pytestmark = pytest.mark.django_db

FIVE = Clock(5 * 60)
WITH_OVERTIME = Clock(5 * 60, overtime=5 * 60)


def start(users, clock, *, seconds=3600, seed="seed-1"):
    game = services.game_create(
        creator=users[0], variant="wordgrid", seconds_per_move=seconds, invitees=users[1:], clock=clock
    )
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in users[1:]:
        services.game_accept(game_id=game.pk, player=user)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    return game


def mover(game):
    game.refresh_from_db()
    return Seat.objects.get(game=game, index=game.to_move).user


def pass_at(game, seconds: float):
    """The player to move passes ``seconds`` into their turn, by the game's own turn start."""
    game.refresh_from_db()
    now = game.turn_started_at + timedelta(seconds=seconds)
    services.game_pass(game_id=game.pk, player=mover(game), move_count=game.move_count, now=now)
    game.refresh_from_db()
    return now


def test_each_player_starts_with_the_whole_time_and_the_flag_is_the_deadline(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob], FIVE)
    assert game.clock == FIVE
    assert game.clock_left == [300_000, 300_000]
    assert game.deadline == game.turn_started_at + timedelta(minutes=5)
    # The time per move still applies when it is the shorter one.
    short = start([make_user("cy"), make_user("di")], FIVE, seconds=120)
    assert short.deadline == short.turn_started_at + timedelta(minutes=2)


def test_a_move_charges_the_time_it_took_by_the_servers_clock(make_user):
    game = start([make_user("ann"), make_user("bob")], FIVE)
    first = game.to_move
    now = pass_at(game, 40)
    assert game.clock_left[first] == 260_000
    assert game.clock_left[1 - first] == 300_000
    # The next turn starts at the move, with that player's own time.
    assert game.turn_started_at == now
    assert game.deadline == now + timedelta(minutes=5)
    pass_at(game, 100)
    assert game.clock_left[1 - first] == 200_000
    assert game.deadline == game.turn_started_at + timedelta(seconds=260)


def test_the_increment_follows_each_move(make_user):
    game = start([make_user("ann"), make_user("bob")], Clock(60, increment=5))
    first = game.to_move
    pass_at(game, 10)
    assert game.clock_left[first] == 55_000


def test_a_clock_is_for_live_games_only(make_user):
    with pytest.raises(Refused, match="live games"):
        services.game_create(
            creator=make_user("ann"),
            variant="wordgrid",
            seconds_per_move=86400,
            invitees=[make_user("bob")],
            clock=FIVE,
        )


def test_overtime_penalties_count_in_the_final_scores_and_places(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob], WITH_OVERTIME)
    slow = game.to_move
    # 61 seconds over (62 once the second pass took a second): two minutes begun, 20 points.
    pass_at(game, 5 * 60 + 61)
    assert game.status == Status.ACTIVE and game.clock_left[slow] == -61_000
    while game.status == Status.ACTIVE:
        pass_at(game, 1)
    state = selectors.engine_state(game)
    assert state.time_penalties[slow] == 20 and state.time_penalties[1 - slow] == 0
    unpenalised = selectors.replay_state(game)
    seats = {seat.index: seat for seat in game.seats.all()}
    assert seats[slow].score == unpenalised.scores[slow] - 20
    assert seats[1 - slow].score == unpenalised.scores[1 - slow]
    assert [seats[s].place for s in (0, 1)] == [place for _, _, place in sorted(state.standings())]
    outcome = outcome_of(game)
    assert {p.user_id: p.score for p in outcome.players} == {seats[s].user_id: seats[s].score for s in seats}
    view = selectors.game_view(game=game, viewer=ann)
    assert view.clocks[slow].text == "1:02 over" and view.clocks[slow].penalty == 20
    assert not any(face.running for face in view.clocks)


def test_a_player_whose_time_is_up_loses_on_time_by_the_sweep(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob], FIVE)
    first = game.to_move
    pass_at(game, 10)
    flag = game.turn_started_at + timedelta(minutes=5)
    # Before the flag nothing happens; at it, the sweep forfeits the player to move.
    assert deadlines.games_forfeit_overdue(now=flag - timedelta(milliseconds=1)) == 0
    late = mover(game)
    with pytest.raises(Refused, match="run out"):
        services.game_pass(game_id=game.pk, player=late, move_count=game.move_count, now=flag)
    assert deadlines.games_forfeit_overdue(now=flag) == 1
    assert deadlines.games_forfeit_overdue(now=flag) == 0  # once
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    last = Move.objects.filter(game=game).latest("number")
    assert (last.kind, last.reason) == ("forfeit", "lost on time")
    assert game.clock_left[1 - first] == 0
    outcome = outcome_of(game)
    assert outcome.ending == registry.Ending.FORFEITED
    loser = next(p for p in outcome.players if p.user_id == late.pk)
    assert (loser.ended, loser.place) == (registry.Ended.FORFEITED, 2)
    assert "forfeited" in selectors.game_view(game=game, viewer=ann).result


def test_a_player_within_the_overtime_plays_on(make_user):
    game = start([make_user("ann"), make_user("bob")], WITH_OVERTIME)
    flag = game.turn_started_at + timedelta(minutes=10)
    assert game.deadline == flag
    assert deadlines.games_forfeit_overdue(now=flag - timedelta(minutes=4)) == 0
    pass_at(game, 9 * 60)
    assert game.status == Status.ACTIVE
    # Already over time, the next turn of that player has only the overtime left.
    pass_at(game, 1)
    assert game.deadline == game.turn_started_at + timedelta(minutes=1)


def test_the_forfeit_by_the_time_per_move_says_so(make_user):
    game = start([make_user("ann"), make_user("bob")], FIVE, seconds=60)
    assert deadlines.games_forfeit_overdue(now=game.deadline) == 1
    assert Move.objects.get(game=game).reason == "missed the move deadline"


def test_a_rematch_keeps_the_clock(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob], Clock(600, increment=3))
    services.game_resign(game_id=game.pk, player=ann)
    rematch = services.game_rematch(game_id=game.pk, player=ann)
    assert rematch.clock == Clock(600, increment=3)


def _waiting_on_locks() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_a_move_as_the_flag_falls_and_the_forfeit_one_wins(make_user):
    """A play a millisecond before the flag and the sweep a millisecond after it, both
    waiting on the game's row lock while a third connection holds it: once it is let go,
    exactly one of them acts and the other finds the game moved on."""
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob], FIVE)
    state = selectors.engine_state(game)
    play = movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)
    player = mover(game)
    flag = game.deadline
    locked, release = threading.Event(), threading.Event()
    outcomes = {}

    def hold():
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)
                locked.set()
                release.wait(timeout=30)
        finally:
            connection.close()

    def move():
        try:
            services.game_play(
                game_id=game.pk,
                player=player,
                placement=play.placement,
                move_count=0,
                now=flag - timedelta(milliseconds=1),
            )
            outcomes["move"] = "applied"
        except Refused as refused:
            outcomes["move"] = refused.reason
        finally:
            connection.close()

    def sweep():
        try:
            outcomes["sweep"] = deadlines.games_forfeit_overdue(now=flag + timedelta(milliseconds=1))
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert locked.wait(timeout=10)
    racers = [threading.Thread(target=move), threading.Thread(target=sweep)]
    for thread in racers:
        thread.start()
    for _ in range(200):
        if _waiting_on_locks() >= 2:
            break
        threading.Event().wait(0.05)
    assert _waiting_on_locks() >= 2
    release.set()
    for thread in [holder, *racers]:
        thread.join(timeout=30)
    assert len(outcomes) == 2
    moves = list(Move.objects.filter(game=game).order_by("number").values_list("kind", flat=True))
    game.refresh_from_db()
    if outcomes["move"] == "applied":
        assert outcomes["sweep"] == 0 and moves == ["place"] and game.status == Status.ACTIVE
    else:
        assert outcomes["sweep"] == 1 and moves == ["forfeit"] and game.status == Status.FINISHED
        assert "over" in outcomes["move"]


def test_the_new_game_form_chooses_a_clock_and_the_page_shows_both(client, make_user):
    """A clock chosen with a correspondence time per move makes the game live (an hour a
    move at most); once started, the page shows each player's clock, the mover's running."""
    ann, bob = make_user("ann"), make_user("bob")
    client.force_login(ann)
    fields = {"variant": "wordgrid", "seconds_per_move": 3 * 86400, "invitees": "bob", "open_seats": 0}
    response = client.post("/games/new/", {**fields, "clock": "25+ot"})
    game = Game.objects.get()
    assert response.status_code == 302
    assert game.clock == Clock(25 * 60, overtime=10 * 60) and game.seconds_per_move == 3600
    assert "clock: 25 min + 10 min overtime" in client.get(f"/games/{game.pk}/").content.decode().replace("\n", " ")
    services.game_accept(game_id=game.pk, player=bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert page.count('role="timer"') == 4  # the phone's strip and the scores table, per player
    assert page.count("data-running") == 2 and "25:00" in page
    refused = client.post("/games/new/", {**fields, "clock": "1+0"})
    assert "Select a valid choice" in refused.content.decode()
