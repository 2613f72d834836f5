"""Ranked queue and matcher passes against PostgreSQL: tables from a spread queue, a widening
window, refusals, the disconnect grace, the bot offer, restarts and two matchers at once."""

from __future__ import annotations

import threading
import time
from contextlib import ExitStack
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone

from config.celery import app
from games.hunts import services
from games.hunts.models import HuntRound, HuntSeat, HuntTable, QueueEntry, RoundStatus, TableStatus
from games.hunts.services import matchmaking
from tests.conftest import celery_worker_running

pytestmark = pytest.mark.django_db


def queue(make_user, pool, *ratings, waited=0.0, now=None):
    """Queue one new player per rating, each having waited ``waited`` seconds by ``now``.

    Their pages were last heard from at ``now``; without a ``now`` (a test whose passes
    run on the real clock) once all of them are queued, since making the players may
    take longer than the grace on a busy machine.
    """
    joined = now or timezone.now()
    users = []
    for rating in ratings:
        user = make_user()
        services.queue_join(user=user, pool=pool, now=joined - timedelta(seconds=waited))
        QueueEntry.objects.filter(user=user).update(rating=rating)
        users.append(user)
    QueueEntry.objects.filter(user__in=users).update(seen_at=now or timezone.now())
    return users


def seated(user) -> list[HuntSeat]:
    return list(HuntSeat.objects.filter(user=user, left_at__isnull=True).select_related("table"))


def table_of(user) -> HuntTable:
    seats = seated(user)
    assert len(seats) == 1, f"{user} holds {len(seats)} seats"
    return seats[0].table


# --------------------------------------------------------------------------- joining


def test_join_records_the_pool_rating_and_time(make_user):
    """Joining stores the player's rating in that pool (1500 for a new player) and when."""
    ann = make_user("ann")
    entry = services.queue_join(user=ann, pool="classic5")
    assert (entry.pool, entry.rating) == ("classic5", 1500)
    assert matchmaking.queue_status(ann)["state"] == "waiting"
    assert matchmaking.queue_counts() == {"rampage": 0, "classic4": 0, "classic5": 1}


def test_joining_twice_or_from_another_tab_is_refused(make_user):
    """A second join, same pool (another tab) or another pool, is refused and changes nothing."""
    ann = make_user("ann")
    services.queue_join(user=ann, pool="rampage")
    with pytest.raises(services.Refused, match="already waiting in the Word Rampage queue \\(in another tab"):
        services.queue_join(user=ann, pool="rampage")
    with pytest.raises(services.Refused, match="already waiting in the Word Rampage queue; cancel it first"):
        services.queue_join(user=ann, pool="classic4")
    assert list(QueueEntry.objects.values_list("pool", flat=True)) == ["rampage"]


@pytest.mark.parametrize(
    "who, pool, reason",
    [
        ("bot", "rampage", "Bots do not play ranked."),
        ("anonymous", "rampage", "Log in to play ranked."),
        ("ann", "chess", "Unknown ranked pool."),
        ("ann", "wordgrid", "Unknown ranked pool."),
    ],
)
def test_bad_joins_are_refused(make_user, who, pool, reason):
    from django.contrib.auth.models import AnonymousUser

    user = {
        "bot": lambda: make_user("easy-bot", is_bot=True),
        "anonymous": AnonymousUser,
        "ann": lambda: make_user("ann"),
    }[who]()
    with pytest.raises(services.Refused) as refused:
        services.queue_join(user=user, pool=pool)
    assert refused.value.reason == reason
    assert not QueueEntry.objects.exists()


def test_cancel_and_cancel_again(make_user):
    """Cancelling leaves the queue; a second cancel is refused with a reason."""
    ann = make_user("ann")
    services.queue_join(user=ann, pool="rampage")
    services.queue_cancel(user=ann)
    assert not QueueEntry.objects.exists()
    with pytest.raises(services.Refused, match="not waiting"):
        services.queue_cancel(user=ann)
    services.queue_join(user=ann, pool="classic4")  # free to join again


def test_joining_while_in_a_ranked_round_is_refused_and_after_it_leaves_the_table(make_user):
    """Seated at a ranked table mid-round: refused. Between rounds: the seat is given up."""
    ann, bob = queue(make_user, "rampage", 1500, 1500, waited=10)
    matchmaking.match_pool(pool="rampage")
    table = table_of(ann)
    assert matchmaking.queue_status(ann) == {"state": "playing", "table_id": table.pk, "url": f"/hunts/{table.pk}/"}
    with pytest.raises(services.Refused, match=f"seated at ranked table {table.pk}"):
        services.queue_join(user=ann, pool="classic4")
    game_round = HuntRound.objects.get(table=table)
    services.round_end(round_id=game_round.pk, now=game_round.deadline)
    services.queue_join(user=ann, pool="classic4")
    assert seated(ann) == [] and len(seated(bob)) == 1


