"""SENTRY_DSN set: a view's, a task's and a socket handler's failure reach the DSN's host, with no personal data."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.django_db(transaction=True)


class SentryStandIn(ThreadingHTTPServer):
    """A local HTTP server in the place of the DSN's host: it keeps every envelope posted to it."""

    def __init__(self):
        self.envelopes: list[tuple[str, list[dict]]] = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(handler):
                body = handler.rfile.read(int(handler.headers["Content-Length"]))
                if handler.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                items = [json.loads(line) for line in body.splitlines() if line.strip().startswith(b"{")]
                self.envelopes.append((handler.path, items))
                handler.send_response(200)
                handler.end_headers()
                handler.wfile.write(b"{}")

            def log_message(handler, *args):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def dsn(self) -> str:
        return f"http://public0key@127.0.0.1:{self.server_address[1]}/42"

    def events(self) -> list[dict]:
        return [item for _, items in self.envelopes for item in items if item.get("event_id") and "exception" in item]


FAILURES = """
import django
django.setup()
import asyncio
from unittest import mock
import sentry_sdk
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from config.websocket import JsonMessageConsumer
from accounts.models import User
import accounts.views
from accounts import tasks

ann = User.objects.create_user("ann", "ann.private@example.org", "pw-ann-123!")
client = Client(raise_request_exception=False)
client.force_login(ann)
with mock.patch.object(accounts.views, "_health", side_effect=RuntimeError("forced view failure")):
    print("view", client.get("/healthz").status_code)
with mock.patch.object(tasks.services, "presence_sweep", side_effect=ValueError("forced task failure")):
    print("task", tasks.sweep_presence.apply().status)


class Failing(JsonMessageConsumer):
    message_types = frozenset({"boom"})

    async def connect(self):
        await self.accept()

    async def on_boom(self, message):
        raise KeyError("forced socket failure")


async def socket_failure():
    # An anonymous visitor's socket, from an address that must not reach the report.
    socket = WebsocketCommunicator(Failing.as_asgi(), "/ws/boom/")
    socket.scope.update(client=("203.0.113.9", 41234), user=AnonymousUser())
    await socket.connect()
    await socket.send_json_to({"type": "boom"})
    print("socket", (await socket.receive_json_from(timeout=10))["type"])
    await socket.disconnect()


asyncio.run(socket_failure())
sentry_sdk.flush(timeout=10)
"""


def test_a_forced_failure_of_a_view_a_task_and_a_socket_is_reported_with_the_release_and_no_personal_data():
    """Three forced failures, three envelopes at the stand-in: each names the release; no email, cookie or address."""
    from django.conf import settings

    from tests.conftest import _database_url

    server = SentryStandIn()
    try:
        env = dict(
            os.environ,
            SENTRY_DSN=server.dsn,
            SENTRY_RELEASE="wordfall@2026.12.1",
            SENTRY_ENVIRONMENT="staging",
            DATABASE_URL=_database_url(settings.DATABASES["default"]),
        )
        result = subprocess.run(
            [sys.executable, "-c", FAILURES], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, result.stderr[-3000:]
        assert "view 500" in result.stdout and "task FAILURE" in result.stdout and "socket error" in result.stdout
        events = server.events()
    finally:
        server.shutdown()

    assert {path for path, _ in server.envelopes} == {"/api/42/envelope/"}
    failures = {event["exception"]["values"][-1]["value"].strip("'\""): event for event in events}
    assert set(failures) == {"forced view failure", "forced task failure", "forced socket failure"}
    for event in failures.values():
        assert event["release"] == "wordfall@2026.12.1" and event["environment"] == "staging"
    assert "healthz" in failures["forced view failure"]["transaction"]
    assert "user" not in failures["forced view failure"]
    text = json.dumps(events)
    assert "ann.private@example.org" not in text
    assert "sessionid" not in text and "127.0.0.1" not in json.dumps([e.get("request") for e in events])
    assert "203.0.113.9" not in text  # the anonymous socket's address
    assert "pw-ann-123!" not in text
    assert all(
        "vars" not in frame for e in events for v in e["exception"]["values"] for frame in v["stacktrace"]["frames"]
    )


def test_without_a_dsn_nothing_is_started():
    """No SENTRY_DSN: sentry-sdk is not set up (no client, nothing sent)."""
    script = "import django; django.setup(); import sentry_sdk; print(sentry_sdk.get_client().is_active())"
    env = {k: v for k, v in os.environ.items() if k != "SENTRY_DSN"}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "False"
