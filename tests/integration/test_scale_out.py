"""Two web processes on one PostgreSQL and one Redis: players on either see the same game.

The live site (``live_site``: daphne, a Celery worker and beat) is one web process; a
second daphne on another port is the other, as two processes behind a load balancer.
"""

from __future__ import annotations

import json
import sys
import threading
import time
import urllib.parse
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from websockets.sync.client import connect as ws_connect_sync

from games.crosswords import selectors as crossword_selectors
from games.crosswords import services as crossword_services
from games.crosswords.models import Game as CrosswordGame
from games.engine import hunt, movegen
from games.hunts import services
from games.hunts.models import HuntRound
from tests.conftest import LiveSite, session_cookie_for, wait_for_port

pytestmark = pytest.mark.django_db(transaction=True)

BOARD = hunt.Board(
    [["c", "a", "t", "s"], ["o", "r", "e", "x"], ["d", "i", "n", "g"], ["p", "l", "u", "m"]],
    bonuses={(0, 0): "3L", (0, 2): "3W", (2, 2): "2L", (3, 3): "2L"},
)


@pytest.fixture(scope="module")
def second_web(live_site):
    """Another daphne process on the same database, Redis and channel-layer prefix."""
    site = LiveSite(live_site.env)
    web = site._spawn(
        "daphne",
        [
            str(Path(sys.executable).parent / "daphne"),
            "-b",
            "127.0.0.1",
            "-p",
            str(site.port),
            "config.asgi:application",
        ],
    )
    wait_for_port(site.port, web)
    yield site
    site.stop()


class Socket:
    """A page's websocket on one web process; every message it receives, in order."""

    def __init__(self, site, path: str, user):
        self.cookie = session_cookie_for(user)
        headers = {"Origin": site.url, "Cookie": self.cookie}
        self.socket = ws_connect_sync(
            site.url.replace("http://", "ws://") + path, additional_headers=headers, open_timeout=10
        )
        self.messages: list[dict] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            with self.socket:
                while True:
                    message = json.loads(self.socket.recv())
                    with self.lock:
                        self.messages.append(message)
        except Exception:  # closed at the end of the test
            pass

    def send(self, message: dict) -> None:
        self.socket.send(json.dumps(message))

    def wait_for(self, test, seconds: float = 10) -> dict:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self.lock:
                found = next((m for m in self.messages if test(m)), None)
            if found is not None:
                return found
            time.sleep(0.05)
        raise AssertionError(f"no such message; got {[m.get('type') for m in self.messages]}")

    def close(self) -> None:
        self.socket.close()


def test_hunt_players_on_two_processes_see_each_others_finds_and_the_same_results(live_site, second_web, make_user):
    """ann on one process and bob on the other: each sees the other's find live, and both get the same results."""
    ann, bob = make_user("ann"), make_user("bob")
    table = services.table_create(host=ann, seat_count=2)
    services.table_join(table_id=table.pk, user=bob)
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
        bob_ws.send({"type": "submit", "round_id": game_round.pk, "word": "sex", "id": 2})
        assert ann_ws.wait_for(lambda m: m["type"] == "result")["outcome"] == "accepted"
        assert bob_ws.wait_for(lambda m: m["type"] == "result")["outcome"] == "accepted"
        assert bob_ws.wait_for(lambda m: m["type"] == "round.found" and m["word"] == "cat")["name"] == "ann"
        assert ann_ws.wait_for(lambda m: m["type"] == "round.found" and m["word"] == "sex")["name"] == "bob"
        services.round_end(round_id=game_round.pk, now=now + timedelta(seconds=61))
        ended = [ws.wait_for(lambda m: m["type"] == "round.ended") for ws in (ann_ws, bob_ws)]
        assert ended[0]["html"] == ended[1]["html"] and "CAT" in ended[0]["html"].upper()
        finished = [
            ws.wait_for(lambda m: m["type"] == "state" and (m["round"] or {}).get("status") == "finished")
            for ws in (ann_ws, bob_ws)
        ]
        scores = [{s["name"]: s["score"] for s in state["seats"]} for state in finished]
        assert scores[0] == scores[1] == {"ann": 33, "bob": 10}
    finally:
        ann_ws.close()
        bob_ws.close()


def _post(site, path: str, cookie: str, fields: dict) -> tuple[int, str]:
    """A form post from a signed-in page (its CSRF cookie and header)."""
    token = "t" * 32
    request = urllib.request.Request(
        site.url + path,
        data=urllib.parse.urlencode(fields).encode(),
        method="POST",
        headers={
            "Cookie": f"{cookie}; csrftoken={token}",
            "X-CSRFToken": token,
            "Origin": site.url,
            "Referer": site.url + "/",
            "HX-Request": "true",
        },
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read().decode()


def test_crossword_players_on_two_processes(live_site, second_web, make_user):
    """ann moves through one process; bob's page on the other hears it and draws the same board."""
    ann, bob = make_user("ann"), make_user("bob")
    game = crossword_services.game_create(creator=ann, variant="wordgrid", seconds_per_move=86400, invitees=[bob])
    # A fixed deal with a play in the first rack: a random one sometimes has none.
    CrosswordGame.objects.filter(pk=game.pk).update(seed="queries-short")
    crossword_services.game_accept(game_id=game.pk, player=bob)
    game.refresh_from_db()
    first, second = (ann, bob) if game.to_move == 0 else (bob, ann)
    path = f"/ws/games/{game.pk}/"
    first_ws, second_ws = Socket(live_site, path, first), Socket(second_web, path, second)
    try:
        for ws in (first_ws, second_ws):
            ws.wait_for(lambda m: m["type"] == "hello")
        state = crossword_selectors.engine_state(game)
        play = movegen.best(state.board, state.racks[state.to_move], state.variant, state.lexicon)
        status, html = _post(
            live_site,
            f"/games/{game.pk}/play/",
            first_ws.cookie,
            {"placement": json.dumps([list(t) for t in play.placement]), "move_count": 0},
        )
        assert status == 200 and 'data-move-count="1"' in html
        assert second_ws.wait_for(lambda m: m["type"] == "moved")["move_count"] == 1
        request = urllib.request.Request(
            second_web.url + f"/games/{game.pk}/", headers={"Cookie": second_ws.cookie, "HX-Request": "true"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            page = response.read().decode()
        assert 'data-move-count="1"' in page
        assert CrosswordGame.objects.get(pk=game.pk).move_count == 1
    finally:
        first_ws.close()
        second_ws.close()