def test_a_queued_player_cannot_sit_at_a_ranked_table_by_hand(make_user):
    """Ranked seats and the queue exclude each other whichever way round."""
    ann, bob = make_user("ann"), make_user("bob")
    table = services.table_create(host=ann, ranked=True)
    services.queue_join(user=bob, pool="rampage")
    with pytest.raises(services.Refused, match="waiting in the Word Rampage ranked queue"):
        services.table_join(table_id=table.pk, user=bob)
    with pytest.raises(services.Refused, match="waiting in the Word Rampage ranked queue"):
        services.table_create(host=bob, ranked=True)
    with pytest.raises(services.Refused, match=f"seated at ranked table {table.pk}"):
        services.queue_join(user=ann, pool="rampage")
    services.table_create(host=bob)  # a casual table is fine


# --------------------------------------------------------------------------- passes


def test_a_spread_queue_forms_tables_of_close_ratings_and_starts_their_rounds(make_user):
    """Four close players sit at once at a ranked table whose round starts with the 3-2-1;
    the far ones wait; entries of seated players are gone."""
    now = timezone.now()
    close = queue(make_user, "classic4", 1500, 1510, 1530, 1540, now=now)
    far = queue(make_user, "classic4", 1800, 2100, now=now)
    report = matchmaking.match_pool(pool="classic4", now=now)
    assert len(report.tables) == 1 and report.waiting == 2
    table = HuntTable.objects.get(pk=report.tables[0])
    assert (table.ranked, table.game, table.size, table.seat_count) == (True, "classic", 4, 4)
    assert {s.user_id for s in table.seats.all()} == {u.pk for u in close}
    assert table.host_id == close[0].pk
    game_round = HuntRound.objects.get(table=table)
    assert game_round.status == RoundStatus.PLAYING
    assert now + timedelta(seconds=3) <= game_round.starts_at <= timezone.now() + timedelta(seconds=3)
    assert set(QueueEntry.objects.values_list("user_id", flat=True)) == {u.pk for u in far}


def test_the_window_widens_until_far_players_meet(make_user):
    """Two players 300 apart wait while their windows are narrow and meet once they cover 300."""
    start = timezone.now()
    ann, bob = queue(make_user, "rampage", 1400, 1700, now=start)
    assert matchmaking.match_pool(pool="rampage", now=start + timedelta(seconds=10)).tables == ()
    for player in (ann, bob):  # their pages are still open
        services.queue_touch(user=player, now=start + timedelta(seconds=20))
    report = matchmaking.match_pool(pool="rampage", now=start + timedelta(seconds=23))
    assert len(report.tables) == 1
    assert table_of(ann) == table_of(bob)


def test_a_silent_player_is_dropped_after_the_grace_and_can_rejoin(make_user):
    """A player whose page stopped pinging is dropped by the next pass; one still pinging stays."""
    start = timezone.now()
    ann, bob = queue(make_user, "rampage", 1000, 2000, now=start)
    later = start + matchmaking.GRACE + timedelta(seconds=1)
    services.queue_touch(user=bob, now=later - timedelta(seconds=2))
    report = matchmaking.match_pool(pool="rampage", now=later)
    assert report.dropped == (ann.pk,)
    assert list(QueueEntry.objects.values_list("user_id", flat=True)) == [bob.pk]
    services.queue_join(user=ann, pool="rampage")


def test_nobody_to_match_offers_a_bot_then_one_click_starts_a_casual_round(make_user):
    """After the set wait the pass offers a bot; taking it leaves the queue for a casual table
    with a bot whose round has started; asking before the offer is refused."""
    start = timezone.now()
    (ann,) = queue(make_user, "classic5", 1500, now=start)
    with pytest.raises(services.Refused, match="Keep waiting"):
        services.queue_play_bot(user=ann)
    offer_at = start + timedelta(seconds=matchmaking.POLICY.bot_offer_after)
    services.queue_touch(user=ann, now=offer_at)
    assert matchmaking.match_pool(pool="classic5", now=offer_at).offered == (ann.pk,)
    assert matchmaking.queue_status(ann)["bot_offer"] is True
    table = services.queue_play_bot(user=ann)
    assert (table.ranked, table.game, table.size) == (False, "classic", 5)
    assert [s.bot_strength for s in table.seats.order_by("position")] == ["", "medium"]
    assert HuntRound.objects.get(table=table).status == RoundStatus.PLAYING
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_queue_survives_a_restart(make_user):
    """The queue is rows: players queued while no worker ran, whose queued passes were lost
    with the broker, are seated by a worker started afterwards, through the real task,
    each exactly once."""
    from games.hunts import tasks

    players = queue(make_user, "rampage", 1500, 1505, 1510, 1515)
    # Each join queued a pass; no worker has run one, and the broker loses them.
    app.control.purge()
    # The rows are all there is: a fresh connection, as a restarted process has, sees them.
    connection.close()
    assert QueueEntry.objects.count() == 4
    with celery_worker_running():
        for player in players:  # their pages ping on while the worker starts
            services.queue_touch(user=player)
        tasks.match_ranked.delay("rampage")
        deadline = time.monotonic() + 20
        while QueueEntry.objects.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
    assert not QueueEntry.objects.exists()
    tables = {table_of(p).pk for p in players}
    assert len(tables) == 1


