"""Regression tests for the attacks of issue 12: each probe that once broke now holds."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import pytest
from django.db import connection

from games.engine import hunt
from games.hunts import services as hunt_services
from games.hunts.models import FoundWord, HuntRound, RoundStatus

BOARD = hunt.Board([["c", "a", "t", "s"], ["o", "r", "e", "x"], ["d", "i", "n", "g"], ["p", "l", "u", "m"]])


# --------------------------------------------------------------------------- websockets


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_deeply_nested_json_is_refused_as_malformed(ws_connect, caplog):
    """JSON nested 1,000 deep gets the malformed-message reason, and no traceback is logged."""
    ws = await ws_connect("/ws/presence/")
    json.loads(await ws.receive_from(timeout=5))  # who is online
    caplog.set_level(logging.WARNING, logger="wordfall.websocket")
    await ws.send_to(text_data="[" * 1000 + "]" * 1000)
    reply = json.loads(await ws.receive_from(timeout=5))
    assert reply == {"type": "error", "reason": "Messages must be JSON text."}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await ws.send_to(text_data=json.dumps({"type": "ping"}))
    assert json.loads(await ws.receive_from(timeout=5)) == {"type": "pong"}


# --------------------------------------------------------------------------- hunt rounds


@pytest.mark.django_db
def test_a_round_with_an_id_beyond_32_bits_accepts_words_and_ends(make_user):
    """A round whose id is 2**31 or more takes its lock, stores a find and is totalled."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [HuntRound._meta.db_table, 2**31 + 7])
    ann, bob = make_user("ann"), make_user("bob")
    table = hunt_services.table_create(host=ann, game="rampage", seat_count=2)
    hunt_services.table_join(table_id=table.pk, user=bob)
    game_round = hunt_services.round_start(table_id=table.pk, by=ann)
    assert game_round.pk >= 2**31
    HuntRound.objects.filter(pk=game_round.pk).update(board=BOARD.to_text())
    game_round.refresh_from_db()
    now = game_round.starts_at + timedelta(seconds=1)
    result = hunt_services.round_submit(round_id=game_round.pk, user=ann, word="cat", now=now)
    assert result.outcome == "accepted", result.reason
    hunt_services.round_end(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))
    game_round.refresh_from_db()
    assert game_round.status == RoundStatus.FINISHED
    assert list(FoundWord.objects.filter(round=game_round).values_list("word", flat=True)) == ["cat"]


# --------------------------------------------------------------------------- request data


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/u/%00/", "/u/ann%00/", "/u/a%2Fb/"])
def test_a_profile_address_that_is_no_username_is_not_found(client, make_user, path):
    """A NUL byte (or a slash) in a profile address answers 404, never reaches PostgreSQL."""
    make_user("ann")
    assert client.get(path).status_code == 404
    assert client.get("/u/ann/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("seat", ["²", "-1", "0", "5", "1e3", "x"])
def test_leaving_with_a_malformed_seat_changes_nothing(client, make_user, seat):
    """A seat that is no seat number is refused: no error page, and the host's table stays open."""
    from games.hunts.models import HuntTable, TableStatus

    ann, bob = make_user("ann"), make_user("bob")
    table = hunt_services.table_create(host=ann, game="rampage", seat_count=3, bots=("easy",))
    hunt_services.table_join(table_id=table.pk, user=bob)
    client.force_login(ann)
    response = client.post(f"/hunts/{table.pk}/leave/", {"seat": seat}, follow=True)
    assert response.status_code == 200
    assert "No such seat." in response.content.decode()
    table.refresh_from_db()
    assert table.status != TableStatus.CLOSED and table.host_id == ann.pk
    assert HuntTable.objects.get(pk=table.pk).seats.filter(left_at__isnull=True).count() == 3

