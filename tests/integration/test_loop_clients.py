"""The event loop's own PostgreSQL and Redis clients, and the submit path that uses them.

``round_submit_async`` makes the same decisions as ``round_submit`` (one generator of
decisions, two ways of answering its questions); these tests hold the two to that, and
check what the loop's connections promise: a bounded number per loop, a connection the
server dropped replaced without the caller noticing, and a find announced even when the
socket that sent it goes away mid-submission.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta

import psycopg
import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.utils import timezone

from config import loop_clients
from games.engine import hunt
from games.hunts import services
from games.hunts.broadcasts import table_group
from games.hunts.models import FoundWord
from games.hunts.services import submissions

from .test_hunt_consumers import BOARD, rampage_table, start_now
from .test_hunt_queries import worker_connections_closed  # noqa: F401 - used by every test here

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
async def loop_clients_closed():
    assert loop_clients.available(), "these tests need server mode: PostgreSQL and a Redis cache"
    yield
    await loop_clients.close()


async def backend_pid(conn) -> int:
    [(pid,)] = await loop_clients.simple_query(conn, "SELECT pg_backend_pid()")
    return int(pid)


async def test_statements_queue_for_the_loops_connections_instead_of_opening_more(monkeypatch):
    monkeypatch.setattr(loop_clients, "CONNECTIONS_PER_LOOP", 2)
    pids: set[int] = set()
    busy = {"now": 0, "most": 0}

    async def statement():
        async with loop_clients.postgres() as conn:
            busy["now"] += 1
            busy["most"] = max(busy["most"], busy["now"])
            pids.add(await backend_pid(conn))
            await loop_clients.simple_query(conn, "SELECT pg_sleep(0.05)")
            busy["now"] -= 1

    await asyncio.gather(*(statement() for _ in range(8)))
    assert busy["most"] == 2
    assert len(pids) == 2


async def test_a_connection_the_server_dropped_is_replaced_unnoticed():
    async with loop_clients.postgres() as conn:
        dropped = await backend_pid(conn)
    await sync_to_async(_terminate)(dropped)
    await asyncio.sleep(0.2)  # the server's goodbye reaches the idle connection's socket
    async with loop_clients.postgres() as conn:
        assert await backend_pid(conn) != dropped


def _terminate(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


async def test_a_block_that_fails_does_not_give_its_connection_back():
    with pytest.raises(RuntimeError):
        async with loop_clients.postgres() as conn:
            failed = await backend_pid(conn)
            raise RuntimeError("the caller's own failure")
    async with loop_clients.postgres() as conn:
        assert await backend_pid(conn) != failed


async def test_a_simple_query_writes_its_values_as_literals_that_read_back_the_same():
    at = timezone.now()
    values = ["it's", "back\\slash", "ünïcødé", "", None, True, False, -7, 2**40, at]
    async with loop_clients.postgres() as conn:
        [row] = await loop_clients.simple_query(
            conn,
            "SELECT 1; SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s, %s = %s::timestamptz",
            [*values, at.isoformat()],
        )
        assert row == (
            b"it's",
            b"back\\slash",
            "ünïcødé".encode(),
            b"",
            None,
            b"t",
            b"f",
            b"-7",
            b"1099511627776",
            b"t",
        )
        assert await loop_clients.simple_query(conn, "SELECT 1-%s", [-7]) == [(b"8",)]  # not a comment
        named = await loop_clients.simple_query(conn, "SELECT %(word)s, %(n)s + %(n)s", {"n": 2, "word": "it's"})
        assert named == [(b"it's", b"4")]
        assert await loop_clients.simple_query(conn, b"SELECT %(n)s * 2", {"n": 21}) == [(b"42",)]  # encoded SQL
        for refused in (at.replace(tzinfo=None), "nul\x00"):
            with pytest.raises(ValueError):
                await loop_clients.simple_query(conn, "SELECT %s", [refused])
        assert await loop_clients.simple_query(conn, "SELECT 1 WHERE false") == []


async def test_a_failing_simple_query_raises_its_error_and_loses_its_connection():
    with pytest.raises(psycopg.errors.DivisionByZero):
        async with loop_clients.postgres() as conn:
            failed = await backend_pid(conn)
            await loop_clients.simple_query(conn, "SELECT 1; SELECT 1 / %s", [0])
    async with loop_clients.postgres() as conn:
        assert await backend_pid(conn) != failed
        assert await loop_clients.simple_query(conn, "SELECT %s + 1", [41]) == [(b"42",)]


@pytest.mark.parametrize("game", ["rampage", "classic"])
async def test_the_event_loop_and_the_worker_thread_make_the_same_decisions(make_user, game):
    """Every kind of answer, asked once of each path on twin rounds with the same board.

    Ann tries to take at most 7 words, under the limit of 8 per period: a case added for
    her must stay under it (or go to Bob).
    """
    table, ann, bob = await _table(make_user, game, ("ann", "bob"))
    twin, _, _ = await _table(make_user, game, ("cy", "di"))
    rampage = game == "rampage"
    submissions = [
        ({"word": "rate"}, "accepted"),
        ({"word": "rate"}, "taken"),  # ann again
        ({"word": "rate", "as": "bob"}, "taken" if rampage else "accepted"),
        ({"path": [[0, 0], [0, 1], [0, 2]]}, "accepted"),  # c-a-t
        ({"word": "xq"}, "invalid"),
        ({"word": "zzzz"}, "invalid"),
        ({"word": "dog"}, "invalid"),  # a word, but not on the board
        ({"path": [[0, 0], [3, 3]]}, "invalid"),
        ({"word": "c4t"}, "invalid"),
        ({"word": 12}, "refused"),
        ({"word": "rate", "as": "watcher"}, "refused"),
        ({"word": "tear", "as": "bob", "late": True}, "late"),
    ]
    eve = await sync_to_async(make_user)("eve")
    board = BOARD if rampage else hunt.Board(BOARD.faces)
    sync_round, async_round = await start_now(table, board), await start_now(twin, board)
    twin_seats = dict(zip(("ann", "bob"), await sync_to_async(_seated)(twin), strict=True))
    for submission, outcome in submissions:
        who = submission.get("as", "ann")
        fields = {key: value for key, value in submission.items() if key not in ("as", "late")}
        now = timezone.now() + timedelta(minutes=5) if submission.get("late") else None
        by_thread = await sync_to_async(services.round_submit)(
            round_id=sync_round.pk, user={"ann": ann, "bob": bob, "watcher": eve}[who], now=now, **fields
        )
        on_loop = await services.round_submit_async(
            round_id=async_round.pk, user={**twin_seats, "watcher": eve}[who], now=now, **fields
        )
        assert by_thread.outcome == outcome, (submission, by_thread)
        assert replace(on_loop, reason=_names(on_loop.reason)) == replace(by_thread, reason=_names(by_thread.reason))
    stored = await sync_to_async(_stored_words)(sync_round.pk, async_round.pk)
    assert stored[0] == stored[1] == (["cat", "rate"] if rampage else ["cat", "rate", "rate"])


@sync_to_async
def _table(make_user, game, usernames):
    host, guest = (make_user(name) for name in usernames)
    table = services.table_create(host=host, seat_count=3, game=game, size=4)
    services.table_join(table_id=table.pk, user=guest)
    return table, host, guest


def _seated(table):
    return [seat.user for seat in table.seats.select_related("user").order_by("position")]


def _names(reason: str) -> str:
    # The twin table's players have other names; the reasons are otherwise the same.
    return reason.replace("Cy", "Ann").replace("Di", "Bob").replace("cy", "ann").replace("di", "bob")


def _stored_words(*round_ids: int) -> list[list[str]]:
    return [
        sorted(FoundWord.objects.filter(round_id=round_id).values_list("word", flat=True)) for round_id in round_ids
    ]


async def test_a_find_is_stored_and_announced_even_if_its_socket_goes_away(make_user):
    table, ann, _ = await rampage_table(make_user)
    game_round = await start_now(table)
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(table_group(table.pk), listener)
    submitting = asyncio.ensure_future(services.round_submit_async(round_id=game_round.pk, user=ann, word="rate"))
    await asyncio.sleep(0)  # the submission has begun
    submitting.cancel()  # as a consumer is when its socket closes
    heard = await asyncio.wait_for(layer.receive(listener), 5)
    assert heard["type"] == "round.found" and heard["word"] == "rate"
    assert await sync_to_async(_stored_words)(game_round.pk) == [["rate"]]
    await layer.group_discard(table_group(table.pk), listener)
    assert submissions._submitting == set()


async def test_a_failure_after_the_socket_went_away_is_logged(make_user, monkeypatch, caplog):
    table, ann, _ = await rampage_table(make_user)
    game_round = await start_now(table)
    stored = asyncio.Event()

    async def failing_store(*args):
        await stored.wait()
        raise ConnectionError("PostgreSQL went away")

    monkeypatch.setitem(submissions._ASYNC_IO, "store", failing_store)
    submitting = asyncio.ensure_future(services.round_submit_async(round_id=game_round.pk, user=ann, word="rate"))
    while not submissions._submitting:
        await asyncio.sleep(0.01)
    submitting.cancel()  # the socket closes while the statement is out
    stored.set()
    while submissions._submitting:
        await asyncio.sleep(0.01)
    failures = [r for r in caplog.records if r.name == submissions.__name__ and r.levelname == "ERROR"]
    assert [r.getMessage() for r in failures] == ["A submission failed after its socket closed"]
    assert isinstance(failures[0].exc_info[1], ConnectionError)
