"""A real daphne closes the site's sockets with codes the websocket protocol allows.

RFC 6455 leaves 4000-4999 to applications; 1012 and 1013 are refused by daphne's
websocket library (autobahn), which logs a traceback and sends 1011 instead.
"""

from __future__ import annotations

import time

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect_sync

from accounts.models import OnlineConnection
from config.websocket import CloseCode
from tests.conftest import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


def channel_of(user, seconds: float = 10) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        channel = OnlineConnection.objects.filter(user=user).values_list("channel_name", flat=True).first()
        if channel:
            return channel
        time.sleep(0.05)
    raise AssertionError("the site socket never registered")


def close_code_after(live_site, user, event: dict) -> int:
    """Open ``user``'s site socket, send its channel ``event``, return the code it closes with."""
    headers = {"Origin": live_site.url, "Cookie": session_cookie_for(user)}
    url = live_site.url.replace("http://", "ws://") + "/ws/presence/"
    with ws_connect_sync(url, additional_headers=headers, open_timeout=10) as socket:
        channel = channel_of(user)
        async_to_sync(get_channel_layer().send)(channel, event)
        try:
            while True:
                socket.recv(timeout=10)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else 1006
        except TimeoutError:
            raise AssertionError("the socket was not closed") from None


def daphne_log(live_site) -> str:
    return (live_site.logs / f"daphne-{live_site.port}.log").read_text()


@pytest.mark.parametrize(
    ("event", "code"),
    [({"type": "layer.reconnected"}, CloseCode.RESYNC), ({"type": "socket.behind"}, CloseCode.BEHIND)],
    ids=["channel-layer-reconnected", "socket-behind-its-events"],
)
def test_the_client_receives_the_intended_close_code_and_nothing_is_logged(live_site, make_user, event, code):
    """A socket told to come back closes with the site's own code, and daphne logs no traceback."""
    ann = make_user("ann")
    logged_before = len(daphne_log(live_site))
    assert close_code_after(live_site, ann, event) == code
    time.sleep(0.5)  # daphne writes its log after the close frame is sent
    logged = daphne_log(live_site)[logged_before:]
    assert "Traceback" not in logged and "invalid close code" not in logged


def test_every_close_code_of_the_site_is_one_the_protocol_leaves_to_applications():
    """Only 1000 and 4000-4999 may be sent; daphne refuses the rest."""
    assert all(4000 <= code <= 4999 for code in CloseCode)


@pytest.mark.asyncio
async def test_closing_with_a_reserved_code_is_a_programming_error():
    """The base consumer refuses a close code outside the applications' range before sending it."""
    from config.websocket import JsonMessageConsumer

    consumer = JsonMessageConsumer()
    with pytest.raises(ValueError, match="1012"):
        await consumer.close(code=1012)
