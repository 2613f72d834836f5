"""Hunt fan-out: a table's change is read once, whatever the number of sockets watching.

Queries are counted in every thread (the consumers read the database from worker
threads of their own), from the change until every socket has its new state.
"""

from __future__ import annotations

import asyncio
import json
import threading
from contextlib import contextmanager
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.db.backends.utils import CursorWrapper

from games.hunts import services
from games.hunts.models import BotStrength

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
async def worker_connections_closed():
    """Close the database connections the consumers opened in threads of their own.

    channels.testing stops ``database_sync_to_async`` from closing connections while a
    communicator is awaited, so each worker thread keeps one open after the test, and
    the test database could not be dropped at the end of the run ("being accessed by
    other users"). One close per thread: each waits for the others, so no thread runs two.
    """
    yield
    await sync_to_async(connections.close_all)()  # the one thread of thread-sensitive calls
    loop = asyncio.get_running_loop()
    executor = getattr(loop, "_default_executor", None)
    threads = len(getattr(executor, "_threads", ()))
    if not threads:
        return
    all_there = threading.Barrier(threads)

    def close():
        connections.close_all()
        all_there.wait(timeout=10)

    await asyncio.gather(*(loop.run_in_executor(None, close) for _ in range(threads)))


@contextmanager
def all_queries():
    """Count the queries of every thread of this process while the block runs."""
    counted = {"n": 0}
    lock = threading.Lock()
    original = CursorWrapper._execute_with_wrappers

    def counting(self, *args, **kwargs):
        with lock:
            counted["n"] += 1
        return original(self, *args, **kwargs)

    CursorWrapper._execute_with_wrappers = counting
    try:
        yield counted
    finally:
        CursorWrapper._execute_with_wrappers = original


async def state_on(ws, timeout=10) -> dict:
    while True:
        message = json.loads(await ws.receive_from(timeout=timeout))
        if message["type"] == "state":
            return message


async def quiet(sockets, wait=0.3):
    """Read every socket until none has anything more to say."""

    async def drain(ws):
        while not await ws.receive_nothing(timeout=wait):
            await ws.receive_from()

    await asyncio.gather(*(drain(ws) for ws in sockets))


async def queries_for_a_seat_taken(ws_connect, make_user, watchers: int) -> tuple[int, list[dict]]:
    @sync_to_async
    def table():
        ann = make_user()
        return services.table_create(host=ann, seat_count=4), ann

    table, ann = await table()
    path = f"/ws/hunts/{table.pk}/"
    sockets = [await ws_connect(path, ann)]
    for _ in range(watchers):
        sockets.append(await ws_connect(path))
    await asyncio.gather(*(state_on(ws) for ws in sockets))  # each socket's first state
    await quiet(sockets)
    with all_queries() as counted:
        await sync_to_async(services.table_add_bot)(table_id=table.pk, by=ann, strength=BotStrength.values[0])
        states = await asyncio.gather(*(state_on(ws) for ws in sockets))
        await quiet(sockets)
    await asyncio.gather(*(ws.disconnect(timeout=10) for ws in sockets))
    return counted["n"], states


async def test_a_table_change_costs_the_same_queries_for_5_and_50_watchers(ws_connect, make_user):
    """A bot sitting down: every socket gets the new seats, for as many queries with 50 watchers as with 5."""
    await queries_for_a_seat_taken(ws_connect, make_user, 0)  # the bots' accounts are made once
    few, few_states = await queries_for_a_seat_taken(ws_connect, make_user, 5)
    many, many_states = await queries_for_a_seat_taken(ws_connect, make_user, 50)
    assert all(len(s["seats"]) == 2 for s in few_states + many_states)
    assert many_states[0]["me"]["is_host"] and not many_states[1]["me"]["is_host"]
    assert many == few, (few, many)
    assert many < 20


async def test_the_end_of_a_classic_round_comes_drawn_with_each_players_own_words(ws_connect, make_user):
    """round.ended carries the results drawn once; then one state per socket, Classic words only to their finder."""
    from games.engine import hunt

    from .test_hunt_consumers import BOARD, receive_until, start_now

    @sync_to_async
    def classic_table():
        ann, bob = make_user("ann"), make_user("bob")
        table = services.table_create(host=ann, game="classic", size=4)
        services.table_join(table_id=table.pk, user=bob)
        return table, ann, bob

    table, ann, bob = await classic_table()
    game_round = await start_now(table, hunt.Board(BOARD.faces))
    path = f"/ws/hunts/{table.pk}/"
    ws_ann, ws_bob, watcher = await ws_connect(path, ann), await ws_connect(path, bob), await ws_connect(path)
    for ws in (ws_ann, ws_bob, watcher):
        await state_on(ws)
    await ws_ann.send_json_to({"type": "submit", "round_id": game_round.pk, "word": "cats"})
    assert (await receive_until(ws_ann, "result"))["outcome"] == "accepted"
    await quiet([ws_ann, ws_bob, watcher])
    await sync_to_async(services.round_end)(round_id=game_round.pk, now=game_round.deadline + timedelta(seconds=1))
    for ws, words in ((ws_ann, ["cats"]), (ws_bob, []), (watcher, [])):
        ended = json.loads(await ws.receive_from(timeout=5))
        assert ended["type"] == "round.ended" and "CATS" in ended["html"].upper()
        state = json.loads(await ws.receive_from(timeout=5))
        assert state["type"] == "state" and state["round"]["status"] == "finished"
        assert [f["word"] for f in state["round"]["found"]] == words
        assert await ws.receive_nothing(timeout=0.3)  # one state each: no copy from the shared message
