"""TOW services on PostgreSQL: starting games, plays, the house vote, deadlines, bots, races."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import Notification
from games.engine import tow as engine
from games.ratings.models import RatedResult
from games.tow import selectors, services
from games.tow.models import Game, Move, MoveKind, Seat, Status
from games.tow.services import Refused, bots, deadlines

DAY = 86400
pytestmark = pytest.mark.django_db


def start(users, words="en", seed="tow-seed-1", seconds=DAY, ranked=False):
    game = services.game_create(
        creator=users[0], seconds_per_move=seconds, invitees=users[1:], words=words, ranked=ranked
    )
    Game.objects.filter(pk=game.pk).update(seed=seed)
    for user in users[1:]:
        services.game_accept(game_id=game.pk, player=user)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    return game


def user_at(game, index):
    return Seat.objects.get(game=game, index=index).user


def state_of(game):
    game.refresh_from_db()
    return selectors.engine_state(game)


def best(game):
    state = state_of(game)
    play = engine.best_play(state.table, state.racks[state.to_move], state.lexicon, budget=4000)
    assert play is not None
    return state, play


def play_best(game):
    state, play = best(game)
    return services.game_play(
        game_id=game.pk,
        player=user_at(game, state.to_move),
        placement=play.placement,
        path=play.path,
        move_count=game.move_count,
    )


def nonsense(game, state):
    """A legal placement of two rack tiles whose main word no word list holds, and its path."""
    rack = state.racks[state.to_move]
    anchors = [None] if state.table.is_empty else sorted(state.table.cells())
    for anchor in anchors:
        if anchor is None:
            cells, path = [(0, 0), (0, 1)], [(0, 0), (0, 1)]
        else:
            r, c = anchor
            cells = [(r, c + 1), (r, c + 2)]
            path = [anchor, *cells]
        for i, first in enumerate(rack):
            for second in rack[i + 1 :]:
                tiles = [
                    ("q" if t in engine.KIND_OF_TILE else t, engine.KIND_OF_TILE.get(t, engine.LETTER))
                    for t in (first, second)
                ]
                placement = [(*cell, *tile) for cell, tile in zip(cells, tiles)]
                try:
                    play = state.evaluate(placement, path)
                except engine.IllegalPlay:
                    continue
                if play.unknown_words:
                    return placement, path
    raise AssertionError(f"the fixed seed no longer deals a rack with an unknown two-tile word: {rack}")


# -- starting -------------------------------------------------------------------------------


def test_a_game_starts_when_everyone_accepted_and_the_draw_picks_the_opener(make_user):
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    game = services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob, cid])
    assert game.status == Status.WAITING
    assert Notification.objects.filter(user=bob, kind="tow.invitation").exists()
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    assert game.status == Status.WAITING
    services.game_accept(game_id=game.pk, player=cid)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE and game.deadline is not None
    state = selectors.engine_state(game)
    assert game.to_move == state.to_move == engine.first_draw(3, f"{game.seed}/1")[1]
    opener = user_at(game, game.to_move)
    assert Notification.objects.filter(user=opener, kind="tow.turn").exists()


@pytest.mark.parametrize(
    "invitees, open_seats, reason",
    [
        (0, 0, "TOW takes 2–4 players; you chose 1."),
        (0, 4, "TOW takes 2–4 players; you chose 5."),
    ],
)
def test_player_count_refused(make_user, invitees, open_seats, reason):
    with pytest.raises(Refused) as info:
        services.game_create(creator=make_user(), seconds_per_move=DAY, open_seats=open_seats)
    assert info.value.reason == reason
    assert Game.objects.count() == 0


def test_open_seek_taken_from_the_lobby(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, seconds_per_move=DAY, open_seats=1)
    assert selectors.open_seeks(user=bob) == [game]
    services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE and selectors.open_seeks(user=bob) == []


def test_decline_cancels_and_tells_the_others(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob])
    services.game_decline(game_id=game.pk, player=bob)
    game.refresh_from_db()
    assert game.status == Status.CANCELLED
    assert Notification.objects.filter(user=ann, kind="tow.cancelled").exists()


# -- plays ---------------------------------------------------------------------------------


def test_plays_are_stored_scored_and_replayable(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob])
    for _ in range(4):
        play_best(game)
    game.refresh_from_db()
    state = selectors.engine_state(game)
    assert game.move_count == 4 and len(state.table) > 0 and state.table.is_connected()
    seats = {s.index: s.score for s in game.seats.all()}
    assert [seats[0], seats[1]] == list(state.scores)
    stored = list(game.moves.order_by("number"))
    assert all(m.kind == MoveKind.PLACE and m.accepted and m.play["words"] for m in stored)
    assert stored[0].score == stored[0].play["score"]


def test_the_word_alone_is_enough_when_one_path_spells_it(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob])
    state, play = best(game)
    move = services.game_play(
        game_id=game.pk,
        player=user_at(game, state.to_move),
        placement=play.placement,
        word=play.main_word,
        move_count=0,
    )
    assert move.score == play.score
    assert [tuple(c) for c in move.path] in [
        [tuple(c) for c in p] for p in engine.paths(state.table, play.placement, play.main_word)
    ]


def test_refusals_change_nothing(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob])
    state, play = best(game)
    mover, other = user_at(game, state.to_move), user_at(game, 1 - state.to_move)
    cases = [
        (other, dict(placement=play.placement, path=play.path, move_count=0), "It is not your turn."),
        (mover, dict(placement=play.placement, path=play.path, move_count=7), services.moves.STALE),
        (
            mover,
            dict(placement=play.placement, path=list(play.path)[:1], move_count=0),
            "The word needs at least 2 letters: trace it over 2 or more tiles.",
        ),
        (
            mover,
            dict(placement=[(0, 0, "a", "joker")], path=[(0, 0), (0, 1)], move_count=0),
            "Unknown tile kind 'joker' at A1.",
        ),
    ]
    for player, kwargs, reason in cases:
        with pytest.raises(Refused) as info:
            services.game_play(game_id=game.pk, player=player, **kwargs)
        assert info.value.reason == reason
    game.refresh_from_db()
    assert game.move_count == 0 and not Move.objects.filter(game=game).exists()


def test_preview_itemises_the_play_or_says_why_not(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob])
    state, play = best(game)
    mover = user_at(game, state.to_move)
    shown = selectors.preview(game=game, player=mover, placement=play.placement, path=play.path)
    assert shown["legal"] and shown["play"]["score"] == play.score
    assert shown["play"]["details"][0]["word"] == play.main_word
    wrong = selectors.preview(game=game, player=mover, placement=play.placement, path=[(0, 0)])
    assert wrong == {"legal": False, "reason": "The word needs at least 2 letters: trace it over 2 or more tiles."}


@pytest.mark.django_db(transaction=True)
def test_two_racing_submissions_apply_exactly_one(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob])
    state, play = best(game)
    mover = user_at(game, state.to_move)
    barrier = threading.Barrier(2)
    outcomes = []

    def submit():
        try:
            barrier.wait(timeout=5)
            services.game_play(game_id=game.pk, player=mover, placement=play.placement, path=play.path, move_count=0)
            outcomes.append("applied")
        except Refused as refused:
            outcomes.append(refused.reason)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == sorted(["applied", services.moves.STALE])
    assert Move.objects.filter(game=game).count() == 1


# -- the house vote ----------------------------------------------------------------------------


def test_three_player_house_vote_game(make_user):
    """A word not in en waits for two votes: a tie takes the play back, a majority keeps
    the next one; the votes are stored and shown in the history."""
    users = [make_user("ann"), make_user("bob"), make_user("cid")]
    game = start(users, words="house")
    state = state_of(game)
    player = state.to_move
    mover = user_at(game, player)
    voters = [user_at(game, s) for s in range(3) if s != player]
    placement, path = nonsense(game, state)
    made = services.game_play(game_id=game.pk, player=mover, placement=placement, path=path, move_count=0)
    game.refresh_from_db()
    assert game.voting and made.accepted is None and game.to_move == player
    for voter in voters:
        assert Notification.objects.filter(user=voter, kind="tow.vote").exists()
    view = selectors.game_view(game=game, viewer=voters[0])
    assert view["pending"]["can_vote"] and view["pending"]["play"]["unknown_words"]
    with pytest.raises(Refused, match="waiting for the house vote"):
        services.game_pass(game_id=game.pk, player=mover, move_count=1)

    services.game_vote(game_id=game.pk, player=voters[0], accept=True, move_count=1)
    services.game_vote(game_id=game.pk, player=voters[1], accept=False, move_count=2)
    game.refresh_from_db()
    made.refresh_from_db()
    assert not game.voting and made.accepted is False and made.score == 0
    assert game.to_move == player and state_of(game).table.is_empty
    assert Notification.objects.filter(user=mover, kind="tow.vote_result", text__contains="rejected").exists()
    history = selectors.game_view(game=game, viewer=mover)["history"]
    assert [h["text"] for h in history if h["kind"] == "vote"] == ["voted to accept", "voted to reject"]

    again = services.game_play(game_id=game.pk, player=mover, placement=placement, path=path, move_count=3)
    services.game_vote(game_id=game.pk, player=voters[1], accept=True, move_count=4)
    services.game_vote(game_id=game.pk, player=voters[0], accept=True, move_count=5)
    game.refresh_from_db()
    again.refresh_from_db()
    state = selectors.engine_state(game)
    assert again.accepted is True and again.score == again.play["score"]
    assert len(state.table) == 2 and game.to_move != player
    assert Seat.objects.get(game=game, index=player).score == state.scores[player]
    assert selectors.engine_state(game) == engine.replay(
        3, game.seed, [selectors.engine_move(m) for m in game.moves.order_by("number")], state.lexicon, house_vote=True
    )


def test_vote_closed_by_the_deadline_rejects_without_votes(make_user):
    users = [make_user("ann"), make_user("bob")]
    game = start(users, words="house")
    state = state_of(game)
    placement, path = nonsense(game, state)
    services.game_play(
        game_id=game.pk, player=user_at(game, state.to_move), placement=placement, path=path, move_count=0
    )
    game.refresh_from_db()
    later = game.deadline + timedelta(seconds=1)
    assert deadlines.games_deadlines_passed(now=later) == 1
    game.refresh_from_db()
    assert game.status == Status.ACTIVE and not game.voting and game.deadline > later
    assert game.moves.get(number=0).accepted is False
    assert deadlines.games_deadlines_passed(now=later) == 0


@pytest.mark.django_db(transaction=True)
def test_racing_votes_apply_once(make_user):
    users = [make_user("ann"), make_user("bob")]
    game = start(users, words="house")
    state = state_of(game)
    placement, path = nonsense(game, state)
    services.game_play(
        game_id=game.pk, player=user_at(game, state.to_move), placement=placement, path=path, move_count=0
    )
    voter = user_at(game, 1 - state.to_move)
    barrier = threading.Barrier(2)
    outcomes = []

    def vote():
        try:
            barrier.wait(timeout=5)
            services.game_vote(game_id=game.pk, player=voter, accept=True, move_count=1)
            outcomes.append("applied")
        except Refused as refused:
            outcomes.append(refused.reason)
        finally:
            connection.close()

    threads = [threading.Thread(target=vote) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    # Both votes answered: one applied, the other refused with a reason (not a crash).
    assert len(outcomes) == 2 and outcomes.count("applied") == 1
    assert Move.objects.filter(game=game, kind=MoveKind.VOTE).count() == 1


# -- deadlines, end, rematch, ratings, bots -----------------------------------------------------


def test_missed_deadline_forfeits_and_two_players_end_the_game(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob])
    late = game.deadline + timedelta(seconds=1)
    loser = game.to_move
    assert deadlines.games_deadlines_passed(now=late) == 1
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    assert Seat.objects.get(game=game, index=loser).left == "forfeited"
    assert Seat.objects.get(game=game, index=1 - loser).place == 1


def test_reminder_sent_once(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob])
    soon = game.remind_at + timedelta(seconds=1)
    assert deadlines.games_send_reminders(now=soon) == 1
    assert deadlines.games_send_reminders(now=soon) == 0
    assert Notification.objects.filter(kind="tow.reminder").count() == 1


def test_ranked_game_goes_to_the_tow_pool_and_rematch_follows(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob], ranked=True)
    play_best(game)
    services.game_resign(game_id=game.pk, player=bob)
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    assert RatedResult.objects.filter(pool="tow", object_id=game.pk).exists()
    rematch = services.game_rematch(game_id=game.pk, player=bob)
    assert rematch.game_number == 2 and rematch.status == Status.WAITING
    assert services.game_rematch(game_id=game.pk, player=ann) == rematch
    services.game_accept(game_id=rematch.pk, player=ann)
    rematch.refresh_from_db()
    assert rematch.status == Status.ACTIVE


def test_bot_plays_its_turn_and_votes(make_user, django_capture_on_commit_callbacks):
    ann = make_user("ann")
    with django_capture_on_commit_callbacks():
        game = services.game_create(creator=ann, seconds_per_move=DAY, bots=1, words="house")
    # Nothing has moved (the bot's queued turn never ran): a fixed seed makes the game repeatable.
    Game.objects.filter(pk=game.pk).update(seed="tow-bot-1", to_move=engine.first_draw(2, "tow-bot-1/1")[1])
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    bot_seat = Seat.objects.get(game=game, user__is_bot=True).index
    if game.to_move == bot_seat:
        assert bots.bot_turn(game_id=game.pk) == 1
        game.refresh_from_db()
    state = state_of(game)
    placement, path = nonsense(game, state)
    services.game_play(game_id=game.pk, player=ann, placement=placement, path=path, move_count=game.move_count)
    assert bots.bot_turn(game_id=game.pk) >= 1  # votes to accept, then plays its turn
    game.refresh_from_db()
    votes = list(Move.objects.filter(game=game, kind=MoveKind.VOTE))
    assert len(votes) == 1 and votes[0].accept
    assert game.to_move == 1 - bot_seat and game.move_count >= 3


def test_game_view_hides_other_racks(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob])
    view = selectors.game_view(game=game, viewer=ann)
    state = selectors.engine_state(game)
    assert view["rack"] == state.racks[0] and state.racks[1] not in str(view)
    assert view["draws"] and view["bag"] == 104 - 14
    assert timezone.now() < game.deadline


def test_engine_state_kept_per_game_equals_a_fresh_replay(make_user):
    """The per-process state cache gives the same state as replaying, for every prefix."""
    ann, bob = make_user("ann"), make_user("bob")
    game = start([ann, bob])
    for _ in range(3):
        play_best(game)
    moves = list(game.moves.order_by("number"))
    lex = selectors.lexicon(game)
    for count in (3, 1, 2, 0, 3):
        fresh = engine.replay(2, game.seed, [selectors.engine_move(m) for m in moves[:count]], lex)
        assert selectors.engine_state(game, moves=moves[:count]) == fresh
