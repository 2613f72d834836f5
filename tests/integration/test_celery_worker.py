"""A task sent through the real Redis broker runs in a real worker."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import OnlineConnection
from accounts.tasks import sweep_presence

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_task_sent_through_redis_runs_in_a_worker(celery_worker, make_user):
    ann = make_user("ann")
    OnlineConnection.objects.create(channel_name="gone", user=ann, seen_at=timezone.now() - timedelta(hours=1))
    sweep_presence.delay()
    deadline = time.monotonic() + 15
    while OnlineConnection.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not OnlineConnection.objects.exists()
