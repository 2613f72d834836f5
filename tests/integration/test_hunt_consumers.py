"""Hunt sockets over the real Redis channel layer: players, watchers, races, bad input, reconnect."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.engine import hunt
from games.hunts import services
from games.hunts.models import FoundWord, HuntRound, RoundStatus
from games.hunts.services import submissions
from lexicon.services import get_lexicon

from .test_hunt_queries import worker_connections_closed  # noqa: F401 - used by every test here

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

BOARD = hunt.Board(
    [["c", "a", "t", "s"], ["o", "r", "e", "x"], ["d", "i", "n", "g"], ["p", "l", "u", "m"]],
    bonuses={(0, 0): "3L", (0, 2): "3W", (2, 2): "2L", (3, 3): "2L"},
)


async def receive_until(ws, kind, timeout=5, **match):
    while True:
        message = json.loads(await ws.receive_from(timeout=timeout))
        if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
            return message


async def no_message(ws, kind, wait=0.5):
    """True if no ``kind`` message arrives within ``wait`` (without cancelling the consumer)."""
    while not await ws.receive_nothing(timeout=wait):
        if json.loads(await ws.receive_from())["type"] == kind:
            return False
    return True


async def ready(ws_connect, path, user=None):
    """Connect and wait for the first state: the socket is in its groups from then on."""
    ws = await ws_connect(path, user)
    ws.first_state = await receive_until(ws, "state")
    return ws


@sync_to_async
def rampage_table(make_user, bots=()):
    ann, bob = make_user("ann"), make_user("bob")
    table = services.table_create(host=ann, seat_count=3, bots=bots)
    services.table_join(table_id=table.pk, user=bob)
    return table, ann, bob


@sync_to_async
def start_now(table, board=BOARD):
    """Start a round whose board is already showing (the 3-2-1 is skipped)."""
    game_round = services.round_start(table_id=table.pk, by=table.host)
    now = timezone.now()
    HuntRound.objects.filter(pk=game_round.pk).update(
        board=board.to_text(), starts_at=now - timedelta(seconds=1), deadline=now + timedelta(seconds=60)
    )
    return HuntRound.objects.get(pk=game_round.pk)


async def test_two_players_and_a_watcher_see_a_find_live(ws_connect, make_user):
    """A Rampage find reaches both players and the watcher; the finder gets accepted."""
    table, ann, bob = await rampage_table(make_user)
    eve = await sync_to_async(make_user)("eve")
    path = f"/ws/hunts/{table.pk}/"
    ws_ann, ws_bob = [await ready(ws_connect, path, u) for u in (ann, bob)]
    ws_eve = await ws_connect(path, eve)
    state = await receive_until(ws_eve, "state")
    anonymous = await ready(ws_connect, path)
    assert state["me"] == {"user_id": eve.pk, "seated": False, "is_host": False}
    assert [s["name"] for s in state["seats"]] == ["ann", "bob"]
    watchers = await receive_until(ws_ann, "table.watchers", count=2)
    assert watchers["count"] == 2  # eve and the anonymous socket; players are not watchers

    game_round = await start_now(table)
    await ws_ann.send_json_to({"type": "submit", "round_id": game_round.pk, "path": [[0, 0], [0, 1], [0, 2]], "id": 7})
    result = await receive_until(ws_ann, "result")
    assert (result["outcome"], result["word"], result["points"], result["id"]) == ("accepted", "cat", 33, 7)
    assert (result["name"], result["user_id"], result["round_id"]) == ("ann", ann.pk, game_round.pk)
    for ws in (ws_bob, ws_eve, anonymous):
        found = await receive_until(ws, "round.found")
        assert (found["word"], found["name"], found["points"], found["bonuses"]) == ("cat", "ann", 33, ["3L", "3W"])
    assert await no_message(ws_ann, "round.found")  # the finder's socket heard it in the reply


async def test_watchers_cannot_submit(ws_connect, make_user):
    """A watcher's or an anonymous visitor's submission is refused and stores nothing."""
    table, ann, bob = await rampage_table(make_user)
    eve = await sync_to_async(make_user)("eve")
    game_round = await start_now(table)
    for user in (eve, None):
        ws = await ready(ws_connect, f"/ws/hunts/{table.pk}/", user)
        await ws.send_json_to({"type": "submit", "round_id": game_round.pk, "word": "cat"})
        result = await receive_until(ws, "result")
        assert result["outcome"] == "refused"
    assert not await sync_to_async(FoundWord.objects.exists)()


async def test_simultaneous_identical_submissions_over_sockets(ws_connect, make_user):
    """Two players send the same word at once: exactly one accepted, one taken."""
    table, ann, bob = await rampage_table(make_user)
    game_round = await start_now(table)
    ws_ann = await ready(ws_connect, f"/ws/hunts/{table.pk}/", ann)
    ws_bob = await ready(ws_connect, f"/ws/hunts/{table.pk}/", bob)
    for word in ("rate", "tear", "ding", "ten"):
        message = {"type": "submit", "round_id": game_round.pk, "word": word}
        await asyncio.gather(ws_ann.send_json_to(message), ws_bob.send_json_to(message))
        outcomes = sorted(
            [(await receive_until(ws_ann, "result"))["outcome"], (await receive_until(ws_bob, "result"))["outcome"]]
        )
        assert outcomes == ["accepted", "taken"], word
    assert await sync_to_async(FoundWord.objects.filter(round=game_round).count)() == 4


async def test_late_forged_and_malformed_messages(ws_connect, make_user):
    """Late, forged and malformed messages are refused with a reason and change nothing."""
    table, ann, bob = await rampage_table(make_user)
    game_round = await start_now(table)
    ws = await ready(ws_connect, f"/ws/hunts/{table.pk}/", ann)
    cases = [
        ("not json", "error", "Messages must be JSON text."),
        (json.dumps({"type": "submit", "round_id": "1", "word": "cat"}), "error", "A submission names its round."),
        (
            json.dumps({"type": "submit", "round_id": game_round.pk, "path": [[0, 0], [5, 5]]}),
            "result",
            "The path leaves the board.",
        ),
        (
            json.dumps({"type": "submit", "round_id": game_round.pk, "path": [[0, 0], [1, 3]]}),
            "result",
            "The path jumps between tiles that do not touch.",
        ),
        (
            json.dumps({"type": "submit", "round_id": game_round.pk, "path": [[0, 0], [0, 1], [0, 0]]}),
            "result",
            "The path uses a tile twice.",
        ),
        (
            json.dumps({"type": "submit", "round_id": game_round.pk, "word": "cat", "pad": "x" * 5000}),
            "error",
            "Message too large.",
        ),
        (json.dumps({"type": "resign"}), "error", "Unknown message type: resign"),
        (json.dumps({"type": "start"}), "error", "A round is already in progress."),
    ]
    for text, kind, reason in cases:
        await ws.send_to(text_data=text)
        reply = await receive_until(ws, kind)
        assert reply["reason"] == reason, text
    # Another player's round: bob is not seated at this second table.
    other = await sync_to_async(services.table_create)(host=bob, bots=("easy",))
    other_round = await start_now(other)
    await ws.send_json_to({"type": "submit", "round_id": other_round.pk, "word": "cat"})
    assert (await receive_until(ws, "result"))["reason"] == "You are not playing in this round."
    # Late: the deadline has passed.
    await sync_to_async(HuntRound.objects.filter(pk=game_round.pk).update)(deadline=timezone.now())
    await ws.send_json_to({"type": "submit", "round_id": game_round.pk, "word": "cat"})
    assert (await receive_until(ws, "result"))["outcome"] == "late"
    assert not await sync_to_async(FoundWord.objects.exists)()


async def test_a_flood_is_rate_limited(ws_connect, make_user):
    """A flood of submissions gets refusals, not a closed socket."""
    table, ann, bob = await rampage_table(make_user)
    game_round = await start_now(table)
    ws = await ready(ws_connect, f"/ws/hunts/{table.pk}/", ann)
    for _ in range(30):
        await ws.send_json_to({"type": "submit", "round_id": game_round.pk, "word": "zzz"})
    reasons = []
    for _ in range(30):
        message = json.loads(await ws.receive_from(timeout=5))
        if message["type"] in ("result", "error"):
            reasons.append(message["reason"])
    assert any("slow down" in reason for reason in reasons)
    await asyncio.sleep(1)  # the socket's token bucket refills
    await ws.send_json_to({"type": "ping"})
    await receive_until(ws, "pong")


async def test_a_word_the_table_was_told_of_is_answered_taken_without_a_statement(ws_connect, make_user, monkeypatch):
    """Once a find is announced at the table, the process answers later tries of the word
    itself, typed or dragged, with who took it: no statement, no try counted."""
    table, ann, bob = await rampage_table(make_user)
    game_round = await start_now(table)
    ann_ws = await ready(ws_connect, f"/ws/hunts/{table.pk}/", ann)
    bob_ws = await ready(ws_connect, f"/ws/hunts/{table.pk}/", bob)
    await bob_ws.send_json_to({"type": "submit", "round_id": game_round.pk, "word": "cat"})
    assert (await receive_until(bob_ws, "result"))["outcome"] == "accepted"
    await receive_until(ann_ws, "round.found", word="cat")

    async def no_statement(*args):
        raise AssertionError("a known word reached the database")

    monkeypatch.setitem(submissions._ASYNC_IO, "store", no_statement)
    for guess in ({"word": "CAT"}, {"path": [[0, 0], [0, 1], [0, 2]]}):
        await ann_ws.send_json_to({"type": "submit", "round_id": game_round.pk, **guess})
        result = await receive_until(ann_ws, "result")
        assert (result["outcome"], result["reason"]) == ("taken", f"{bob.name_and_username} found CAT first.")
    assert await sync_to_async(FoundWord.objects.count)() == 1


async def test_the_submission_limit_is_per_player_across_tabs(ws_connect, make_user):
    """Two tabs each under their socket's limit still share one player's limit on tries."""
    table, ann, _ = await rampage_table(make_user)
    game_round = await start_now(table)
    lexicon = await sync_to_async(get_lexicon)(game_round.lexicon_code, game_round.lexicon_version)
    words = sorted(hunt.solve(BOARD, lexicon, game_round.min_length))[:20]
    tabs = [await ready(ws_connect, f"/ws/hunts/{table.pk}/", ann) for _ in range(2)]
    # 20 good words in all: more than the limit even if a period boundary splits them.
    for n in range(0, 20, 2):
        for tab, word in zip(tabs, words[n : n + 2], strict=True):
            await tab.send_json_to({"type": "submit", "round_id": game_round.pk, "word": word})
    results = [await receive_until(tab, "result") for tab in tabs for _ in range(10)]
    assert "Too many submissions; slow down." in [result["reason"] for result in results]
    accepted = [result["word"] for result in results if result["outcome"] == "accepted"]
    assert len(accepted) <= 2 * submissions.SUBMIT_LIMIT
    stored = await sync_to_async(set)(FoundWord.objects.filter(round=game_round).values_list("word", flat=True))
    assert stored == set(accepted)


async def test_end_round_twice_broadcasts_results_once(ws_connect, make_user):
    """round_end run twice gives the same result and announces it once."""
    table, ann, bob = await rampage_table(make_user)
    game_round = await start_now(table)
    ws = await ready(ws_connect, f"/ws/hunts/{table.pk}/", bob)
    await ws.send_json_to({"type": "submit", "round_id": game_round.pk, "word": "sex"})
    assert (await receive_until(ws, "result"))["outcome"] == "accepted"
    assert game_round.pk in submissions._finds_known  # the process remembers the find
    deadline = timezone.now() + timedelta(seconds=61)
    first = await sync_to_async(services.round_end)(round_id=game_round.pk, now=deadline)
    ended = await receive_until(ws, "round.ended")
    assert ended["results_url"] == game_round.get_absolute_url()
    await receive_until(ws, "state")  # the round's end reached the process: its finds are forgotten
    assert game_round.pk not in submissions._finds_known
    second = await sync_to_async(services.round_end)(round_id=game_round.pk, now=deadline + timedelta(minutes=5))
    assert await no_message(ws, "round.ended")
    assert first.ended_at == second.ended_at and second.status == RoundStatus.FINISHED
    scores = await sync_to_async(lambda: sorted(second.players.values_list("score", flat=True)))()
    assert scores == [0, 10]


async def test_reconnect_restores_the_round(ws_connect, make_user):
    """Reconnecting mid-round gives the board, found words, scores and the deadline again."""
    table, ann, bob = await rampage_table(make_user)
    game_round = await start_now(table)
    ws = await ready(ws_connect, f"/ws/hunts/{table.pk}/", ann)
    await ws.send_json_to({"type": "submit", "round_id": game_round.pk, "word": "cat"})
    await receive_until(ws, "result")
    await ws.disconnect()
    again = await ready(ws_connect, f"/ws/hunts/{table.pk}/", ann)
    state = again.first_state
    round_state = state["round"]
    assert round_state["id"] == game_round.pk and round_state["faces"][0] == ["c", "a", "t", "s"]
    assert round_state["bonuses"] == {"0,0": "3L", "0,2": "3W", "2,2": "2L", "3,3": "2L"}
    assert [f["word"] for f in round_state["found"]] == ["cat"]
    assert round_state["deadline"] == int(game_round.deadline.timestamp() * 1000)
    assert abs(state["server_now"] - timezone.now().timestamp() * 1000) < 2000
    assert {s["name"]: s["score"] for s in state["seats"]} == {"ann": 33, "bob": 0}


async def test_two_tabs_are_one_player(ws_connect, make_user):
    """A player with two tabs is one player: a word found in one is taken in the other."""
    table, ann, bob = await rampage_table(make_user)
    game_round = await start_now(table)
    tab1 = await ready(ws_connect, f"/ws/hunts/{table.pk}/", ann)
    tab2 = await ready(ws_connect, f"/ws/hunts/{table.pk}/", ann)
    await tab1.send_json_to({"type": "submit", "round_id": game_round.pk, "word": "cat"})
    assert (await receive_until(tab1, "result"))["outcome"] == "accepted"
    assert (await receive_until(tab2, "round.found"))["word"] == "cat"
    await tab2.send_json_to({"type": "submit", "round_id": game_round.pk, "word": "cat"})
    assert (await receive_until(tab2, "result"))["reason"] == "You already found CAT."


async def test_classic_players_see_only_counts_of_others(ws_connect, make_user):
    """Classic: the finder's tabs get the word; others only a count."""

    @sync_to_async
    def classic_table():
        ann, bob = make_user("ann"), make_user("bob")
        table = services.table_create(host=ann, game="classic", size=4)
        services.table_join(table_id=table.pk, user=bob)
        return table, ann, bob

    table, ann, bob = await classic_table()
    game_round = await start_now(table, hunt.Board(BOARD.faces))
    ws_ann = await ready(ws_connect, f"/ws/hunts/{table.pk}/", ann)
    ws_bob = await ready(ws_connect, f"/ws/hunts/{table.pk}/", bob)
    await ws_ann.send_json_to({"type": "submit", "round_id": game_round.pk, "word": "cats"})
    assert (await receive_until(ws_ann, "result"))["points"] == 1
    assert await no_message(ws_ann, "round.mine")  # the reply told this socket already
    count = await receive_until(ws_bob, "round.count")
    assert (count["user_id"], count["count"]) == (ann.pk, 1)
    assert await no_message(ws_bob, "round.mine")
    await ws_ann.send_json_to({"type": "submit", "round_id": game_round.pk, "word": "rate"})
    count = await receive_until(ws_bob, "round.count")
    assert (count["user_id"], count["count"]) == (ann.pk, 2)


