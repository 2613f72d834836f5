"""Everything a hunt use case announces or schedules, queued to run after its commit.

Services call these inside their transaction; nothing is sent or scheduled for a change
that rolls back, and a task never starts before the rows it reads are committed.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.template.loader import render_to_string

from config.realtime import broadcast, broadcast_many, broadcast_many_on_commit, encoded
from games.hunts import selectors, tasks  # tasks queue back into the services, which tell through here
from games.hunts.bot_profiles import first_turn_delay
from games.hunts.models import FoundWord, Game, HuntTable

LOBBY_GROUP = "hunts.lobby"
logger = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    """Every socket open on one table: players and watchers."""
    return f"hunts.table.{table_id}"


def player_group(table_id: int, user_id: int) -> str:
    """Every tab one player has open on one table."""
    return f"hunts.table.{table_id}.user.{user_id}"


def lobby_tables_message() -> dict:
    """The lobby's list of open tables, as sockets receive it (on connect and on change)."""
    html = render_to_string("hunts/_lobby_tables.html", {"tables": selectors.open_tables()})
    return {"type": "lobby.tables", "html": html}


# A thread's batch of lobby refreshes (``lobby_batched``): None outside one, else
# whether a refresh is owed at its end.
_batch = threading.local()


def _send_lobby() -> None:
    if getattr(_batch, "owed", None) is not None:
        _batch.owed = True
        return
    broadcast(LOBBY_GROUP, lobby_tables_message())


@contextmanager
def lobby_batched():
    """Within, the lobby refreshes of every committed change wait, and one goes at the
    end: a pass seating many tables reads and draws the lobby once, not once a table."""
    if getattr(_batch, "owed", None) is not None:  # within a batch already
        yield
        return
    _batch.owed = False
    try:
        yield
    finally:
        owed, _batch.owed = _batch.owed, None
        if owed:
            _send_lobby()


def _on_commit_once(hook) -> None:
    """Queue ``hook`` after the commit unless an equal one is queued already: what it sends
    is read when it runs, after the commit, so one covers every change of the transaction.

    A queued hook cannot be dropped without this change: it is dropped only when a
    savepoint open at its queuing rolls back, and of those, the ones still open enclose
    this change too (the released can no longer roll back on their own)."""
    connection = transaction.get_connection()
    if connection.in_atomic_block and any(func == hook for _, func, *_ in connection.run_on_commit):
        return
    transaction.on_commit(hook)


def lobby_changed() -> None:
    _on_commit_once(_send_lobby)


def send_table_state(table_id: int, before: dict | None = None) -> None:
    """Read the table's state once and send it to every socket on the table.

    Watchers and players share one message on the table's group; in Classic each player
    also gets the state with their own words on their own group, and their sockets skip
    the shared one (``private`` lists them). ``before``, a message sent just ahead of the
    state on every socket (encoded once), keeps the two in order. The state itself is
    encoded per socket: it carries who is looking and the time now.
    """
    try:
        table = HuntTable.objects.select_related("host").filter(pk=table_id).first()
        state = selectors.shared_state(table) if table is not None else None
    except Exception:
        # Runs after the commit it announces: a page catches up on its next state.
        logger.exception("hunt table %s: the state to send could not be read", table_id)
        state = None
    if state is None:
        if before is not None:
            broadcast(table_group(table_id), encoded(before))
        return
    private = selectors.private_players(state)
    before_text = encoded(before)["text"] if before is not None else None
    event = {"type": "table.state", "before": before_text, "private": private}
    # One send for the table's group and each Classic player's own (a round of four
    # started or ended is five messages), not a round trip each.
    sends = [(table_group(table_id), {**event, "state": selectors.private_state(state, None)})]
    for user_id in private:
        own = selectors.private_state(state, user_id)
        sends.append((player_group(table_id, user_id), {**event, "own": True, "state": own}))
    broadcast_many(sends)


@dataclass(frozen=True)
class _TableState:
    """The hook sending a table's state; equal for the same table (``_on_commit_once``)."""

    table_id: int

    def __call__(self) -> None:
        send_table_state(self.table_id)


def table_changed(table_id: int) -> None:
    """The table's state goes to its sockets after the commit, once however many of the
    transaction's changes (seats taken, a round started) call for it."""
    _on_commit_once(_TableState(table_id))


def watchers_changed(table_id: int) -> None:
    def send() -> None:
        count = selectors.watcher_count(table_id)
        broadcast(table_group(table_id), encoded({"type": "table.watchers", "count": count}))

    transaction.on_commit(send)


