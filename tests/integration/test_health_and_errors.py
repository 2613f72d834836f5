"""/healthz and the error pages."""

import json

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_healthz_is_ok_with_database_redis_and_a_worker(client, celery_worker):
    response = client.get("/healthz")
    body = json.loads(response.content)
    assert response.status_code == 200, body
    assert body["database"] == "ok" and body["redis"] == "ok" and body["celery"].startswith("ok")


def test_healthz_names_the_engine_build_it_runs(client):
    """Compiled or pure Python, and why: what the process imported."""
    from games.engine import build

    body = json.loads(client.get("/healthz").content)
    assert body["engine"] == build.status().detail
    assert body["engine"].startswith("compiled with Cython" if build.status().compiled else "pure Python (")


@pytest.fixture
def broker_without_workers(monkeypatch):
    """/healthz pings through a Celery app on a Redis server of its own, where no worker listens.

    A separate app leaves the project app's connection pools alone; the live site's
    worker, if a browser test started it, listens on the project app's broker.
    """
    from celery import Celery

    from tests.services import RedisServer

    with RedisServer() as server:
        # Not the current app: tasks sent later in the session must keep using the project app.
        lonely = Celery("healthz-test", broker=server.url, set_as_current=False)
        monkeypatch.setattr("config.celery.app", lonely)
        yield
        lonely.close()


def test_healthz_reports_a_missing_worker(client, broker_without_workers):
    response = client.get("/healthz")
    body = json.loads(response.content)
    assert response.status_code == 503
    assert body["celery"].startswith("down")
    assert body["database"] == "ok"


def test_healthz_reports_redis_down(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    body = json.loads(response.content)
    assert response.status_code == 503
    assert body["redis"].startswith("down")


def test_healthz_reports_the_database_down(client, monkeypatch):
    from django.db.backends.utils import CursorWrapper

    def broken(*args, **kwargs):
        from django.db import OperationalError

        raise OperationalError("connection refused")

    monkeypatch.setattr(CursorWrapper, "execute", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert json.loads(response.content)["database"].startswith("down")


def test_a_failing_page_shows_the_500_page_not_a_traceback(client, monkeypatch):
    from accounts import views

    def explode(request):
        raise RuntimeError("boom")

    monkeypatch.setattr(views.services, "online_players", lambda: explode(None))
    client.raise_request_exception = False
    response = client.get("/")
    assert response.status_code == 500
    assert b"Something went wrong on our side." in response.content
    assert b"Traceback" not in response.content
