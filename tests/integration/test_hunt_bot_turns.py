"""Hunt bot turns are idempotent, and the sweep restarts a bot whose chain of turn tasks died."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection

from games.hunts import services
from games.hunts.models import FoundWord, RoundPlayer
from games.hunts.services.bots import bot_play, bots_sweep

pytestmark = pytest.mark.django_db


def turns_queued(callbacks) -> list:
    """The bot turns among a transaction's after-commit callbacks."""
    return [callback for callback in callbacks if "bot_turn_planned" in callback.__qualname__]


@pytest.fixture
def bot_round(make_user):
    """A Rampage round between ann and a hard bot; returns (round, the bot's seat)."""
    ann = make_user("ann")
    table = services.table_create(host=ann, bots=("hard",))
    game_round = services.round_start(table_id=table.pk, by=ann)
    return game_round, RoundPlayer.objects.exclude(bot_strength="").get(round=game_round)


def test_the_first_turn_is_stored_when_the_round_starts(bot_round):
    """The bot's turn 0 is due a moment after the board shows; people have no turns."""
    game_round, seat = bot_round
    assert seat.bot_turn == 0
    assert game_round.starts_at < seat.bot_next_turn_at < game_round.starts_at + timedelta(seconds=3)
    assert RoundPlayer.objects.get(round=game_round, bot_strength="").bot_next_turn_at is None


def test_a_second_delivery_of_a_turn_does_nothing(bot_round, django_capture_on_commit_callbacks):
    """Turn 0 delivered twice submits one word and queues one next turn."""
    game_round, seat = bot_round
    due = seat.bot_next_turn_at
    with django_capture_on_commit_callbacks() as queued:
        wait = bot_play(round_id=game_round.pk, user_id=seat.user_id, turn=0, now=due)
    assert wait is not None and len(turns_queued(queued)) == 1
    seat.refresh_from_db()
    assert seat.bot_turn == 1 and seat.bot_next_turn_at == due + timedelta(seconds=wait)
    with django_capture_on_commit_callbacks() as queued_again:
        assert bot_play(round_id=game_round.pk, user_id=seat.user_id, turn=0, now=due + timedelta(seconds=1)) is None
    assert turns_queued(queued_again) == []
    assert FoundWord.objects.filter(round=game_round).count() == 1
    seat.refresh_from_db()
    assert seat.bot_turn == 1


def test_an_early_delivery_waits_for_its_time(bot_round, django_capture_on_commit_callbacks):
    """A turn task that arrives well before its time plays nothing and queues itself for then."""
    game_round, seat = bot_round
    with django_capture_on_commit_callbacks() as queued:
        assert bot_play(round_id=game_round.pk, user_id=seat.user_id, turn=0,
                        now=seat.bot_next_turn_at - timedelta(seconds=5)) is None
    assert len(turns_queued(queued)) == 1
    assert not FoundWord.objects.filter(round=game_round).exists()
    seat.refresh_from_db()
    assert seat.bot_turn == 0


def test_sweep_queues_only_overdue_turns(bot_round, django_capture_on_commit_callbacks):
    """The sweep leaves a turn that is on time alone and queues one overdue by its grace."""
    game_round, seat = bot_round
    due = seat.bot_next_turn_at
    assert bots_sweep(now=due + timedelta(seconds=1)) == []
    with django_capture_on_commit_callbacks() as queued:
        assert bots_sweep(now=due + timedelta(seconds=3)) == [(game_round.pk, seat.user_id)]
    assert len(turns_queued(queued)) == 1
    # After the deadline a bot has nothing left to do.
    assert bots_sweep(now=game_round.deadline + timedelta(seconds=3)) == []


def test_a_restarted_chain_is_not_doubled(bot_round, django_capture_on_commit_callbacks):
    """The lost task turns out only late: it and the sweep's copy play turn 0 once between them."""
    game_round, seat = bot_round
    late = seat.bot_next_turn_at + timedelta(seconds=4)
    assert bots_sweep(now=late) == [(game_round.pk, seat.user_id)]
    with django_capture_on_commit_callbacks() as queued:
        first = bot_play(round_id=game_round.pk, user_id=seat.user_id, turn=0, now=late)
        second = bot_play(round_id=game_round.pk, user_id=seat.user_id, turn=0, now=late)
    assert first is not None and second is None
    assert len(turns_queued(queued)) == 1
    assert FoundWord.objects.filter(round=game_round).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_deliveries_at_once_play_one_turn(bot_round):
    """Two workers run the same turn at the same instant: the seat's row lock lets one play it."""
    game_round, seat = bot_round
    due = seat.bot_next_turn_at
    start = threading.Barrier(2)
    results = []

    def deliver():
        try:
            start.wait()
            results.append(bot_play(round_id=game_round.pk, user_id=seat.user_id, turn=0, now=due))
        finally:
            connection.close()

    threads = [threading.Thread(target=deliver) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results, key=lambda wait: wait is None)[1] is None
    assert sum(1 for wait in results if wait is not None) == 1
    assert FoundWord.objects.filter(round=game_round).count() == 1
    seat.refresh_from_db()
    assert seat.bot_turn == 1
