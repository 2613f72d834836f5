"""Chat at hunt tables and in crossword games: services, moderation, and the live sockets."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from chat import rooms, selectors, services
from chat.models import Message, Mute, Report, Suspension
from config.errors import Refused
from games.crosswords import services as crosswords
from games.crosswords.services import bots as crossword_bots
from games.hunts import services as hunts

DAY = 86400


def duel(make_user, *names):
    ann, bob = make_user(names[0] if names else "ann"), make_user(names[1] if names else "bob")
    game = crosswords.game_create(creator=ann, variant="wordgrid", seconds_per_move=DAY, invitees=[bob])
    crosswords.game_accept(game_id=game.pk, player=bob)
    return game, ann, bob


def hunt_table(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    table = hunts.table_create(host=ann, seat_count=2)
    hunts.table_join(table_id=table.pk, user=bob)
    return table, ann, bob


# -- posting -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_message_is_stored_as_plain_text_and_markup_stays_text(make_user):
    """Markup is kept as the characters typed (the page shows it as text); control characters go."""
    game, ann, bob = duel(make_user)
    room = rooms.Room("crossword", game.pk)
    message = services.message_post(room=room, user=ann, text="  <script>alert(1)</script>\n&amp;\u200b ok ")
    assert message.text == "<script>alert(1)</script> &amp; ok"
    assert message.room == f"crossword.{game.pk}"
    history = selectors.opening(room, bob)
    assert [m["text"] for m in history["messages"]] == ["<script>alert(1)</script> &amp; ok"]


def test_the_chat_script_never_writes_html():
    """chat.js puts names and texts in with textContent, never innerHTML or insertAdjacentHTML."""
    from pathlib import Path

    script = (Path(__file__).resolve().parents[2] / "chat/static/chat/chat.js").read_text()
    assert "textContent = m.text" in script
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script and "outerHTML" not in script


@pytest.mark.django_db
def test_empty_and_too_long_messages_are_refused_and_store_nothing(make_user):
    """A message of 0 or more than 300 characters is refused with a reason; 300 is fine."""
    game, ann, bob = duel(make_user)
    room = rooms.Room("crossword", game.pk)
    for text in ("", "   \n ", "x" * 301, None, 5):
        with pytest.raises(Refused):
            services.message_post(room=room, user=ann, text=text)
    assert Message.objects.count() == 0
    with pytest.raises(Refused, match="at most 300"):
        services.message_post(room=room, user=ann, text="y" * 301)
    assert services.message_post(room=room, user=ann, text="z" * 300).text == "z" * 300


@pytest.mark.django_db
def test_a_player_chatting_too_fast_is_refused_until_the_window_passes(make_user):
    """Five messages in ten seconds pass; the sixth is refused; later ones pass again."""
    game, ann, bob = duel(make_user)
    room = rooms.Room("crossword", game.pk)
    start = timezone.now()
    for i in range(5):
        services.message_post(room=room, user=ann, text=f"hi {i}", now=start + timedelta(seconds=i))
    with pytest.raises(Refused, match="too fast") as refused:
        services.message_post(room=room, user=ann, text="one more", now=start + timedelta(seconds=5))
    assert refused.value.status == 429
    assert Message.objects.filter(author=ann).count() == 5
    services.message_post(room=room, user=ann, text="again", now=start + timedelta(seconds=10, milliseconds=1))
    services.message_post(room=room, user=bob, text="bob is not limited by ann", now=start + timedelta(seconds=5))


@pytest.mark.django_db
def test_games_against_bots_have_no_chat(make_user):
    """A crossword game or a hunt table of one person and bots has no chat; posting is refused."""
    ann = make_user("ann")
    game = crossword_bots.game_create_with_bots(
        creator=ann, variant="wordgrid", seconds_per_move=DAY, bots=["beginner"]
    )
    table = hunts.table_create(host=ann, seat_count=2, bots=("easy",))
    for room in (rooms.Room("crossword", game.pk), rooms.Room("hunt", table.pk)):
        assert not rooms.has_chat(room)
        assert selectors.opening(room, ann) is None
        with pytest.raises(Refused, match="no chat"):
            services.message_post(room=room, user=ann, text="hello?")
    assert Message.objects.count() == 0


@pytest.mark.django_db
def test_crossword_chat_is_for_its_players_and_hunt_chat_for_watchers_too(make_user):
    """A watcher of a crossword game can neither read nor write its chat; at a hunt table they can."""
    game, ann, bob = duel(make_user)
    watcher = make_user("watcher")
    room = rooms.Room("crossword", game.pk)
    services.message_post(room=room, user=ann, text="good luck")
    assert selectors.opening(room, watcher) is None
    with pytest.raises(Refused, match="Only the players"):
        services.message_post(room=room, user=watcher, text="hi")
    message = Message.objects.get()
    with pytest.raises(Refused, match="No such message"):
        services.report(user=watcher, message_id=message.pk)

    table = hunts.table_create(host=ann, seat_count=2)
    hunts.table_join(table_id=table.pk, user=bob)
    hunt = rooms.Room("hunt", table.pk)
    services.message_post(room=hunt, user=watcher, text="nice board")
    assert [m["text"] for m in selectors.opening(hunt, ann)["messages"]] == ["nice board"]


@pytest.mark.django_db
def test_chat_turned_off_in_settings_hides_it_and_refuses_posting(make_user, client):
    """Unticking Chat in the settings stores the choice; that player gets no chat and cannot write."""
    game, ann, bob = duel(make_user)
    client.force_login(bob)
    response = client.post(
        "/settings/", {"display_name": "", "email": bob.email, "preferred_lexicon": "en", "email_notifications": "on"}
    )
    assert response.status_code == 302
    assert not services.chat_enabled(bob)
    room = rooms.Room("crossword", game.pk)
    assert selectors.opening(room, bob) is None
    with pytest.raises(Refused, match="turned off"):
        services.message_post(room=room, user=bob, text="hi")
    assert 'name="chat"' in client.get("/settings/").content.decode()
    client.post(
        "/settings/",
        {"display_name": "", "email": bob.email, "preferred_lexicon": "en", "email_notifications": "on", "chat": "on"},
    )
    assert services.chat_enabled(bob)


# -- mute, report, moderation ------------------------------------------------------------------


@pytest.mark.django_db
def test_mute_lasts_across_rooms_until_unmuted(make_user, client):
    """After muting, the muter's history leaves out the muted player's messages everywhere."""
    game, ann, bob = duel(make_user)
    room = rooms.Room("crossword", game.pk)
    services.message_post(room=room, user=bob, text="rude words")
    client.force_login(ann)
    response = client.post("/chat/mute/bob/", HTTP_ACCEPT="application/json")
    assert response.json()["ok"] is True
    client.post("/chat/mute/bob/", HTTP_ACCEPT="application/json")
    assert Mute.objects.filter(muter=ann, muted=bob).count() == 1
    assert selectors.opening(room, ann)["messages"] == []
    assert len(selectors.opening(room, bob)["messages"]) == 1
    assert selectors.hides(ann.pk, "bob") and not selectors.hides(bob.pk, "ann")
    assert "bob" in client.get("/chat/muted/").content.decode()
    assert client.post("/chat/mute/ann/", HTTP_ACCEPT="application/json").status_code == 400
    assert client.post("/chat/mute/nobody/", HTTP_ACCEPT="application/json").status_code == 404
    assert "Unmute in chat" in client.get("/u/bob/").content.decode()
    response = client.post("/chat/unmute/bob/", {"next": "/u/bob/"})
    assert response["Location"] == "/u/bob/"
    assert not Mute.objects.exists()
    assert "Mute in chat" in client.get("/u/bob/").content.decode()
    assert client.post("/chat/mute/bob/", {"next": "https://evil.example/"})["Location"] == "/chat/muted/"
    client.post("/chat/unmute/bob/")
    assert len(selectors.opening(room, ann)["messages"]) == 1


@pytest.mark.django_db
def test_a_report_goes_to_the_queue_once_and_a_moderator_hides_the_message(make_user, client):
    """A report is stored once per reporter; hiding resolves it and drops the message from history."""
    game, ann, bob = duel(make_user)
    room = rooms.Room("crossword", game.pk)
    message = services.message_post(room=room, user=bob, text="something nasty")
    client.force_login(ann)
    assert client.post(f"/chat/report/{message.pk}/", HTTP_ACCEPT="application/json").json()["ok"]
    client.post(f"/chat/report/{message.pk}/", HTTP_ACCEPT="application/json")
    assert Report.objects.filter(resolved_at__isnull=True).count() == 1
    client.force_login(bob)
    assert client.post(f"/chat/report/{message.pk}/", HTTP_ACCEPT="application/json").status_code == 400

    moderator = make_user("mod", is_staff=True, is_superuser=True)
    client.force_login(moderator)
    queue = client.get("/admin/chat/report/?open=yes")
    assert "something nasty" in queue.content.decode()
    report = Report.objects.get()
    response = client.post("/admin/chat/report/", {"action": "hide_messages", "_selected_action": [report.pk]})
    assert response.status_code == 302
    message.refresh_from_db()
    report.refresh_from_db()
    assert message.hidden_at is not None and message.hidden_by == moderator
    assert report.resolution == "hidden" and report.resolved_by == moderator
    assert selectors.opening(room, ann)["messages"] == []


@pytest.mark.django_db
def test_a_moderator_suspends_chat_and_the_player_is_told(make_user, client):
    """ "Hide and suspend" takes chat away for 7 days with a notification; posting is then refused."""
    game, ann, bob = duel(make_user)
    room = rooms.Room("crossword", game.pk)
    message = services.message_post(room=room, user=bob, text="spam spam")
    report = services.report(user=ann, message_id=message.pk, reason="spam")
    moderator = make_user("mod", is_staff=True, is_superuser=True)
    client.force_login(moderator)
    client.post("/admin/chat/report/", {"action": "hide_and_suspend", "_selected_action": [report.pk]})
    suspension = Suspension.objects.get(user=bob)
    assert timedelta(days=6) < suspension.until - timezone.now() <= timedelta(days=7)
    assert bob.notifications.filter(kind="chat.suspended").exists()
    with pytest.raises(Refused, match="suspended"):
        services.message_post(room=room, user=bob, text="let me back")
    Suspension.objects.filter(user=bob).update(until=timezone.now() - timedelta(seconds=1))
    services.message_post(room=room, user=bob, text="sorry")


@pytest.mark.django_db
def test_a_dismissed_report_keeps_the_message(make_user):
    """Dismissing closes every open report of the message and leaves it shown."""
    game, ann, bob = duel(make_user)
    message = services.message_post(room=rooms.Room("crossword", game.pk), user=bob, text="gg")
    report = services.report(user=ann, message_id=message.pk)
    moderator = make_user("mod", is_staff=True)
    assert services.report_dismiss(report_id=report.pk, by=moderator) == 1
    assert services.report_dismiss(report_id=report.pk, by=moderator) == 0
    message.refresh_from_db()
    assert message.hidden_at is None


# -- live, over the real Redis channel layer ------------------------------------------------------------


async def receive_until(ws, kind, timeout=5):
    while True:
        message = await ws.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_crossword_chat_reaches_its_players_and_never_a_watcher(ws_connect, make_user):
    """Both players' sockets get the message (escaped by nothing: the page writes text); a watcher's gets none."""
    game, ann, bob = await sync_to_async(duel)(make_user)
    watcher = await sync_to_async(make_user)("watcher")
    ann_ws = await ws_connect(f"/ws/games/{game.pk}/", ann)
    bob_ws = await ws_connect(f"/ws/games/{game.pk}/", bob)
    watch_ws = await ws_connect(f"/ws/games/{game.pk}/", watcher)
    for ws in (ann_ws, bob_ws, watch_ws):
        assert (await ws.receive_json_from(timeout=5))["type"] == "hello"
        await ws.send_json_to({"type": "chat.join"})
    for ws in (ann_ws, bob_ws):
        assert await ws.receive_json_from(timeout=5) == {
            "type": "chat.history",
            "room": f"crossword.{game.pk}",
            "messages": [],
        }

    await ann_ws.send_json_to({"type": "chat", "text": "<b>hello</b>"})
    for ws in (ann_ws, bob_ws):
        message = await receive_until(ws, "chat.message")
        assert message["text"] == "<b>hello</b>" and message["author"] == "ann"
    await watch_ws.send_json_to({"type": "chat", "text": "let me in"})
    assert (await watch_ws.receive_json_from(timeout=5)) == {
        "type": "error",
        "reason": "There is no chat here for you.",
    }
    assert await watch_ws.receive_nothing(timeout=0.5)
    assert await sync_to_async(Message.objects.count)() == 1

    await bob_ws.send_json_to({"type": "chat", "text": "x" * 301})
    refused = await receive_until(bob_ws, "chat.refused")
    assert "at most 300" in refused["reason"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_hunt_chat_reaches_players_and_watchers_but_not_who_muted_the_author(ws_connect, make_user):
    """At a hunt table everyone signed in reads chat; a player who muted the author gets nothing of theirs;
    a hidden message is withdrawn from open pages."""
    table, ann, bob = await sync_to_async(hunt_table)(make_user)
    watcher = await sync_to_async(make_user)("watcher")
    await sync_to_async(services.mute)(user=bob, username="watcher")
    sockets = {}
    for user in (ann, bob, watcher):
        ws = await ws_connect(f"/ws/hunts/{table.pk}/", user)
        await ws.send_json_to({"type": "chat.join"})
        await receive_until(ws, "chat.history")
        sockets[user.username] = ws
    await sockets["watcher"].send_json_to({"type": "chat", "text": "go ann!"})
    for name in ("ann", "watcher"):
        assert (await receive_until(sockets[name], "chat.message"))["text"] == "go ann!"
    await sockets["ann"].send_json_to({"type": "chat", "text": "thanks"})
    # bob muted the watcher: the first chat message bob sees is ann's.
    assert (await receive_until(sockets["bob"], "chat.message"))["text"] == "thanks"

    message = await sync_to_async(Message.objects.get)(text="thanks")
    moderator = await sync_to_async(make_user)("mod", is_staff=True)
    await sync_to_async(services.message_hide)(message_id=message.pk, by=moderator)
    assert await receive_until(sockets["watcher"], "chat.hidden") == {"type": "chat.hidden", "id": message.pk}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_tow_chat_reaches_its_players_only_and_a_tow_game_with_a_bot_has_none(ws_connect, make_user):
    """TOW games chat like crossword games: players only; a game of one person and a bot has no chat."""
    from games.tow import services as tow

    def setup():
        ann, bob, watcher = make_user("ann"), make_user("bob"), make_user("watcher")
        game = tow.game_create(creator=ann, seconds_per_move=DAY, invitees=[bob])
        tow.game_accept(game_id=game.pk, player=bob)
        solo = tow.game_create(creator=watcher, seconds_per_move=DAY, bots=1)
        return game, solo, ann, bob, watcher

    game, solo, ann, bob, watcher = await sync_to_async(setup)()
    assert not await sync_to_async(rooms.has_chat)(rooms.Room("tow", solo.pk))
    sockets = {}
    for user in (ann, bob, watcher):
        ws = await ws_connect(f"/ws/tow/{game.pk}/", user)
        assert (await ws.receive_json_from(timeout=5))["type"] == "hello"
        await ws.send_json_to({"type": "chat.join"})
        sockets[user.username] = ws
    for name in ("ann", "bob"):
        assert (await sockets[name].receive_json_from(timeout=5))["type"] == "chat.history"
    await sockets["bob"].send_json_to({"type": "chat", "text": "nice play"})
    for name in ("ann", "bob"):
        assert (await receive_until(sockets[name], "chat.message"))["room"] == f"tow.{game.pk}"
    assert await sockets["watcher"].receive_nothing(timeout=0.5)


@pytest.mark.django_db(transaction=True)
def test_the_rate_limit_holds_when_one_player_posts_from_many_tabs_at_once(make_user):
    """Ten posts racing from ten threads (ten tabs) store exactly five; the rest are refused."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    game, ann, bob = duel(make_user)
    room = rooms.Room("crossword", game.pk)

    def post(i):
        try:
            services.message_post(room=room, user=ann, text=f"tab {i}")
            return "ok"
        except Refused:
            return "refused"
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=10) as pool:
        outcomes = list(pool.map(post, range(10)))
    assert outcomes.count("ok") == 5
    assert Message.objects.filter(author=ann).count() == 5


