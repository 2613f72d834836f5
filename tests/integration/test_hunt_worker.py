"""Hunt rounds driven by a real Celery worker through the Redis broker: bots and round ends."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import hunt
from games.hunts import services, tasks
from games.hunts.models import FoundWord, HuntRound, HuntTable, RoundStatus
from tests.conftest import celery_worker_running

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def wait_until(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.25)
    return condition()


def test_bot_round_runs_to_completion(celery_worker, make_user):
    """Two bots play a whole round: they find real words until the deadline, then it is scored."""
    ann = make_user("ann")
    table = services.table_create(host=ann, seat_count=3, bots=("hard", "medium"))
    HuntTable.objects.filter(pk=table.pk).update(round_seconds=30)  # the shortest a table allows
    game_round = services.round_start(table_id=table.pk, by=ann)
    assert wait_until(lambda: HuntRound.objects.get(pk=game_round.pk).status == RoundStatus.FINISHED, 50)
    game_round.refresh_from_db()
    words = list(FoundWord.objects.filter(round=game_round))
    bots = {p.user_id for p in game_round.players.exclude(bot_strength="")}
    assert len(words) >= 8 and {w.user_id for w in words} == bots
    assert all(w.found_at < game_round.deadline for w in words)
    on_board = hunt.solve(hunt.Board.from_text(game_round.board), _en(), 2)
    assert all(w.word in on_board for w in words)
    scores = {p.user_id: p.score for p in game_round.players.all()}
    for user_id in bots:
        assert scores[user_id] == sum(w.points for w in words if w.user_id == user_id)
    assert scores[ann.pk] == 0
    # Nothing is found after the deadline, even by bot turns still queued.
    time.sleep(3)
    assert FoundWord.objects.filter(round=game_round).count() == len(words)


def test_round_ends_when_the_worker_comes_back(make_user):
    """The worker is down at the deadline; when it returns the round ends, with the same result."""
    ann, bob = make_user("ann"), make_user("bob")
    table = services.table_create(host=ann)
    services.table_join(table_id=table.pk, user=bob)
    game_round = services.round_start(table_id=table.pk, by=ann)
    past = timezone.now() - timedelta(seconds=1)
    HuntRound.objects.filter(pk=game_round.pk).update(starts_at=past - timedelta(seconds=60), deadline=past)
    # The end task the server queued for this deadline while no worker was running:
    tasks.end_round.apply_async((game_round.pk,), eta=past)
    with celery_worker_running():
        assert wait_until(lambda: HuntRound.objects.get(pk=game_round.pk).status == RoundStatus.FINISHED, 20)
        ended_at = HuntRound.objects.get(pk=game_round.pk).ended_at
        tasks.sweep.delay()  # a late sweep or a second end task changes nothing
        tasks.end_round.delay(game_round.pk)
        time.sleep(2)
    again = HuntRound.objects.get(pk=game_round.pk)
    assert again.ended_at == ended_at
    assert {p.is_draw for p in again.players.all()} == {True}


def test_sweep_task_ends_a_round_whose_task_was_lost(celery_worker, make_user):
    """A round past its deadline with no end task is ended by the sweep task."""
    ann, bob = make_user("ann"), make_user("bob")
    table = services.table_create(host=ann)
    services.table_join(table_id=table.pk, user=bob)
    game_round = services.round_start(table_id=table.pk, by=ann)
    HuntRound.objects.filter(pk=game_round.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    tasks.sweep.delay()
    assert wait_until(lambda: HuntRound.objects.get(pk=game_round.pk).status == RoundStatus.FINISHED, 20)


def _en():
    from lexicon.services import get_lexicon

    return get_lexicon("en")
