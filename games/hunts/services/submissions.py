"""Submitting a word in a live round: judged on the round's facts before the database is
touched, then stored with one statement sent together with the round's shared lock.

A submission's decisions are one generator (``_submission``) that says what it needs
(the round's facts, the store with its count of the player's tries, the first finder,
the announcement); bots answer it through Django in their thread (``round_submit``), a
table socket from the server's event loop on a connection of its own (``round_submit_async``).
Each process keeps the facts of the rounds it serves (``round_facts``), read once per
round and prepared ahead of its first word (``round_prepare_soon``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from channels.db import database_sync_to_async
from django.db import transaction
from django.utils import timezone

from config import loop_clients
from config.realtime import broadcast_async
from games.engine import hunt
from games.hunts import broadcasts
from games.hunts.models import (
    FoundWord,
    Game,
    HuntRound,
    RoundPlayer,
    RoundStatus,
    SubmissionCount,
)
from lexicon.services import get_lexicon, loaded_lexicon

from ..boards import board_of, path_to_text

logger = logging.getLogger(__name__)

MAX_WORD_LETTERS = 25
# Per player, across all their tabs and the web processes: at most this many tries to take
# a word per period. A try is a word judged good and not known taken; the others change
# nothing, cost no statement, and each socket's own message limit bounds them.
SUBMIT_LIMIT = 8
SUBMIT_PERIOD_SECONDS = 2
_WORD = re.compile(r"[a-z]+")


# --------------------------------------------------------------------------- submit


@dataclass(frozen=True)
class SubmitResult:
    """What a player is told about one submission.

    ``outcome``: "accepted" (green), "invalid" (red: not a word, not a legal path, too
    short), "taken" (amber: already found), "late" (after the deadline), "refused"
    (not allowed at all: not seated, too many submissions, malformed).
    """

    outcome: str
    word: str = ""
    reason: str = ""
    points: int = 0
    path: hunt.Path = ()
    bonuses: tuple[str, ...] = field(default=())

    def as_message(self) -> dict:
        return {
            "type": "result",
            "outcome": self.outcome,
            "word": self.word,
            "reason": self.reason,
            "points": self.points,
            "path": [list(square) for square in self.path],
            "bonuses": list(self.bonuses),
        }


def _parse_path(raw) -> hunt.Path | None:
    """A path from decoded JSON (lists of [row, col]); None if it is not that shape."""
    if not isinstance(raw, (list, tuple)) or len(raw) > 64:
        return None
    path = []
    for square in raw:
        if not (isinstance(square, (list, tuple)) and len(square) == 2 and all(type(n) is int for n in square)):
            return None
        path.append((square[0], square[1]))
    return tuple(path)


def round_submit(*, round_id: int, user, word=None, path=None, now: datetime | None = None) -> SubmitResult:
    """A seated player submits a word: dragged (``path``) or typed (``word``).

    Untrusted input is checked here and refused with a reason; nothing changes unless
    the word is accepted. Everything that can be judged from the round's fixed facts
    (its board, its pinned lexicon version, its seats) is judged before the database is
    asked; storing the word is then one short statement (``_store_find``), in which the
    unique constraint on (round, word) decides who was first in Rampage. Inside a
    transaction (a bot's turn) the find is announced when it commits.
    """
    steps = _submission(round_id, user, word, path, now or timezone.now())
    try:
        need = next(steps)
        while True:
            need = steps.send(_SYNC_IO[need[0]](*need[1:]))
    except StopIteration as done:
        return done.value


async def round_submit_async(*, round_id: int, user, word=None, path=None, now: datetime | None = None) -> SubmitResult:
    """``round_submit`` for a websocket handler, with its statement sent from the event
    loop itself (``config.loop_clients``) rather than a worker thread.

    The same decisions (``_submission``) with the same statement. What can be decided
    on this process's copy of the round (a word already known taken, a bad word) is
    answered at once; once the database or the channel layer is needed, the rest runs
    as a task of its own that the caller's cancellation (a socket closing) does not
    stop, so a stored find is always announced. Without PostgreSQL and a Redis cache (the
    embedded default) it is ``round_submit`` in a worker thread.
    """
    if not loop_clients.available():
        return await database_sync_to_async(round_submit, thread_sensitive=False)(
            round_id=round_id, user=user, word=word, path=path, now=now
        )
    steps = _submission(round_id, user, word, path, now or timezone.now())
    try:
        need = next(steps)
    except StopIteration as done:
        return done.value
    loop = asyncio.get_running_loop()
    answer = loop.create_future()
    _submitting.add(loop.create_task(_drive_async(steps, need, answer)))
    return await answer


_submitting: set[asyncio.Task] = set()  # kept referenced until done


async def _drive_async(steps, need, answer: asyncio.Future) -> None:
    """Answer ``steps``' needs from ``need`` on, each awaited on the event loop, and give
    the outcome to the caller through ``answer``.

    The caller's cancellation cancels ``answer`` alone, never this task (what
    ``asyncio.shield`` does, without its callbacks). A failure no caller heard of (its
    socket closed first) is logged, which asyncio would otherwise only report when the
    task is collected.
    """
    try:
        while True:
            need = steps.send(await _ASYNC_IO[need[0]](*need[1:]))
    except StopIteration as done:
        if not answer.done():
            answer.set_result(done.value)
    except Exception as error:
        if answer.done():
            logger.error("A submission failed after its socket closed", exc_info=error)
        else:
            answer.set_exception(error)
    except BaseException:  # this task itself was cancelled
        answer.cancel()
        raise
    finally:
        _submitting.discard(asyncio.current_task())


def _submission(round_id, user, word, path, now: datetime):
    """The decisions of a submission, as a generator that yields what it needs to know
    or do and is sent the answer: ``facts`` (the round read afresh), ``lexicon`` (the
    round's word list, when this process has not loaded it yet), ``store`` (which also
    counts a person's try against ``SUBMIT_LIMIT``), ``first_finder`` and ``announce``;
    ``_SYNC_IO`` and ``_ASYNC_IO`` answer them.

    ``round_submit`` answers with Django's connection in the caller's thread and
    ``round_submit_async`` from the event loop; the rules live only here.
    """
    if user is None or not user.is_authenticated:
        return SubmitResult("refused", reason="Watchers cannot submit words.")
    if not isinstance(round_id, int):
        return SubmitResult("refused", reason="No such round.")
    if path is not None:
        path = _parse_path(path)
        if path is None:
            return SubmitResult("refused", reason="A path is a list of [row, col] squares.")
    elif isinstance(word, str) and len(word) <= MAX_WORD_LETTERS * 2:
        word = word.strip().lower()
        if not _WORD.fullmatch(word) or len(word) > MAX_WORD_LETTERS:
            return SubmitResult("invalid", word=word[:MAX_WORD_LETTERS], reason="Only letters a–z, please.")
    else:
        return SubmitResult("refused", reason="Send a word or a path.")
    facts = _facts_kept.get(round_id)  # this process's copy, read by an earlier submission
    refusal = _refusal(facts, user.pk, now, word)
    if refusal is not None:  # a kept copy never refuses on its own
        facts = yield ("facts", round_id)
        refusal = _refusal(facts, user.pk, now, word)
    for _ in range(2):
        if refusal is not None:
            return refusal
        # A typed word known found is on the board and in the list: no need to judge it.
        first_finder = _finder_known(facts, user.pk, word) if path is None else None
        if first_finder is not None:
            return _taken(facts, user.pk, word, first_finder)
        judged = _judged_ahead(facts, word) if path is None else None
        if judged is None:
            lexicon = loaded_lexicon(facts.lexicon_code, facts.lexicon_version)
            if lexicon is None:  # loaded once per process and version, with a read of its changes
                lexicon = yield ("lexicon", facts.lexicon_code, facts.lexicon_version)
            judged = _judge(facts, word, path, lexicon)
        if judged.outcome != "accepted":
            return judged
        first_finder = _finder_known(facts, user.pk, judged.word) if path is not None else None
        if first_finder is not None:
            return _taken(facts, user.pk, judged.word, first_finder)
        stored = yield ("store", facts, user.pk, judged, now, not user.is_bot)
        if stored.too_many:
            return SubmitResult("refused", reason="Too many submissions; slow down.")
        if stored.found_id is not None:
            yield ("announce", facts, user, judged, stored.finder_count)
            return judged
        if stored.round_as_judged:
            first_finder = stored.first_finder
            if first_finder is None and facts.game == Game.RAMPAGE:  # it committed after the statement began
                first_finder = yield ("first_finder", facts.pk, judged.word)
            return _taken(facts, user.pk, judged.word, first_finder)
        facts = yield ("facts", round_id)  # the round changed: judge again on what it is now
        refusal = _refusal(facts, user.pk, now, word)
    return SubmitResult("refused", reason="The round changed; please try again.")


def _refusal(facts: RoundFacts | None, user_id: int, now: datetime, word: str | None) -> SubmitResult | None:
    """Why ``user_id`` may not submit at ``now`` in the round ``facts`` describe, or None."""
    if facts is None:
        return SubmitResult("refused", reason="No such round.")
    return facts.refusal(user_id, now, word)


@dataclass(frozen=True)
class RoundFacts:
    """A round as a submission is judged against it: board, rules, seats and times.

    Board, rules and seats are fixed when the round is created, so each process keeps
    them (``round_facts``). The status and times are only a first answer: the statement
    that stores a find checks them again in the database, with the board it was judged on.
    """

    pk: int
    table_id: int
    game: str
    size: int
    board_text: str
    lexicon_code: str
    lexicon_version: int
    min_length: int
    status: str
    starts_at: datetime
    deadline: datetime
    player_names: dict[int, str]  # every seat's shown name, by user id

    def refusal(self, user_id: int, now: datetime, word: str | None) -> SubmitResult | None:
        """Why ``user_id`` may not submit at ``now``, or None."""
        if user_id not in self.player_names:
            return SubmitResult("refused", reason="You are not playing in this round.")
        if self.status != RoundStatus.PLAYING or now >= self.deadline:
            return SubmitResult("late", word=word or "", reason="Time is up.")
        if now < self.starts_at:
            return SubmitResult("refused", reason="The round has not started yet.")
        return None


ROUND_FACTS_KEPT = 4096
_facts_kept: dict[int, RoundFacts] = {}
_facts_lock = threading.Lock()


def round_facts(round_id: int, *, fresh: bool = False) -> RoundFacts | None:
    """The round's facts, read once per process (again with ``fresh``); None if there is no such round."""
    if not fresh:
        facts = _facts_kept.get(round_id)
        if facts is not None:
            return facts
    row = (
        HuntRound.objects.filter(pk=round_id)
        .values_list(
            "table_id",
            "game",
            "size",
            "board",
            "lexicon_code",
            "lexicon_version",
            "min_length",
            "status",
            "starts_at",
            "deadline",
        )
        .first()
    )
    if row is None:
        forget_round(round_id)
        return None
    players = RoundPlayer.objects.filter(round_id=round_id).select_related("user")
    facts = RoundFacts(
        round_id, *row, player_names={player.user_id: player.user.name_and_username for player in players}
    )
    _keep(_facts_kept, round_id, facts, ROUND_FACTS_KEPT)
    return facts


def _keep(kept: dict, round_id: int, value, most: int) -> None:
    """Keep ``value`` for ``round_id`` in one of this process's memories of rounds, which
    holds at most ``most`` of them: the longest kept goes first."""
    with _facts_lock:
        kept.pop(round_id, None)
        while len(kept) >= most:
            del kept[next(iter(kept))]
        kept[round_id] = value


def round_prepare(round_id: int) -> None:
    """Read a round's facts, load its word list and judge every word on its board in
    this process before its first word.

    Otherwise the first submission of every round asks for the facts and the list, and
    the first words of all the tables a process serves arrive together at a round's
    start (or just after the process started), queueing behind each other in the worker
    threads. And judged here together, the board's words cost a third of what judging
    each as it comes costs the event loop.
    """
    facts = round_facts(round_id)
    if facts is not None:
        lexicon = loaded_lexicon(facts.lexicon_code, facts.lexicon_version)
        if lexicon is None:
            lexicon = get_lexicon(facts.lexicon_code, facts.lexicon_version)
        _judge_ahead(facts, lexicon)


_preparing: set[int] = set()  # rounds being prepared by this process (touched on the event loop only)
_background: set[asyncio.Task] = set()  # kept referenced until done


def round_prepare_soon(round_id: int) -> None:
    """``round_prepare`` in a worker thread, once per round and process, not waited for:
    a table socket calls it, on the event loop, when it sees a round playing (or
    counting down)."""
    if round_id in _judged_rounds or round_id in _preparing:
        return
    _preparing.add(round_id)
    task = asyncio.get_running_loop().create_task(
        database_sync_to_async(round_prepare, thread_sensitive=False)(round_id)
    )
    _background.add(task)
    task.add_done_callback(lambda done: _prepared(done, round_id))


def _prepared(task: asyncio.Task, round_id: int) -> None:
    _preparing.discard(round_id)
    _background.discard(task)
    if not task.cancelled() and task.exception() is not None:
        # The first submission reads the round itself; nothing is lost but the head start.
        logger.warning("Could not prepare round %s", round_id, exc_info=task.exception())


def forget_round(round_id: int) -> None:
    """Drop this process's copy of a round's facts and finds (a new round may reuse a rolled-back id)."""
    with _facts_lock:
        _facts_kept.pop(round_id, None)
    forget_finds(round_id)


# The finds this process knows of, by round: each round's board (which stands for the
# round, as in ``_AS_JUDGED``) and, in Rampage, each found word's finder; in Classic each
# (word, finder) of the finders' lists. A word once found stays its finder's for the rest
# of the round, so a submission of a word known here is answered "taken" without a
# statement: in Rampage most late submissions are words the table has just been told of.
# Only committed finds are known: those stored by the event loop's autocommit statement
# and those announced to this process's table sockets (announced after their commit).
# A round's finds are dropped when its end reaches the process (``forget_finds``).
FINDS_KNOWN_ROUNDS = 512
_finds_known: dict[int, tuple[str, dict]] = {}


def _find_key(facts: RoundFacts, word: str, finder_id: int):
    return word if facts.game == Game.RAMPAGE else (word, finder_id)


def _known_finds(facts: RoundFacts) -> dict | None:
    """The finds known of the round ``facts`` describe (the same id and board), or None."""
    known = _finds_known.get(facts.pk)
    return known[1] if known is not None and known[0] == facts.board_text else None


def _finder_known(facts: RoundFacts, user_id: int, word: str) -> int | None:
    """Who this process knows holds ``word`` in the round, for ``user_id``'s submission of it."""
    known = _known_finds(facts)
    return known.get(_find_key(facts, word, user_id)) if known is not None else None


def _remember_find(facts: RoundFacts, word: str, finder_id: int) -> None:
    known = _known_finds(facts)
    if known is None:
        known = {}
        _keep(_finds_known, facts.pk, (facts.board_text, known), FINDS_KNOWN_ROUNDS)
    known.setdefault(_find_key(facts, word, finder_id), finder_id)


def forget_finds(round_id: int) -> None:
    """The round has ended: its finds and verdicts are asked of no submission again (a
    late one is refused first)."""
    with _facts_lock:
        _finds_known.pop(round_id, None)
        _judged_rounds.pop(round_id, None)


# The verdict on every word of a round's board, by round: each round's facts it was
# judged on (its board and word list stand for them) and the verdicts by word. Judged
# together ahead of the round (``round_prepare``), a typed word is then looked up rather
# than searched for on the board while the player waits. Dropped with the round's finds.
_judged_rounds: dict[int, tuple[tuple[str, str, int], dict[str, SubmitResult]]] = {}


def _judging(facts: RoundFacts) -> tuple[str, str, int]:
    return (facts.board_text, facts.lexicon_code, facts.lexicon_version)


def _judge_ahead(facts: RoundFacts, lexicon) -> None:
    """Judge every word of the list on the round's board: each verdict is ``_judge``'s own."""
    kept = _judged_rounds.get(facts.pk)
    if kept is not None and kept[0] == _judging(facts):
        return
    words = hunt.solve(board_of(facts.board_text), lexicon, facts.min_length)
    verdicts = {word: _judge(facts, word, None, lexicon) for word in words}
    _keep(_judged_rounds, facts.pk, (_judging(facts), verdicts), FINDS_KNOWN_ROUNDS)


def _judged_ahead(facts: RoundFacts, word: str) -> SubmitResult | None:
    """The verdict judged ahead on ``word`` in the round ``facts`` describe, if there is one;
    a word without one is judged as it comes (it is not on the board or not a word)."""
    kept = _judged_rounds.get(facts.pk)
    return kept[1].get(word) if kept is not None and kept[0] == _judging(facts) else None


def find_announced(round_id: int, word: str, finder_id: int) -> None:
    """A find of ``round_id`` was announced to a table socket of this process: later
    submissions of the word are answered from here. A round this process has no facts
    of yet is left alone (its first submission reads them)."""
    facts = _facts_kept.get(round_id)
    if facts is not None:
        _remember_find(facts, word, finder_id)


def _judge(facts: RoundFacts, word: str | None, path: hunt.Path | None, lexicon) -> SubmitResult:
    """The engine's verdict on a word or path on the round's board, with its points if good."""
    board = board_of(facts.board_text)
    if path is not None:
        problem = hunt.path_problem(board, path)
        if problem:
            return SubmitResult("invalid", reason=problem[0].upper() + problem[1:] + ".")
        word = hunt.spell(board, path)
    if len(word) < facts.min_length:
        return SubmitResult("invalid", word=word, reason=f"Too short: at least {facts.min_length} letters.")
    if word not in lexicon:
        return SubmitResult("invalid", word=word, reason=f"{word.upper()} is not in the word list.")
    if path is None:
        path = hunt.find_path(board, word)
        if path is None:
            return SubmitResult("invalid", word=word, reason=f"{word.upper()} is not on the board.")
    points = hunt.word_points(hunt.rules_for(facts.game, facts.size), board, word, path)
    return SubmitResult("accepted", word=word, points=points, path=path, bonuses=hunt.bonuses_used(board, path))


class Stored(NamedTuple):
    """What ``_store_find`` did: the new row's id, or why there is none."""

    found_id: int | None
    round_as_judged: bool  # playing at that instant, the player seated, the same board
    first_finder: int | None  # who holds the word already, if the statement could see it
    too_many: bool = False  # the player's tries this period were past the limit: nothing stored
    finder_count: int | None = None  # Classic: the finder's words with this one (PostgreSQL)

    @classmethod
    def from_row(cls, row) -> Stored:
        """``_store_statement``'s row; none if the round no longer exists."""
        return cls(*row) if row is not None else cls(None, False, None)

    @classmethod
    def from_text(cls, row: tuple[bytes | None, ...] | None) -> Stored:
        """``from_row`` of the same row as PostgreSQL's text (``loop_clients.simple_query``)."""
        if row is None:
            return cls(None, False, None)
        found_id, as_judged, first_finder, too_many, *count = row
        return cls(_number(found_id), as_judged == b"t", _number(first_finder), too_many == b"t", *map(_number, count))


def _number(text: bytes | None) -> int | None:
    return None if text is None else int(text)


def _store_find(facts: RoundFacts, user_id: int, find: SubmitResult, now: datetime, limited: bool) -> Stored:
    """Store ``find``, judged on ``facts``, if the round is still as judged and the word is
    free, and (``limited``) if the player's tries this period, this one counted, are
    within ``SUBMIT_LIMIT``.

    On PostgreSQL it is ``_store_statement``'s one round trip. SQLite serialises
    writers; there one statement is one transaction.
    """
    connection = transaction.get_connection()
    values = _store_values(facts, user_id, find, now)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(_store_statement(facts.game, limited), values)
            cursor.nextset()
            return Stored.from_row(cursor.fetchone())
        if limited:
            cursor.execute(_COUNT_TRY, values)
            if cursor.fetchone()[0] > SUBMIT_LIMIT:
                return Stored(None, False, None, too_many=True)
        values["at"] = connection.ops.adapt_datetimefield_value(now)
        cursor.execute(_INSERT_FIND.format(r=f"({_AS_JUDGED}) r", also="1"), values)
        row = cursor.fetchone()
        if row is not None:
            return Stored(row[0], True, None)
        cursor.execute(f"SELECT r.ok, {_FIRST_FINDER} FROM ({_AS_JUDGED}) r", values)
        row = cursor.fetchone()
        return Stored(None, bool(row[0]), row[1]) if row is not None else Stored(None, False, None)


def _store_values(facts: RoundFacts, user_id: int, find: SubmitResult, now: datetime) -> dict:
    """The named parameters of the store's SQL, for ``find`` by ``user_id`` at ``now``."""
    return {
        "lock": round_lock_key(facts.pk),
        "round": facts.pk,
        "playing": RoundStatus.PLAYING.value,
        "board": facts.board_text,
        "rampage": facts.game == Game.RAMPAGE,
        "limit": SUBMIT_LIMIT,
        "user": user_id,
        "at": now,
        "period": int(now.timestamp()) // SUBMIT_PERIOD_SECONDS,
        "word": find.word,
        "path": path_to_text(board_of(facts.board_text), find.path),
        "points": find.points,
        "bonuses": " ".join(find.bonuses),
    }


_FOUND, _ROUNDS, _PLAYERS = FoundWord._meta.db_table, HuntRound._meta.db_table, RoundPlayer._meta.db_table

_FIRST_FINDER = (
    f"(SELECT f.user_id FROM {_FOUND} f WHERE f.round_id = r.id AND f.word = %(word)s ORDER BY f.id LIMIT 1)"
)

# The round's row with ``ok``: still as the verdict's facts had it at ``at``, the player
# seated. The facts are written once, with the round; its board stands for them (a round
# that reuses the id of one rolled back has another board).
_AS_JUDGED = (
    "SELECT r.id, (r.status = %(playing)s AND r.starts_at <= %(at)s AND r.deadline > %(at)s "
    f"AND r.board = %(board)s AND EXISTS (SELECT 1 FROM {_PLAYERS} p WHERE p.round_id = r.id "
    f"AND p.user_id = %(user)s)) AS ok FROM {_ROUNDS} r WHERE r.id = %(round)s"
)

# Count a try of the player in the period of ``at``; returns the period's tries, this one
# included. A period never goes back: a try stamped earlier (another web host's clock, a
# statement that waited) counts in the current one rather than starting it again.
_COUNT_TRY = (
    f"INSERT INTO {SubmissionCount._meta.db_table} AS c (user_id, period, tries) VALUES (%(user)s, %(period)s, 1) "
    "ON CONFLICT (user_id) DO UPDATE SET "
    "tries = CASE WHEN EXCLUDED.period > c.period THEN 1 ELSE c.tries + 1 END, "
    "period = CASE WHEN EXCLUDED.period > c.period THEN EXCLUDED.period ELSE c.period END "
    "RETURNING tries"
)

# The find, from a round row ``{r}`` with ``ok``, where ``{also}`` holds (an SQL condition, or true).
_INSERT_FIND = (
    f"INSERT INTO {_FOUND} (round_id, user_id, word, path, points, bonuses, exclusive, crossed_off, found_at) "
    "SELECT r.id, %(user)s, %(word)s, %(path)s, %(points)s, %(bonuses)s, %(rampage)s, false, %(at)s "
    "FROM {r} WHERE r.ok AND {also} ON CONFLICT DO NOTHING RETURNING id"
)


@functools.cache
def _store_statement(game: str, limited: bool) -> str:
    """PostgreSQL's store of a find in a round of ``game``: its SQL (a simple query),
    with ``_store_values``' names for parameters. Made once for each game and limit.

    The round's shared lock, then one statement that counts the player's try (if
    ``limited``) and stores the find if the round is still as judged and the tries are
    within the limit, and also answers why nothing was stored, sent together in one round
    trip (a simple query's statements are one transaction). The lock comes before the
    statement's snapshot, so a round_end holding it exclusively has either not begun
    totalling or has committed the round as finished, which the statement then sees
    (see ``round_lock``). A concurrent equal word waits on the unique constraints
    (Rampage: one finder per word; Classic: a word once per list) for the first to
    commit, then is not stored (ON CONFLICT DO NOTHING); two tries of one player wait
    for each other on their count. The ORM cannot say INSERT … SELECT, hence the SQL.
    The result's one row is (new id, round as judged, first finder, past the limit) and,
    in Classic, the finder's count of words with this one (the statement's snapshot does
    not see its own insert, hence the one added), which the table is told instead of
    the word.
    """
    counted, within, too_many = "", "true", "false"
    if limited:
        counted = f", counted AS ({_COUNT_TRY})"
        within, too_many = "(SELECT tries FROM counted) <= %(limit)s", "(SELECT tries FROM counted) > %(limit)s"
    count = ""
    if game == Game.CLASSIC:
        count = (
            f", (SELECT count(*) FROM {_FOUND} f WHERE f.round_id = r.id AND f.user_id = %(user)s)"
            " + (SELECT count(*) FROM stored)"
        )
    return (
        "SELECT pg_advisory_xact_lock_shared(%(lock)s::bigint); "
        f"WITH r AS ({_AS_JUDGED}){counted}, stored AS ({_INSERT_FIND.format(r='r', also=within)}) "
        f"SELECT (SELECT id FROM stored), r.ok, {_FIRST_FINDER}, {too_many}{count} FROM r"
    )


# The hunts' namespace ("hunt") in the high half of a round's advisory lock key.
ROUND_LOCK_CLASS = 0x68756E74


def round_lock_key(round_id: int) -> int:
    """The round's key for the single-bigint form of PostgreSQL's advisory locks.

    The two-integer form cannot hold a round id of 2**31 or more. The namespace in the
    high 32 bits, XORed with the id, keeps every key inside a signed bigint; below 2**32
    each round has its own key, and beyond that two rounds may share one, which only
    makes one of them wait for the other.
    """
    return (ROUND_LOCK_CLASS << 32) ^ round_id


def round_lock(round_id: int, *, shared: bool) -> None:
    """Take the round's advisory lock until this transaction ends.

    Submissions take it shared, so they never wait for each other; round_end takes it
    exclusively, so it waits for the submissions in flight and later ones wait for it
    and then read the round as finished. No word is stored after a round was totalled.
    An advisory lock lives in the lock table only: unlike a row lock it writes nothing.
    (SQLite serialises writers anyway.)
    """
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        function = "pg_advisory_xact_lock_shared" if shared else "pg_advisory_xact_lock"
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {function}(%s::bigint)", [round_lock_key(round_id)])


def _taken(facts: RoundFacts, user_id: int, word: str, first_finder: int | None) -> SubmitResult:
    if facts.game == Game.CLASSIC:
        return SubmitResult("taken", word=word, reason=f"{word.upper()} is already on your list.")
    if first_finder == user_id:
        return SubmitResult("taken", word=word, reason=f"You already found {word.upper()}.")
    if first_finder in facts.player_names:
        return SubmitResult(
            "taken", word=word, reason=f"{facts.player_names[first_finder]} found {word.upper()} first."
        )
    return SubmitResult("taken", word=word, reason=f"{word.upper()} is already taken.")


# How each of ``_submission``'s needs is met, in a worker thread and on the event loop.


def _fresh_facts(round_id: int) -> RoundFacts | None:
    return round_facts(round_id, fresh=True)


def _first_finder(round_id: int, word: str) -> int | None:
    return FoundWord.objects.filter(round_id=round_id, word=word).values_list("user_id", flat=True).first()


def _announce(facts: RoundFacts, user, find: SubmitResult, finder_count: int | None) -> None:
    # A bot's find is announced when its transaction commits, counted inside it.
    broadcasts.word_found(facts, user, word=find.word, points=find.points, path=find.path, bonuses=find.bonuses)


_SYNC_IO = {
    "facts": _fresh_facts,
    "store": _store_find,
    "first_finder": _first_finder,
    "lexicon": get_lexicon,
    "announce": _announce,
}


async def _store_find_async(
    facts: RoundFacts, user_id: int, find: SubmitResult, now: datetime, limited: bool
) -> Stored:
    sql, values = _store_text(facts.game, limited), _store_values(facts, user_id, find, now)
    async with loop_clients.postgres() as connection:
        rows = await loop_clients.simple_query(connection, sql, values)
    stored = Stored.from_text(rows[0] if rows else None)
    # Committed: the statement was its own transaction (unlike a bot's store, inside its turn's).
    if stored.found_id is not None:
        _remember_find(facts, find.word, user_id)
    elif (
        stored.round_as_judged
        and not stored.too_many
        and (stored.first_finder is not None or facts.game == Game.CLASSIC)
    ):
        _remember_find(facts, find.word, user_id if facts.game == Game.CLASSIC else stored.first_finder)
    return stored


@functools.cache
def _store_text(game: str, limited: bool) -> bytes:
    """``_store_statement`` encoded for the event loop's connections, once."""
    return _store_statement(game, limited).encode()


async def _announce_async(facts: RoundFacts, user, find: SubmitResult, finder_count: int | None) -> None:
    for group, message in broadcasts.word_found_messages(
        facts, user, word=find.word, points=find.points, path=find.path, bonuses=find.bonuses, count=finder_count
    ):
        await broadcast_async(group, message)


_ASYNC_IO = {
    "facts": database_sync_to_async(_fresh_facts, thread_sensitive=False),
    "store": _store_find_async,
    # Rare (the word committed after the statement began): not worth a copy of the query.
    "first_finder": database_sync_to_async(_first_finder, thread_sensitive=False),
    "lexicon": database_sync_to_async(get_lexicon, thread_sensitive=False),
    "announce": _announce_async,
}
