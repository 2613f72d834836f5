"""The live-round benchmark's floor: the same websocket messages with no game behind them.

``python -m bench.bench_live_round --floor`` serves the table sockets with this app: the
same middleware (origin check, session and user), the same channel layer, the table
consumer's own dispatch and fan-out handlers, and the same messages (a state on
connect, a result for every submission, a find sent to the table's group for every new
word), but no Redis count, no database statement and no judging. Its CPU per submission
is what daphne, channels and the channel layer cost for this pattern of messages: no
change to the site's own submit path can go below it.
"""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from config.realtime import ServerLoopMiddleware, encoded  # noqa: E402
from config.startup import freeze_start_up_objects  # noqa: E402
from config.websocket import socket_auth  # noqa: E402
from games.hunts.broadcasts import table_group  # noqa: E402
from games.hunts.consumers import TableConsumer  # noqa: E402


class FloorTableConsumer(TableConsumer):
    """A table socket that takes every word not yet sent at its table, without a game."""

    message_types = frozenset({"submit"})
    taken: dict[int, set[str]] = {}  # table -> words sent there, in this process

    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.answered = set()
        await self.accept()
        await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        await self.send_json({"type": "state", "me": {"user_id": self.user.pk, "seated": True}})

    async def disconnect(self, code):
        await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)

    async def on_submit(self, message):
        round_id, word = message["round_id"], message["word"]
        reply = {"type": "result", "word": word, "points": 1, "path": [], "bonuses": [], "id": message["id"]}
        words = self.taken.setdefault(self.table_id, set())
        if word in words:
            await self.send_json({**reply, "outcome": "taken", "reason": f"{word.upper()} is already taken."})
            return
        words.add(word)
        found = {
            "type": "round.found",
            "round_id": round_id,
            "word": word,
            "points": 1,
            "user_id": self.user.pk,
            "name": self.user.shown_name,
            "bonuses": [],
            "path": [],
        }
        await self.channel_layer.group_send(
            table_group(self.table_id), encoded(found, round_id=round_id, user_id=self.user.pk, word=word)
        )
        self.answered.add((round_id, word))
        await self.send_json({**found, **reply, "outcome": "accepted", "reason": ""})


application = ServerLoopMiddleware(
    ProtocolTypeRouter(
        {
            "websocket": AllowedHostsOriginValidator(
                socket_auth(URLRouter([path("ws/hunts/<int:table_id>/", FloorTableConsumer.as_asgi())]))
            )
        }
    )
)

freeze_start_up_objects()  # as config/asgi.py does
