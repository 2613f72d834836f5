"""A client flooding a socket with refused messages writes a log line now and then, not one each."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from asgiref.sync import sync_to_async

from config.websocket import JsonMessageConsumer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def replies(ws, count: int) -> list[dict]:
    got = []
    while len(got) < count:
        message = json.loads(await ws.receive_from(timeout=5))
        if message["type"] == "error":
            got.append(message)
    return got


def refusal_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "wordfall.websocket" and "Refused" in r.getMessage()]


async def test_refused_messages_are_logged_once_per_socket_per_interval(ws_connect, make_user, caplog, monkeypatch):
    """Forty refused messages: every one answered, one line logged; the next line, an
    interval later, counts those left out."""
    monkeypatch.setattr(JsonMessageConsumer, "refusal_log_seconds", 1.0)
    caplog.set_level(logging.WARNING, logger="wordfall.websocket")
    ann = await sync_to_async(make_user)("ann")
    ws = await ws_connect("/ws/presence/", ann)
    for _ in range(40):
        await ws.send_to(text_data="not json")
    assert len(await replies(ws, 40)) == 40
    assert len(refusal_lines(caplog)) == 1
    await asyncio.sleep(1.1)
    await ws.send_to(text_data="not json")
    await replies(ws, 1)
    lines = refusal_lines(caplog)
    assert len(lines) == 2 and "39 more refused since the last logged" in lines[1]


async def test_each_socket_has_its_own_interval(ws_connect, make_user, caplog):
    """A second socket's first refusal is logged although the first socket's was just now."""
    caplog.set_level(logging.WARNING, logger="wordfall.websocket")
    ann, bob = await sync_to_async(make_user)("ann"), await sync_to_async(make_user)("bob")
    first, second = await ws_connect("/ws/presence/", ann), await ws_connect("/ws/presence/", bob)
    for ws in (first, second):
        await ws.send_to(text_data="[]")
        await replies(ws, 1)
    assert len(refusal_lines(caplog)) == 2
