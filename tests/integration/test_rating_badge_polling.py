"""A pending rating badge asks again less and less often, then stops (a worker may be down)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.ratings import services
from games.ratings.templatetags.ratings import POLL_ATTEMPTS, poll_delay

pytestmark = pytest.mark.django_db


def test_poll_delays_grow_then_stop_after_a_few_minutes():
    """1, 2, 4 ... seconds up to 30, about five minutes in all, then no more requests."""
    delays = [poll_delay(n) for n in range(POLL_ATTEMPTS)]
    assert delays[:3] == [1, 2, 4] and max(delays) == 30 and delays == sorted(delays)
    assert 180 <= sum(delays) <= 600
    assert poll_delay(POLL_ATTEMPTS) is None and poll_delay(-1) is None


def test_pending_badge_backs_off_per_attempt_and_gives_up(client, make_user):
    """The fragment names the next attempt and its longer delay; after the last it stops polling."""
    ann, bob = make_user("ann"), make_user("bob")
    services.result_record(
        pool="rampage", kind="hunt", object_id=997, finishes=[services.Finish(ann.pk, 1), services.Finish(bob.pk, 2)]
    )
    url = reverse("ratings:change", args=["hunt", 997, ann.pk])
    first = client.get(url).content.decode()
    assert 'hx-trigger="load delay:1s"' in first and f'{url}?attempt=1"' in first
    third = client.get(url, {"attempt": 3}).content.decode()
    assert 'hx-trigger="load delay:8s"' in third and f'{url}?attempt=4"' in third
    for last in (POLL_ATTEMPTS, 10**9):
        done = client.get(url, {"attempt": last}).content.decode()
        assert 'data-rating-change="pending"' in done and "hx-get" not in done
    assert "delay:1s" in client.get(url, {"attempt": "x"}).content.decode()