def test_seating_never_happens_twice_in_one_pass_or_the_next(make_user):
    """A second pass after a first one seats nobody again."""
    now = timezone.now()
    players = queue(make_user, "rampage", *range(1500, 1580, 10), now=now)
    first = matchmaking.match_pool(pool="rampage", now=now)
    second = matchmaking.match_pool(pool="rampage", now=now + timedelta(seconds=1))
    assert len(first.tables) == 2 and second.tables == ()
    for player in players:
        assert len(seated(player)) == 1


# --------------------------------------------------------------------------- two matchers at once


def _race(slow: str, pool_lock: bool):
    """Run two passes over the same pool on two connections, the first one slowed while it
    decides (holding the pool lock) or while it seats (holding its first table's entries);
    returns both reports."""
    target = {"decide": (matchmaking.matching, "match"), "seat": (matchmaking, "_seat_table")}[slow]
    real = getattr(*target)
    inside = threading.Event()
    reports = {}

    def slowed(*args, **kwargs):
        inside.set()
        time.sleep(0.5)
        return real(*args, **kwargs)

    def run(name, first):
        try:
            with ExitStack() as stack:
                if not pool_lock:
                    stack.enter_context(mock.patch.object(matchmaking, "_pool_lock_taken", lambda pool: True))
                if first:
                    stack.enter_context(mock.patch.object(*target, slowed))
                reports[name] = matchmaking.match_pool(pool="rampage")
        finally:
            connection.close()

    first = threading.Thread(target=run, args=("first", True))
    first.start()
    assert inside.wait(10)
    second = threading.Thread(target=run, args=("second", False))
    second.start()
    second.join()
    first.join()
    return reports


@pytest.mark.django_db(transaction=True)
def test_a_second_matcher_skips_a_pool_being_decided(make_user):
    """While one pass decides a pool, a pass on another connection skips it at once."""
    players = queue(make_user, "rampage", *range(1500, 1580, 10))
    reports = _race("decide", pool_lock=True)
    assert reports["second"].skipped and len(reports["first"].tables) == 2
    for player in players:
        assert len(seated(player)) == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("pool_lock", [True, False], ids=["pool-lock", "row-locks-only"])
def test_two_matchers_at_once_never_seat_a_player_twice(make_user, pool_lock):
    """While one pass is seating, a second pass on another connection seats nobody twice:
    the entries being seated are locked (SKIP LOCKED), the others reserved for their
    decided table, and those already seated gone; even with the pool lock taken away.
    Every player ends with exactly one seat."""
    players = queue(make_user, "rampage", *range(1500, 1580, 10))
    reports = _race("seat", pool_lock)
    assert len(reports["first"].tables) == 2 and reports["second"].tables == ()
    for player in players:
        assert len(seated(player)) == 1
    assert HuntTable.objects.filter(ranked=True).count() == 2
    assert not QueueEntry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_cancel_racing_a_pass_is_either_seated_or_gone(make_user):
    """A cancel while the pass holds the player's entry waits for it: the player is then
    seated and told they are no longer waiting, never both seated and queued."""
    players = queue(make_user, "rampage", 1500, 1505, 1510, 1515)
    real_seat = matchmaking._seat_table
    inside = threading.Event()
    outcome = {}

    def slow_seat(*args, **kwargs):
        inside.set()
        time.sleep(0.5)
        return real_seat(*args, **kwargs)

    def run():
        try:
            with mock.patch.object(matchmaking, "_seat_table", slow_seat):
                matchmaking.match_pool(pool="rampage")
        finally:
            connection.close()

    matcher = threading.Thread(target=run)
    matcher.start()
    assert inside.wait(10)
    try:
        services.queue_cancel(user=players[0])
        outcome["cancel"] = "done"
    except services.Refused as refused:
        outcome["cancel"] = refused.reason
    matcher.join()
    assert outcome["cancel"] == "You are not waiting in a ranked queue."
    assert len(seated(players[0])) == 1


