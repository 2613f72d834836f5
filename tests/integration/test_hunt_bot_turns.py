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
        assert (
            bot_play(
                round_id=game_round.pk, user_id=seat.user_id, turn=0, now=seat.bot_next_turn_at - timedelta(seconds=5)
            )
            is None
        )
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


@pytest.mark.django_db(transaction=True)
def test_a_bot_turn_racing_a_person_for_the_same_word_does_not_deadlock(bot_round):
    """Ann's word is inserted but not yet committed when the bot goes for the same word.

    The bot waits for Ann's transaction; Ann's commit then checks her word's foreign key
    on the round. Had the bot locked the round's row, each would wait for the other and
    PostgreSQL would abort one. Ann keeps her word and the bot is told it is taken.
    """
    from django.db import transaction

    from games.hunts.services import bots
    from games.hunts.services.submissions import round_lock

    game_round, seat = bot_round
    ann_id = game_round.table.host_id
    plan = bots._plan(
        game_round.pk,
        game_round.board,
        game_round.game,
        game_round.lexicon_code,
        game_round.lexicon_version,
        game_round.min_length,
        game_round.seed,
        seat.bot_strength,
        seat.user_id,
    )
    word = plan[0]
    path = ",".join(str(r * game_round.size + c) for r, c in hunt_path(game_round, word))
    inserted, bot_done, errors = threading.Event(), threading.Event(), []

    def ann_submits():
        try:
            with transaction.atomic():
                round_lock(game_round.pk, shared=True)
                FoundWord.objects.create(
                    round=game_round,
                    user_id=ann_id,
                    word=word,
                    path=path,
                    points=1,
                    exclusive=True,
                    found_at=seat.bot_next_turn_at,
                )
                inserted.set()
                # Commit only once the bot is waiting on this transaction.
                wait_for_a_blocked_session()
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    def bot_plays():
        try:
            inserted.wait(10)
            bot_play(round_id=game_round.pk, user_id=seat.user_id, turn=0, now=seat.bot_next_turn_at)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            bot_done.set()
            connection.close()

    threads = [threading.Thread(target=ann_submits), threading.Thread(target=bot_plays)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert list(FoundWord.objects.filter(round=game_round).values_list("user_id", "word")) == [(ann_id, word)]
    seat.refresh_from_db()
    assert seat.bot_turn == 1


def hunt_path(game_round, word):
    from games.engine import hunt

    return hunt.find_path(hunt.Board.from_text(game_round.board), word)


def wait_for_a_blocked_session(seconds: float = 10) -> None:
    """Return once another session of this database waits for a lock (or after ``seconds``)."""
    import time

    from django.db import connections

    with connections["default"].cursor() as cursor:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.05)