async def test_start_over_the_socket_and_lobby_updates(ws_connect, make_user):
    """The host starts over the socket; the lobby hears about new tables."""
    lobby = await ws_connect("/ws/hunts/lobby/")
    await receive_until(lobby, "lobby.tables")
    table, ann, bob = await rampage_table(make_user)
    listing = await receive_until(lobby, "lobby.tables")
    assert f'data-table-id="{table.pk}"' in listing["html"]
    ws = await ready(ws_connect, f"/ws/hunts/{table.pk}/", ann)
    await ws.send_json_to({"type": "start"})
    state = await receive_until(ws, "state")
    while state["round"] is None:
        state = await receive_until(ws, "state")
    assert state["round"]["status"] == "playing"
    assert state["round"]["starts_at"] > state["server_now"]  # the 3-2-1 is still running


async def until_prepared(round_id):
    from games.hunts.services import submissions

    for _ in range(100):
        # Kept, and the preparation's task done (it is forgotten only then).
        if round_id in submissions._facts_kept and round_id not in submissions._preparing:
            return submissions._facts_kept[round_id]
        await asyncio.sleep(0.05)
    raise AssertionError(f"round {round_id} was not prepared")


async def test_a_playing_round_is_read_before_its_first_word(ws_connect, make_user):
    """A socket that sees a round start, or connects to one playing, gets its process ready
    for the round's words: the round's facts and its word list are loaded before anyone
    submits, so the first words of all the tables a process serves do not queue for them."""
    from games.hunts.services import submissions
    from lexicon import services as lexicon

    table, ann, bob = await rampage_table(make_user)
    path = f"/ws/hunts/{table.pk}/"
    ws_ann = await ready(ws_connect, path, ann)
    await ws_ann.send_json_to({"type": "start"})
    state = await receive_until(ws_ann, "state")
    while state["round"] is None:
        state = await receive_until(ws_ann, "state")
    round_id = state["round"]["id"]
    kept = await until_prepared(round_id)
    assert kept == await sync_to_async(submissions.round_facts)(round_id, fresh=True)

    # A process that has neither (a restart, say): the next socket to connect prepares both.
    submissions.forget_round(round_id)
    lexicon.forget_loaded()
    await ready(ws_connect, path, bob)
    kept = await until_prepared(round_id)
    for _ in range(100):
        if lexicon.loaded_lexicon(kept.lexicon_code, kept.lexicon_version) is not None:
            break
        await asyncio.sleep(0.05)
    assert lexicon.loaded_lexicon(kept.lexicon_code, kept.lexicon_version) is not None


async def test_unknown_table_is_refused(ws_connect):
    """A socket to a table that does not exist is closed with 4404."""
    ws = await ws_connect("/ws/hunts/999999/")
    assert (await ws.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4404}