def round_started(game_round, bots: list[tuple[int, str]]) -> None:
    """Tell the table, and schedule the round's end and its bots' first turns."""
    round_id, table_id, deadline = game_round.pk, game_round.table_id, game_round.deadline
    starts_at = game_round.starts_at

    def after_commit() -> None:
        tasks.end_round.apply_async((round_id,), eta=deadline)
        for user_id, strength in bots:
            first_turn = starts_at + timedelta(seconds=first_turn_delay(strength))
            tasks.bot_turn.apply_async((round_id, user_id, 0), eta=first_turn)

    transaction.on_commit(after_commit)
    table_changed(table_id)
    lobby_changed()


def bot_turn_planned(round_id: int, user_id: int, *, turn: int, at) -> None:
    """Queue a bot's ``turn`` to run at ``at``."""
    transaction.on_commit(lambda: tasks.bot_turn.apply_async((round_id, user_id, turn), eta=at))


def word_found(game_round, user, *, word: str, points: int, path, bonuses) -> None:
    """Announce a stored find when its transaction commits (``word_found_messages``)."""
    count = None
    if game_round.game == Game.CLASSIC:
        count = FoundWord.objects.filter(round_id=game_round.pk, user_id=user.pk).count()
    messages = word_found_messages(game_round, user, word=word, points=points, path=path, bonuses=bonuses, count=count)

    def send() -> None:
        for group, message in messages:
            broadcast(group, message)

    transaction.on_commit(send)


def word_found_messages(
    game_round, user, *, word: str, points: int, path, bonuses, count: int | None
) -> list[tuple[str, dict]]:
    """Rampage: everyone sees the find. Classic: everyone sees the finder's ``count`` of
    words, the finder the word. As (group, message) pairs to broadcast.

    ``game_round`` is anything with the round's ``pk``, ``table_id`` and ``game`` (a
    ``HuntRound`` or the submit path's ``RoundFacts``). Each message is encoded once
    for all its sockets; the finder's sockets skip the find they were answered with,
    which ``user_id``, ``round_id`` and ``word`` beside the text let them see.
    """
    table_id, round_id = game_round.table_id, game_round.pk
    found = {
        "type": "round.found",
        "round_id": round_id,
        "word": word,
        "points": points,
        "user_id": user.pk,
        "name": user.name_and_username,
        "bonuses": list(bonuses),
        "path": [list(square) for square in path],
    }
    finder = {"round_id": round_id, "user_id": user.pk, "word": word}
    if game_round.game == Game.RAMPAGE:
        return [(table_group(table_id), encoded(found, **finder))]
    counted = {"type": "round.count", "round_id": round_id, "user_id": user.pk, "count": count}
    return [
        (player_group(table_id, user.pk), encoded({**found, "type": "round.mine"}, **finder)),
        (table_group(table_id), encoded(counted)),
    ]


def round_ended(game_round) -> None:
    """Every socket hears the end with the results to show, then the table's new state.

    Both are made once here, so no page asks for either (the results are the same for
    everyone who may see the table).
    """
    table_id, round_id = game_round.table_id, game_round.pk
    url = game_round.get_absolute_url()

    def send() -> None:
        try:
            results = selectors.round_results(round_id)
            html = render_to_string("hunts/_results.html", results) if results else None
        except Exception:
            logger.exception("hunt round %s: the results could not be drawn", round_id)
            html = None  # each page fetches them itself
        ended = {"type": "round.ended", "round_id": round_id, "results_url": url, "html": html}
        send_table_state(table_id, before=ended)

    transaction.on_commit(send)
    lobby_changed()


# --------------------------------------------------------------------------- ranked queue

QUEUE_COUNTS_GROUP = "hunts.queue.counts"


def queue_group(user_id: int) -> str:
    """Every lobby tab of one player, for their ranked queue status."""
    return f"hunts.queue.user.{user_id}"


def queue_changed(pool: str, user_ids: list[int]) -> None:
    """The pool's waiting count changed; ``user_ids``' own queue status changed."""

    def send() -> None:
        broadcast(QUEUE_COUNTS_GROUP, {"type": "queue.counts", "counts": selectors.queue_counts()})
        for user_id in user_ids:
            broadcast(queue_group(user_id), {"type": "queue.changed"})

    transaction.on_commit(send)


def queue_joined(pool: str) -> None:
    """Run a matcher pass over ``pool`` now rather than at the next beat."""
    transaction.on_commit(lambda: tasks.match_ranked.apply_async((pool,), expires=10))


def tables_decided(pool: str, tables: list[list[int]], *, kept) -> None:
    """Seat each decided table in a task of its own, so many workers seat a burst; a task
    not run while the players are ``kept`` for it is dropped (the matcher decides again)."""

    def send() -> None:
        for players in tables:
            tasks.seat_ranked.apply_async((pool, players), expires=kept.total_seconds())

    transaction.on_commit(send)


def queue_matched(user_ids: list[int], table_url: str) -> None:
    """Send each matched player's open lobby pages to their new table: one send for the
    table's players together."""
    matched = {"type": "queue.matched", "url": table_url}
    broadcast_many_on_commit([(queue_group(user_id), matched) for user_id in user_ids])
