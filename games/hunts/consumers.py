"""Hunt sockets: the live lobby and a table (players submit; watchers only see).

Thin: they authenticate, parse, call a service or selector, and send.
"""

from __future__ import annotations

import time

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async

from chat.consumers import ChatMixin
from chat.rooms import Room
from config import metrics
from config.errors import Refused
from config.websocket import CloseCode, JsonMessageConsumer
from games.hunts import selectors, services
from games.hunts.broadcasts import LOBBY_GROUP, lobby_tables_message, player_group, table_group
from games.hunts.models import RoundStatus
from games.hunts.rooms import TABLE, WATCHERS


class LobbyConsumer(JsonMessageConsumer):
    message_types = frozenset({"ping"})

    async def connect(self):
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self.send_json(await database_sync_to_async(lobby_tables_message)())

    async def disconnect(self, code):
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def on_ping(self, message):
        await self.send_json({"type": "pong"})

    async def lobby_tables(self, event):
        await self.send_json(event)


def _parallel(function):
    """Run ``function`` in a worker thread of its own rather than the one shared thread.

    Hunt reads and use cases are independent transactions (the database orders them),
    so many sockets' calls can run at once instead of queueing behind each other.
    """
    return database_sync_to_async(function, thread_sensitive=False)


def _follow_round(state: dict) -> None:
    """A round playing or counting down at the table: this process gets ready for its
    words. A round over: the process forgets its finds (its facts refuse what comes late)."""
    game_round = state.get("round")
    if game_round is not None and game_round["status"] == RoundStatus.PLAYING:
        services.round_prepare_soon(game_round["id"])
    elif game_round is not None:
        services.forget_finds(game_round["id"])


# Each outcome's counter, looked up once: a word's reply is the busiest path of the site.
_SUBMISSIONS: dict = {}


class TableConsumer(ChatMixin, JsonMessageConsumer):
    """``/ws/hunts/<table_id>/``: the table's state on connect, live events after."""

    message_types = frozenset({"submit", "start", "ping", "state", "chat", "chat.join"})
    max_message_bytes = 2048
    # Drags can come quickly; the per-player limit on tries to take a word (in the store
    # statement) is the real guard for good words, this bucket for the rest.
    rate_burst = 12
    rate_per_second = 5.0

    async def dispatch(self, message):
        """Run the handler of ``message`` without channels' per-message connection check.

        channels closes stale database connections before every message by a hop into
        the one shared sync thread, so under load every find delivered to every socket
        queued behind the others there. This consumer reaches the database only through
        ``database_sync_to_async``, which closes them itself around each call.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.answered: set[tuple[int, str]] = set()  # finds this socket was told of in a reply
        # Accept before any database work: under load a slow handshake is dropped by the
        # server, while a slow first state message is only a short wait.
        await self.accept()
        state = await _parallel(selectors.table_state)(self.table_id, self.user)
        if state is None:
            await self.close(code=CloseCode.NOT_FOUND)
            return
        self.groups_joined = [table_group(self.table_id)]
        if self.user is not None and self.user.is_authenticated:
            self.groups_joined.append(player_group(self.table_id, self.user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await _parallel(services.connection_open)(
            table_id=self.table_id, channel_name=self.channel_name, user=self.user
        )
        await self.send_json(state)
        _follow_round(state)
        self.chat_place = Room(TABLE.code, self.table_id)
        self.chat_watch_place = Room(WATCHERS.code, self.table_id)

    async def disconnect(self, code):
        await self.chat_close()
        for group in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "groups_joined", None):
            await _parallel(services.connection_close)(channel_name=self.channel_name)

    # -- from the client ---------------------------------------------------------

    async def on_submit(self, message):
        arrived = time.perf_counter()
        round_id = message.get("round_id")
        if type(round_id) is not int:
            raise Refused("A submission names its round.")
        path = message.get("path")
        word = message.get("word")
        result = await services.round_submit_async(
            round_id=round_id, user=self.user, word=word if path is None else None, path=path
        )
        reply = result.as_message()
        counter = _SUBMISSIONS.get(reply["outcome"]) or _SUBMISSIONS.setdefault(
            reply["outcome"], metrics.HUNT_SUBMISSIONS.labels(reply["outcome"])
        )
        counter.inc()
        if reply["outcome"] == "accepted":
            # The find is published before round_submit_async returns.
            metrics.HUNT_SUBMIT_TO_BROADCAST.observe(time.perf_counter() - arrived)
        if "id" in message and isinstance(message["id"], (int, str)):
            reply["id"] = message["id"]
        if reply["outcome"] == "accepted":
            # The reply is this socket's news of its own find: the broadcast of the same
            # find, handled after this handler returns, is not sent to it again.
            self.answered.add((round_id, reply["word"]))
            reply.update(round_id=round_id, user_id=self.user.pk, name=self.user.name_and_username)
        await self.send_json(reply)

    async def on_start(self, message):
        await _parallel(services.round_start)(table_id=self.table_id, by=self.user)

    async def on_ping(self, message):
        await _parallel(services.connection_touch)(channel_name=self.channel_name)
        await self.send_json({"type": "pong"})

    async def on_state(self, message):
        await self._send_state()

    async def layer_reconnected(self, event):
        # Finds and counts may have been lost while Redis was away: send the whole table.
        await self._send_state()
        await self.chat_resend()

    # -- from the services ---------------------------------------------------------

    async def _send_state(self):
        state = await _parallel(selectors.table_state)(self.table_id, self.user)
        if state is not None:
            await self.send_json(state)
            await self._leave_watchers_chat_if_seated(state)

    async def _leave_watchers_chat_if_seated(self, state: dict) -> None:
        """A seated player never reads the watchers' chat: a socket that opened it while
        its user watched (another tab, say) leaves it once the table's state shows them
        seated. Every seat change sends the state, so this needs no read of its own."""
        room = self.chat_watch_place
        if room is None or room.name not in self._chat_open:
            return
        if self.user.pk in {seat["user_id"] for seat in state["seats"]}:
            await self.chat_leave(room)

    async def table_state(self, event):
        """The table's state, read once for every socket (``broadcasts.send_table_state``)."""
        user_id = self.user.pk if self.user is not None and self.user.is_authenticated else None
        if not event.get("own") and user_id in event["private"]:
            return  # this player's own copy comes on their own group
        if event.get("before"):
            await self.send(text_data=event["before"])
        state = selectors.for_viewer(event["state"], user_id)
        await self.send_json(state)
        _follow_round(state)
        await self._leave_watchers_chat_if_seated(state)

    async def table_changed(self, event):
        await self._send_state()

    async def table_watchers(self, event):
        await self.send_encoded(event)

    def _answered(self, event) -> bool:
        key = (event["round_id"], event["word"])
        if event["user_id"] == getattr(self.user, "pk", None) and key in self.answered:
            self.answered.discard(key)
            return True
        return False

    async def round_found(self, event):
        services.find_announced(event["round_id"], event["word"], event["user_id"])
        if not self._answered(event):
            await self.send_encoded(event)

    round_mine = round_found  # Classic: the finder's own word, on their own group

    async def round_count(self, event):
        await self.send_encoded(event)

    async def round_ended(self, event):
        await self.send_encoded(event)