@pytest.mark.django_db
def test_a_staff_member_in_the_chat_moderators_group_works_the_queue(make_user, client):
    """The group exists after migrate; a staff member in it (not a superuser) sees the queue and hides;
    staff outside it cannot open the queue."""
    from django.contrib.auth.models import Group

    game, ann, bob = duel(make_user)
    message = services.message_post(room=rooms.Room("crossword", game.pk), user=bob, text="rude")
    report = services.report(user=ann, message_id=message.pk)
    outsider = make_user("outsider", is_staff=True)
    client.force_login(outsider)
    assert client.get("/admin/chat/report/").status_code == 403
    moderator = make_user("mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name=services.MODERATORS_GROUP))
    client.force_login(moderator)
    assert "rude" in client.get("/admin/chat/report/").content.decode()
    client.post("/admin/chat/report/", {"action": "hide_messages", "_selected_action": [report.pk]})
    message.refresh_from_db()
    assert message.hidden_by == moderator


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_hunt_table_resends_chat_history_when_the_channel_layer_comes_back(ws_connect, make_user):
    """After a Redis outage (layer.reconnected) the table socket sends the chat history again,
    so messages broadcast while it was away still show."""
    from channels.layers import get_channel_layer

    from games.hunts.broadcasts import table_group

    table, ann, bob = await sync_to_async(hunt_table)(make_user)
    ws = await ws_connect(f"/ws/hunts/{table.pk}/", ann)
    await ws.send_json_to({"type": "chat.join"})
    await receive_until(ws, "chat.history")
    await sync_to_async(Message.objects.create)(
        room=f"hunt.{table.pk}", author=bob, text="sent while away", created_at=timezone.now()
    )
    await get_channel_layer().group_send(table_group(table.pk), {"type": "layer.reconnected"})
    history = await receive_until(ws, "chat.history")
    assert [m["text"] for m in history["messages"]] == ["sent while away"]
