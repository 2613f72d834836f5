"""/metrics: the Prometheus exposition of every process of the machine, for this machine only."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from datetime import timedelta

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from config import metrics
from games.hunts import services
from games.hunts.models import HuntRound
from tests.integration import test_scale_out
from tests.integration.test_scale_out import BOARD, Socket

second_web = test_scale_out.second_web  # a second daphne process on the same database and Redis

pytestmark = pytest.mark.django_db(transaction=True)


def scrape(site, **headers) -> dict[tuple[str, tuple], float]:
    """Every sample of the site's /metrics, parsed by prometheus-client's own parser."""
    request = urllib.request.Request(f"{site.url}/metrics", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        text = response.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples, name: str, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def wait_until(test, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = test()
        if result:
            return result
        time.sleep(0.25)
    raise AssertionError("not in time")


def test_a_scrape_of_one_process_counts_the_submissions_and_sockets_of_both(live_site, second_web, make_user):
    """A word accepted on each of two daphne processes: one scrape counts both, and the open sockets of both."""
    ann, bob = make_user("ann"), make_user("bob")
    table = services.table_create(host=ann, seat_count=2)
    services.table_join(table_id=table.pk, user=bob)
    before = scrape(live_site)
    urllib.request.urlopen(f"{second_web.url}/", timeout=10).read()
    path = f"/ws/hunts/{table.pk}/"
    ann_ws, bob_ws = Socket(live_site, path, ann), Socket(second_web, path, bob)
    try:
        for ws in (ann_ws, bob_ws):
            ws.wait_for(lambda m: m["type"] == "state")
        game_round = services.round_start(table_id=table.pk, by=ann)
        now = timezone.now()
        HuntRound.objects.filter(pk=game_round.pk).update(
            board=BOARD.to_text(), starts_at=now - timedelta(seconds=1), deadline=now + timedelta(seconds=60)
        )
        for ws in (ann_ws, bob_ws):
            ws.wait_for(lambda m: m["type"] == "state" and m["round"] and m["round"]["id"] == game_round.pk)
        ann_ws.send({"type": "submit", "round_id": game_round.pk, "word": "cat", "id": 1})
        assert ann_ws.wait_for(lambda m: m["type"] == "result")["outcome"] == "accepted"
        bob_ws.send({"type": "submit", "round_id": game_round.pk, "word": "sex", "id": 2})
        assert bob_ws.wait_for(lambda m: m["type"] == "result")["outcome"] == "accepted"
        bob_ws.send({"type": "submit", "round_id": game_round.pk, "word": "cat", "id": 3})
        assert bob_ws.wait_for(lambda m: m["type"] == "result" and m.get("id") == 3)["outcome"] == "taken"

        during = scrape(live_site)
        accepted = "wordfall_hunt_submissions_total"
        assert value(during, accepted, outcome="accepted") - value(before, accepted, outcome="accepted") == 2
        assert value(during, accepted, outcome="taken") - value(before, accepted, outcome="taken") == 1
        broadcast = "wordfall_hunt_submit_to_broadcast_seconds_count"
        assert value(during, broadcast) - value(before, broadcast) == 2
        assert value(during, "wordfall_websockets_open", kind="hunts") >= 2
        home = "wordfall_http_request_duration_seconds_count"
        labels = {"view": "home", "method": "GET", "status": "2xx"}
        assert value(during, home, **labels) - value(before, home, **labels) == 1
    finally:
        ann_ws.close()
        bob_ws.close()
    after = wait_until(
        lambda: (s := scrape(live_site)) and value(s, "wordfall_websockets_open", kind="hunts") == 0 and s
    )
    assert value(after, accepted, outcome="accepted") == value(during, accepted, outcome="accepted")


def test_celery_tasks_and_sweeps_are_measured_and_the_queue_length_shown(live_site):
    """The live worker's beat sweeps show up with their run times; the queue's length is a sample."""
    samples = wait_until(
        lambda: (
            (s := scrape(live_site))
            and value(s, "wordfall_celery_task_duration_seconds_count", task="games.hunts.tasks.sweep") > 0
            and s
        )
    )
    assert any(name == "wordfall_celery_queue_length" for name, _ in samples)


@pytest.mark.parametrize("headers", [{"X-Forwarded-For": "203.0.113.9"}, {"X-Forwarded-For": "127.0.0.1"}])
def test_a_request_through_a_proxy_is_not_shown_the_metrics(live_site, headers):
    """Behind a proxy on the same machine every player arrives from loopback: a forwarded request gets a 404."""
    with pytest.raises(urllib.error.HTTPError) as refused:
        scrape(live_site, **headers)
    assert refused.value.code == 404


def test_with_a_token_only_its_bearer_may_scrape(client, settings):
    """METRICS_TOKEN set: no header or a wrong one is a 404, the right bearer gets the exposition."""
    settings.METRICS_TOKEN = "s3cret-scrape-token"
    # A family shows once a process of the folder has it: this test's own, not an earlier test's.
    metrics.HUNT_SUBMISSIONS.labels(outcome="refused").inc(0)
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    answer = client.get("/metrics", REMOTE_ADDR="198.51.100.7", HTTP_AUTHORIZATION="Bearer s3cret-scrape-token")
    assert answer.status_code == 200
    families = {family.name for family in text_string_to_metric_families(answer.content.decode())}
    assert {"wordfall_hunt_submissions", "wordfall_http_request_duration_seconds"} <= families
