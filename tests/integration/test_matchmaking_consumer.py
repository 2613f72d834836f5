"""The ranked queue socket and the lobby's queue actions: live status, counts, the jump to
the table, keep-alive pings, cancel, and refusals shown in the panel."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.hunts import services
from games.hunts.models import HuntSeat, QueueEntry
from games.hunts.services import matchmaking

QUEUE = "/ws/hunts/queue/"


async def receive_until(ws, kind, timeout=5, **match):
    while True:
        message = json.loads(await ws.receive_from(timeout=timeout))
        if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
            return message


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_status_counts_and_the_jump_to_the_table(ws_connect, make_user):
    """A player's socket shows their status live; everyone sees the counts; once matched
    both players' pages are sent to the same table."""
    ann, bob = await sync_to_async(make_user)("ann"), await sync_to_async(make_user)("bob")
    ws_ann = await ws_connect(QUEUE, ann)
    assert (await receive_until(ws_ann, "queue.counts"))["counts"] == {"rampage": 0, "classic4": 0, "classic5": 0}
    idle = await receive_until(ws_ann, "queue.status")
    assert idle["state"] == "idle" and "Play ranked: Word Rampage" in idle["html"]
    watcher = await ws_connect(QUEUE)
    assert (await receive_until(watcher, "queue.status"))["state"] == "anonymous"

    await sync_to_async(services.queue_join)(user=ann, pool="rampage")
    waiting = await receive_until(ws_ann, "queue.status")
    assert waiting["state"] == "waiting" and "Looking for Word Rampage opponents" in waiting["html"]
    assert (await receive_until(watcher, "queue.counts"))["counts"]["rampage"] == 1

    ws_bob = await ws_connect(QUEUE, bob)
    await receive_until(ws_bob, "queue.status")
    await sync_to_async(services.queue_join)(user=bob, pool="rampage")
    later = timezone.now() + timedelta(seconds=matchmaking.POLICY.fill_wait)
    await sync_to_async(lambda: QueueEntry.objects.update(seen_at=later))()
    report = await sync_to_async(matchmaking.match_pool)(pool="rampage", now=later)
    assert len(report.tables) == 1
    url = f"/hunts/{report.tables[0]}/"
    assert (await receive_until(ws_ann, "queue.matched"))["url"] == url
    assert (await receive_until(ws_bob, "queue.matched"))["url"] == url


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_pings_keep_the_place_and_cancel_over_the_socket(ws_connect, make_user):
    """A ping refreshes the player's sign of life; cancel leaves the queue; cancelling
    when not queued is refused with a reason and the socket stays open."""
    ann = await sync_to_async(make_user)("ann")
    long_ago = timezone.now() - timedelta(minutes=5)
    await sync_to_async(services.queue_join)(user=ann, pool="classic4", now=long_ago)
    ws = await ws_connect(QUEUE, ann)
    await receive_until(ws, "queue.status", state="waiting")
    await ws.send_to(text_data=json.dumps({"type": "ping"}))
    await receive_until(ws, "pong")
    entry = await sync_to_async(QueueEntry.objects.get)(user=ann)
    assert entry.seen_at > timezone.now() - timedelta(seconds=5)
    report = await sync_to_async(matchmaking.match_pool)(pool="classic4")
    assert report.dropped == ()
    await ws.send_to(text_data=json.dumps({"type": "cancel"}))
    assert (await receive_until(ws, "queue.status"))["state"] == "idle"
    await ws.send_to(text_data=json.dumps({"type": "cancel"}))
    assert (await receive_until(ws, "error"))["reason"] == "You are not waiting in a ranked queue."


@pytest.mark.django_db
def test_lobby_panel_and_actions(client, make_user):
    """The lobby shows Play ranked per pool; htmx actions answer with the panel, refusals
    included; plain posts redirect with a message."""
    ann = make_user("ann")
    page = client.get("/hunts/").content.decode()
    assert "Log in</a> to play ranked" in page
    client.force_login(ann)
    page = client.get("/hunts/").content.decode()
    for name in ("Word Rampage", "Classic 4×4", "Classic 5×5"):
        assert f"Play ranked: {name}" in page
    htmx = {"HTTP_HX_REQUEST": "true"}
    panel = client.post("/hunts/ranked/classic5/join/", **htmx).content.decode()
    assert "Looking for Classic 5×5 opponents" in panel
    second_tab = client.post("/hunts/ranked/classic5/join/", **htmx).content.decode()
    assert "already waiting in the Classic 5×5 queue (in another tab?)" in second_tab
    response = client.post("/hunts/ranked/rampage/join/", follow=True)
    assert "already waiting in the Classic 5×5 queue; cancel it first" in response.content.decode()
    assert client.post("/hunts/ranked/nonsense/join/", follow=True).status_code == 200
    assert "Keep waiting" in client.post("/hunts/ranked/bot/", **htmx).content.decode()
    assert "Play ranked: Word Rampage" in client.post("/hunts/ranked/cancel/", **htmx).content.decode()
    assert not QueueEntry.objects.exists()
    assert client.get("/hunts/ranked/cancel/").status_code == 405


@pytest.mark.django_db
def test_taking_the_bot_offer_goes_to_the_table(client, make_user):
    """After the offer one click leaves the queue for a started casual round with a bot."""
    ann = make_user("ann")
    client.force_login(ann)
    services.queue_join(user=ann, pool="rampage")
    QueueEntry.objects.update(bot_offered_at=timezone.now())
    response = client.post("/hunts/ranked/bot/", HTTP_HX_REQUEST="true")
    seat = HuntSeat.objects.select_related("table").get(user=ann)
    assert response.headers["HX-Redirect"] == seat.table.get_absolute_url()
    assert not seat.table.ranked and seat.table.status == "playing"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_page_asking_for_its_status_is_sent_it_as_it_is_now(ws_connect, make_user):
    """After a click's answer replaced its panel, the page asks for the status: the answer
    is read then, after any status the socket read before the click."""
    ann = await sync_to_async(make_user)("ann")
    ws = await ws_connect(QUEUE, ann)
    assert (await receive_until(ws, "queue.status"))["state"] == "idle"
    # Queued with no news to this socket, as when the click's was published before the
    # socket's subscription took.
    now = timezone.now()
    await sync_to_async(QueueEntry.objects.create)(user=ann, pool="rampage", rating=1500, joined_at=now, seen_at=now)
    await ws.send_json_to({"type": "status"})
    message = await receive_until(ws, "queue.status")
    assert message["state"] == "waiting" and "Looking for Word Rampage opponents" in message["html"]
