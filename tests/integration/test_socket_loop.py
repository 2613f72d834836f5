"""The site sockets' own dispatch loop (``config.websocket.JsonMessageConsumer.__call__``):
one message at a time, in the order each source gave them, from the client and the
channel layer alike; a failing source ends the socket instead of leaving it deaf."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from config.websocket import CloseCode, JsonMessageConsumer

pytestmark = pytest.mark.asyncio


class GroupSocket(JsonMessageConsumer):
    """A socket in the channel-layer group ``group`` while it is open."""

    group: str

    async def connect(self):
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)


class SlowConsumer(GroupSocket):
    """Notes when each handler starts and ends, and takes a while over each."""

    group = "socket-loop-test"
    message_types = frozenset({"note"})
    journal: list[str] = []

    async def _handle(self, name):
        self.journal.append(f"start {name}")
        await asyncio.sleep(0.02)
        self.journal.append(f"end {name}")
        await self.send_json({"type": "done", "name": name})

    async def on_note(self, message):
        await self._handle(message["name"])

    async def group_note(self, event):
        await self._handle(event["name"])


async def test_client_and_group_messages_are_handled_one_at_a_time_in_order():
    SlowConsumer.journal = []
    socket = WebsocketCommunicator(SlowConsumer.as_asgi(), "/test/")
    connected, _ = await socket.connect(timeout=5)
    assert connected
    layer = get_channel_layer()
    names = []
    for i in range(4):
        await socket.send_json_to({"type": "note", "name": f"client{i}"})
        await layer.group_send("socket-loop-test", {"type": "group.note", "name": f"group{i}"})
        names += [f"client{i}", f"group{i}"]
    done = [(await socket.receive_json_from(timeout=5))["name"] for _ in names]
    await socket.disconnect()

    assert sorted(done) == sorted(names)
    # Never two handlers at once: every start is followed by its own end.
    journal = SlowConsumer.journal
    assert all(
        journal[i].startswith("start ") and journal[i + 1] == "end " + journal[i][6:] for i in range(0, len(journal), 2)
    )
    # Each source's messages in the order they were sent.
    for source in ("client", "group"):
        assert [n for n in done if n.startswith(source)] == [f"{source}{i}" for i in range(4)]


class BrokenLayer:
    async def new_channel(self):
        return "broken.channel"

    async def receive(self, channel):
        raise ConnectionError("the channel layer is gone")


async def test_a_failing_source_ends_the_socket(monkeypatch):
    monkeypatch.setattr("config.websocket.get_channel_layer", lambda alias: BrokenLayer())
    socket = WebsocketCommunicator(JsonMessageConsumer.as_asgi(), "/test/")
    with pytest.raises(ConnectionError):
        await socket.connect(timeout=5)
        await socket.receive_output(timeout=5)


class StuckConsumer(GroupSocket):
    """A socket whose handler of group events waits until it is let go."""

    group = "socket-loop-stuck"
    max_waiting_events = 5
    let_go: asyncio.Event

    async def group_note(self, event):
        await self.let_go.wait()
        await self.send_json({"type": "done", "name": event["name"]})


async def test_a_socket_that_falls_behind_its_events_is_closed_to_come_back():
    StuckConsumer.let_go = asyncio.Event()
    socket = WebsocketCommunicator(StuckConsumer.as_asgi(), "/test/")
    connected, _ = await socket.connect(timeout=5)
    assert connected
    layer = get_channel_layer()
    for i in range(20):
        await layer.group_send("socket-loop-stuck", {"type": "group.note", "name": f"event{i}"})
    await asyncio.sleep(0.2)  # all of them reach the socket's carrier
    StuckConsumer.let_go.set()
    outputs = []
    while not outputs or outputs[-1]["type"] != "websocket.close":
        outputs.append(await socket.receive_output(timeout=5))
    # The events that fitted behind the stuck one are sent in order, the rest dropped; then
    # the socket closes, for its page to come back and be sent its whole state.
    sent = [o["text"] for o in outputs[:-1]]
    assert StuckConsumer.max_waiting_events <= len(sent) <= StuckConsumer.max_waiting_events + 1
    assert sent == [f'{{"type":"done","name":"event{i}"}}' for i in range(len(sent))]
    assert outputs[-1] == {"type": "websocket.close", "code": CloseCode.BEHIND}
    await socket.disconnect()
