"""Sweep catch-ups: the work a beat sweep did because the task queued for it was lost.

Not beside a live site: its beat would run the same sweeps on these rows.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from config import metrics
from games.hunts import services, tasks
from games.hunts.models import HuntRound, HuntTable
from games.ratings import tasks as rating_tasks
from games.ratings.models import RatedResult
from tests.integration.test_ratings_services import record

pytestmark = pytest.mark.django_db


def catch_ups(task) -> float:
    return metrics.SWEEP_CATCH_UPS.labels(task.name)._value.get()


def test_a_sweep_counts_the_work_whose_task_was_lost_and_not_its_routine_work(make_user):
    """Closing a table left idle is the sweep's own work: not a catch-up. Ending a round
    whose end task never ran is: the alert on catch-ups means work is being lost."""
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    idle = services.table_create(host=cat, seat_count=2)
    HuntTable.objects.filter(pk=idle.pk).update(created_at=timezone.now() - timedelta(days=1))
    before = catch_ups(tasks.sweep)
    assert tasks.sweep()["tables_closed"] == [idle.pk]
    assert catch_ups(tasks.sweep) == before
    table = services.table_create(host=ann, seat_count=2)
    services.table_join(table_id=table.pk, user=bob)
    game_round = services.round_start(table_id=table.pk, by=ann)
    now = timezone.now()
    HuntRound.objects.filter(pk=game_round.pk).update(
        starts_at=now - timedelta(minutes=3), deadline=now - timedelta(minutes=1)
    )
    assert tasks.sweep()["rounds_ended"] == [game_round.pk]
    assert catch_ups(tasks.sweep) == before + 1


def test_a_rating_sweep_counts_only_the_results_left_waiting(make_user):
    """The pool's pass applies a result whose task is still on its way too; only the
    one left waiting past the grace is a catch-up."""
    ann, bob = make_user("ann"), make_user("bob")
    late = record("rampage", [ann, bob], [1, 2])
    record("rampage", [ann, bob], [2, 1])
    RatedResult.objects.filter(pk=late.pk).update(finished_at=timezone.now() - timedelta(minutes=1))
    before = catch_ups(rating_tasks.sweep)
    assert rating_tasks.sweep() == {"rampage": 2}
    assert catch_ups(rating_tasks.sweep) == before + 1