def test_leaving_a_finished_ranked_table_to_queue_again_keeps_the_old_result(make_user):
    """The old table keeps its finished round; the player is free to be matched anew."""
    ann, bob = queue(make_user, "rampage", 1500, 1500, waited=10)
    matchmaking.match_pool(pool="rampage")
    table = table_of(ann)
    game_round = HuntRound.objects.get(table=table)
    services.round_end(round_id=game_round.pk, now=game_round.deadline)
    services.queue_join(user=ann, pool="rampage")
    services.queue_join(user=bob, pool="rampage")
    QueueEntry.objects.update(joined_at=timezone.now() - timedelta(seconds=10))
    report = matchmaking.match_pool(pool="rampage")
    assert len(report.tables) == 1 and report.tables[0] != table.pk
    assert HuntRound.objects.get(pk=game_round.pk).status == RoundStatus.FINISHED
    table.refresh_from_db()
    assert table.status in (TableStatus.BETWEEN, TableStatus.CLOSED)


def test_a_pass_dying_midway_loses_nobody_and_seats_nobody_twice(make_user):
    """A pass that dies while seating its second table leaves the first table seated and the
    second table's players still queued; once their reservation ends a pass seats them."""
    from games.hunts.services import rounds

    now = timezone.now()
    players = queue(make_user, "rampage", *range(1500, 1580, 10), now=now)
    real_start = rounds.round_start
    calls = {"n": 0}

    def dies_on_the_second(**kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("worker killed")
        return real_start(**kwargs)

    with mock.patch.object(rounds, "round_start", dies_on_the_second), pytest.raises(RuntimeError):
        matchmaking.match_pool(pool="rampage", now=now)
    assert QueueEntry.objects.count() == 4
    assert HuntTable.objects.filter(ranked=True).count() == 1
    # Their table stays theirs for the reservation, then they are matched afresh.
    assert matchmaking.match_pool(pool="rampage", now=now + timedelta(seconds=1)).decided == 0
    report = matchmaking.match_pool(pool="rampage", now=now + matchmaking.RESERVATION)
    assert len(report.tables) == 1
    for player in players:
        assert len(seated(player)) == 1


@pytest.mark.django_db(transaction=True)
def test_joining_the_queue_and_sitting_at_a_ranked_table_at_once(make_user):
    """The two ways into ranked play lock the player's row: a ranked seat taken while the
    queue join is still deciding waits for it and is refused, never both."""
    ann, bob = make_user("ann"), make_user("bob")
    table = services.table_create(host=bob, ranked=True)
    real_rating = matchmaking.ratings.player_rating
    deciding = threading.Event()
    outcome = {}

    def slow_rating(*args, **kwargs):
        deciding.set()
        time.sleep(0.5)  # queue_join holds ann's row meanwhile
        return real_rating(*args, **kwargs)

    def join():
        try:
            with mock.patch.object(matchmaking.ratings, "player_rating", slow_rating):
                services.queue_join(user=ann, pool="rampage")
            outcome["queue"] = "joined"
        finally:
            connection.close()

    joiner = threading.Thread(target=join)
    joiner.start()
    assert deciding.wait(10)
    with pytest.raises(services.Refused, match="waiting in the Word Rampage ranked queue"):
        services.table_join(table_id=table.pk, user=ann)
    joiner.join()
    assert outcome == {"queue": "joined"}
    assert seated(ann) == []


def test_a_decided_table_is_seated_once_however_often_its_task_runs(make_user):
    """A pass that leaves seating to tasks reserves the players; the seating task run twice
    seats one table; a table whose player cancelled is not seated and frees the others."""
    now = timezone.now()
    players = queue(make_user, "classic4", *range(1500, 1580, 10), now=now)
    report = matchmaking.match_pool(pool="classic4", now=now, seat=False)
    assert report.decided == 2 and report.tables == ()
    assert QueueEntry.objects.filter(reserved_until__isnull=False).count() == 8
    assert matchmaking.match_pool(pool="classic4", now=now, seat=False).decided == 0  # reserved
    first, second = [p.pk for p in players[:4]], [p.pk for p in players[4:]]
    table = matchmaking.seat_decided(pool="classic4", players=first)
    assert table is not None and matchmaking.seat_decided(pool="classic4", players=first) is None
    services.queue_cancel(user=players[4])
    assert matchmaking.seat_decided(pool="classic4", players=second) is None
    assert QueueEntry.objects.filter(reserved_until__isnull=True).count() == 3
    assert [len(seated(p)) for p in players] == [1, 1, 1, 1, 0, 0, 0, 0]


@pytest.mark.django_db(transaction=True)
def test_a_pass_seating_tables_refreshes_the_lobby_once(make_user):
    """A pass that seats two tables sends the lobby's list of tables once, after both, with both in it."""
    import asyncio

    from channels.layers import get_channel_layer

    from games.hunts.broadcasts import LOBBY_GROUP

    now = timezone.now()
    queue(make_user, "classic4", 1500, 1510, 1530, 1540, 2500, 2510, 2530, 2540, waited=60, now=now)
    layer = get_channel_layer()

    async def watch():
        channel = await layer.new_channel()
        await layer.group_add(LOBBY_GROUP, channel)
        report = await asyncio.to_thread(matchmaking.match_pool, pool="classic4", now=now)
        seen = []
        try:
            while True:
                seen.append(await asyncio.wait_for(layer.receive(channel), 2))
        except TimeoutError:
            pass
        return report, [message for message in seen if message["type"] == "lobby.tables"]

    report, lobbies = asyncio.run(watch())
    assert len(report.tables) == 2
    assert len(lobbies) == 1
    assert all(f'/hunts/{table}/"' in lobbies[0]["html"] for table in report.tables), lobbies[0]["html"][:500]


# --------------------------------------------------------------------------- seating in one pass


def test_an_arranged_ranked_table_checks_all_its_players_at_once(make_user):
    """A ranked table arranged for several players (the queue's, an arena's) is refused,
    changing nothing, if any of them waits in a queue or plays a ranked round elsewhere;
    their seats at ranked tables between rounds are given up."""
    ann, bob, cy, dee = (make_user(name) for name in ("ann", "bob", "cy", "dee"))
    first = services.table_arrange(players=[ann, bob], ranked=True)
    with pytest.raises(services.Refused, match=f"seated at ranked table {first.table_id}; finish"):
        services.table_arrange(players=[cy, bob], ranked=True)
    services.queue_join(user=dee, pool="classic4")
    with pytest.raises(services.Refused, match="waiting in the Classic 4×4 ranked queue"):
        services.table_arrange(players=[cy, dee], ranked=True)
    assert HuntTable.objects.count() == 1 and seated(cy) == []
    services.round_end(round_id=first.pk, now=first.deadline)
    second = services.table_arrange(players=[cy, ann, bob], ranked=True)
    assert [table_of(player).pk for player in (ann, bob, cy)] == [second.table_id] * 3
    assert list(second.table.seats.values_list("user_id", "position")) == [(cy.pk, 0), (ann.pk, 1), (bob.pk, 2)]


def _seating_cost(make_user, ratings) -> tuple[int, list[list[str]]]:
    """Seat one decided table of ``ratings``' players as a ``seat_ranked`` task does: the
    queries of its transaction, and the groups of each channel-layer send after it."""
    from django.test.utils import CaptureQueriesContext

    from config import realtime

    now = timezone.now()
    players = [player.pk for player in queue(make_user, "rampage", *ratings, waited=10, now=now)]
    sends = []
    real_send = realtime._group_send_many  # every channel-layer send goes through it

    async def counted(batch):
        sends.append(sorted(group for group, _ in batch))
        await real_send(batch)

    with mock.patch.object(realtime, "_group_send_many", counted), CaptureQueriesContext(connection) as captured:
        assert matchmaking.seat_decided(pool="rampage", players=players, now=now) is not None
    statements = [query["sql"] for query in captured.captured_queries]
    return statements.index("COMMIT") - statements.index("BEGIN") - 1, sends


@pytest.mark.django_db(transaction=True)
def test_seating_a_table_of_four_is_one_pass(make_user):
    """Four players are seated for the queries of two (their rows locked, checked and
    seated together), and each kind of news goes in one send for them all: a seating
    costs the same however many sit, where a join per player took about 65 queries and
    ten sends for four."""
    two, _ = _seating_cost(make_user, (1500, 1505))
    four, sends = _seating_cost(make_user, (1500, 1505, 1510, 1515))
    assert four == two and four <= 20, (two, four)
    assert len(sends) == 4, sends  # the table's state, the lobby, My games, the lobby pages
    assert not QueueEntry.objects.exists()
    for prefix in ("user.", "hunts.queue.user."):  # My games; the lobby pages sent to the table
        batches = [batch for batch in sends if any(group.startswith(prefix) for group in batch)]
        assert len(batches) == 1 and len([g for g in batches[0] if g.startswith(prefix)]) == 4, sends
