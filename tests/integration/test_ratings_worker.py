"""Rating updates through a real Celery worker: queued after commit, retried, applied once."""

from __future__ import annotations

import time

import pytest
from django.db import OperationalError, transaction

from games.ratings import services
from games.ratings.models import RatedResult, Rating
from games.ratings.services import Finish

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def wait_until(check, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def test_a_committed_result_is_applied_by_the_worker(celery_worker, make_user):
    """Recording in a committed transaction queues the update; the worker applies it."""
    ann, bob = make_user("ann"), make_user("bob")
    with transaction.atomic():
        result = services.result_record(
            pool="classic4", kind="hunt", object_id=1, finishes=[Finish(ann.pk, 2), Finish(bob.pk, 1)]
        )
    assert wait_until(lambda: RatedResult.objects.get(pk=result.pk).applied)
    assert Rating.objects.get(user=bob, pool="classic4").rating > 1500


def test_a_rolled_back_result_queues_nothing_and_rates_nothing(celery_worker, make_user):
    """A game whose transaction rolls back leaves no result and no rating."""
    ann, bob = make_user("ann"), make_user("bob")
    with pytest.raises(RuntimeError), transaction.atomic():
        services.result_record(
            pool="classic4", kind="hunt", object_id=2, finishes=[Finish(ann.pk, 1), Finish(bob.pk, 2)]
        )
        raise RuntimeError("the round failed to save")
    time.sleep(0.5)
    assert not RatedResult.objects.exists() and not Rating.objects.exists()


def test_an_update_that_fails_is_retried_by_the_worker(celery_worker, make_user, monkeypatch):
    """The task fails before applying anything; Celery's retry applies the result."""
    ann, bob = make_user("ann"), make_user("bob")
    real_apply = services.applying._apply_batch
    calls = {"n": 0}

    def flaky(pool, limit):
        calls["n"] += 1
        if calls["n"] == 1:
            raise OperationalError("connection lost mid-task")
        return real_apply(pool, limit)

    monkeypatch.setattr(services.applying, "_apply_batch", flaky)
    with transaction.atomic():
        result = services.result_record(
            pool="wordgame", kind="crossword", object_id=1, finishes=[Finish(ann.pk, 1), Finish(bob.pk, 2)]
        )
    assert wait_until(lambda: RatedResult.objects.filter(pk=result.pk, applied=True).exists())
    # One result, so one task: only its retry can have applied it.
    assert calls["n"] == 2
    assert Rating.objects.get(user=ann, pool="wordgame").games == 1


def test_an_update_that_fails_halfway_applies_each_result_once(celery_worker, make_user, monkeypatch):
    """The task fails after applying the first of two results; the rest is applied later
    (by its retry or by the second result's own task, whichever runs first), and no result
    is applied twice."""
    ann, bob = make_user("ann"), make_user("bob")
    real_apply = services.applying._apply_batch
    calls = {"n": 0}

    def flaky(pool, limit):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OperationalError("connection lost mid-task")
        return real_apply(pool, 1)

    monkeypatch.setattr(services.applying, "_apply_batch", flaky)
    with transaction.atomic():
        first = services.result_record(
            pool="wordgame", kind="crossword", object_id=1, finishes=[Finish(ann.pk, 1), Finish(bob.pk, 2)]
        )
        second = services.result_record(
            pool="wordgame", kind="crossword", object_id=2, finishes=[Finish(ann.pk, 1), Finish(bob.pk, 2)]
        )
    assert wait_until(lambda: RatedResult.objects.filter(pk=second.pk, applied=True).exists())
    assert RatedResult.objects.get(pk=first.pk).applied and calls["n"] >= 3
    assert Rating.objects.get(user=ann, pool="wordgame").games == 2
    assert Rating.objects.get(user=bob, pool="wordgame").games == 2
