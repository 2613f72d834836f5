"""Round use cases: start a round, submit a word, end a round (RULES §1, §2).

Time is the server's: a round stores when its board shows (after the 3-2-1) and its
deadline; a submission is judged against them, and ``round_end`` is scheduled for the
deadline. ``round_end`` is idempotent, and ``rounds_sweep`` ends any round whose task
was lost.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine import hunt
from games.hunts import broadcasts
from games.hunts.models import (
    FoundWord,
    Game,
    HuntRound,
    HuntTable,
    RoundPlayer,
    RoundStatus,
    TableStatus,
)
from games.ratings import services as ratings
from lexicon.services import current_version, get_lexicon

from .errors import Refused

COUNTDOWN = timedelta(seconds=3)  # the 3-2-1 before the board shows
MAX_WORD_LETTERS = 25
# Per player, across all their tabs: at most this many submissions per window.
SUBMIT_LIMIT = 8
SUBMIT_WINDOW_SECONDS = 2
MISSED_WORDS_KEPT = 200
_WORD = re.compile(r"[a-z]+")


@lru_cache(maxsize=512)
def board_of(text: str) -> hunt.Board:
    """The board stored as ``text`` (parsed once per process)."""
    return hunt.Board.from_text(text)


def path_to_text(board: hunt.Board, path: hunt.Path) -> str:
    return ",".join(str(row * board.size + col) for row, col in path)


def path_from_text(board: hunt.Board, text: str) -> hunt.Path:
    return tuple(divmod(int(i), board.size) for i in text.split(",") if i)


# --------------------------------------------------------------------------- start


@transaction.atomic
def round_start(*, table_id: int, by, now: datetime | None = None) -> HuntRound:
    """The host starts a round: a new board, the 3-2-1, then ``round_seconds`` of play."""
    from .bots import first_turn_delay

    now = now or timezone.now()
    try:
        table = HuntTable.objects.select_for_update().get(pk=table_id)
    except HuntTable.DoesNotExist:
        raise Refused("No such table.", 404) from None
    if table.host_id != by.pk:
        raise Refused("Only the host starts a round.", 403)
    if table.status == TableStatus.CLOSED:
        raise Refused("This table is closed.")
    if table.rounds.filter(status=RoundStatus.PLAYING).exists():
        raise Refused("A round is already in progress.", 409)
    if table.daily_id and table.rounds_played:
        raise Refused("A daily challenge is played once.")
    seats = list(table.seats.filter(left_at__isnull=True).order_by("position"))
    if len(seats) < (1 if table.daily_id else 2):  # a daily challenge is played alone
        raise Refused("A round needs at least two seated players (bots count).")
    rules = hunt.rules_for(table.game, table.size)
    if table.daily_id:  # the day's board and word list, the same for everyone (daily.py)
        daily = table.daily
        code, version, seed, board = daily.lexicon_code, daily.lexicon_version, daily.seed, board_of(daily.board)
    else:
        code = table.lexicon_code if table.game == Game.RAMPAGE else "en"
        version = current_version(code)
        seed = secrets.token_hex(8)
        board = hunt.new_board(rules, seed, get_lexicon(code, version))
    starts_at = now + COUNTDOWN
    game_round = HuntRound.objects.create(
        table=table,
        number=table.rounds_played + 1,
        game=table.game,
        size=table.size,
        board=board.to_text(),
        seed=seed,
        lexicon_code=code,
        lexicon_version=version,
        min_length=rules.min_length,
        starts_at=starts_at,
        deadline=starts_at + timedelta(seconds=table.round_seconds),
    )
    RoundPlayer.objects.bulk_create(
        RoundPlayer(
            round=game_round,
            user_id=seat.user_id,
            position=seat.position,
            bot_strength=seat.bot_strength,
            bot_next_turn_at=(
                starts_at + timedelta(seconds=first_turn_delay(seat.bot_strength)) if seat.bot_strength else None
            ),
        )
        for seat in seats
    )
    table.status = TableStatus.PLAYING
    table.rounds_played = game_round.number
    table.save(update_fields=["status", "rounds_played"])
    bots = [(seat.user_id, seat.bot_strength) for seat in seats if seat.bot_strength]
    broadcasts.round_started(game_round, bots)
    return game_round


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


def _rate_limited(user_id: int, now: datetime) -> bool:
    window = int(now.timestamp()) // SUBMIT_WINDOW_SECONDS
    key = f"hunts:submits:{user_id}:{window}"
    if cache.add(key, 1, timeout=SUBMIT_WINDOW_SECONDS * 2):
        return False
    try:
        return cache.incr(key) > SUBMIT_LIMIT
    except ValueError:  # expired between add and incr
        return False


def round_submit(*, round_id: int, user, word=None, path=None, now: datetime | None = None) -> SubmitResult:
    """A seated player submits a word: dragged (``path``) or typed (``word``).

    Untrusted input is checked here and refused with a reason; nothing changes unless
    the word is accepted. In Rampage the unique constraint on (round, word) decides who
    was first.
    """
    now = now or timezone.now()
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
    if not user.is_bot and _rate_limited(user.pk, now):
        return SubmitResult("refused", reason="Too many submissions; slow down.")

    try:
        return _submit(round_id=round_id, user=user, word=word, path=path, now=now)
    except _Taken as taken:
        return _taken(round_id, user, taken.word)


class _Taken(Exception):
    """The unique constraint said someone (maybe this player) has the word already."""

    def __init__(self, word: str):
        super().__init__(word)
        self.word = word


@transaction.atomic
def _submit(*, round_id: int, user, word: str | None, path: hunt.Path | None, now: datetime) -> SubmitResult:
    _round_lock(round_id, shared=True)
    player = RoundPlayer.objects.select_related("round").filter(round_id=round_id, user_id=user.pk).first()
    if player is None:
        if HuntRound.objects.filter(pk=round_id).exists():
            return SubmitResult("refused", reason="You are not playing in this round.")
        return SubmitResult("refused", reason="No such round.")
    game_round = player.round
    if game_round.status != RoundStatus.PLAYING or now >= game_round.deadline:
        return SubmitResult("late", word=word or "", reason="Time is up.")
    if now < game_round.starts_at:
        return SubmitResult("refused", reason="The round has not started yet.")
    board = board_of(game_round.board)
    if path is not None:
        problem = hunt.path_problem(board, path)
        if problem:
            return SubmitResult("invalid", reason=problem[0].upper() + problem[1:] + ".")
        word = hunt.spell(board, path)
    if len(word) < game_round.min_length:
        return SubmitResult("invalid", word=word, reason=f"Too short: at least {game_round.min_length} letters.")
    lex = get_lexicon(game_round.lexicon_code, game_round.lexicon_version)
    if word not in lex:
        return SubmitResult("invalid", word=word, reason=f"{word.upper()} is not in the word list.")
    if path is None:
        path = hunt.find_path(board, word)
        if path is None:
            return SubmitResult("invalid", word=word, reason=f"{word.upper()} is not on the board.")
    rampage = game_round.game == Game.RAMPAGE
    points = hunt.word_points(hunt.rules_for(game_round.game, game_round.size), board, word, path)
    bonuses = hunt.bonuses_used(board, path)
    try:
        FoundWord.objects.create(
            round=game_round,
            user_id=user.pk,
            word=word,
            path=path_to_text(board, path),
            points=points,
            bonuses=" ".join(bonuses),
            exclusive=rampage,
            found_at=now,
        )
    except IntegrityError:
        raise _Taken(word) from None  # leaving the atomic block rolls the transaction back
    broadcasts.word_found(game_round, user, word=word, points=points, path=path, bonuses=bonuses)
    return SubmitResult("accepted", word=word, points=points, path=path, bonuses=bonuses)


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


def _round_lock(round_id: int, *, shared: bool) -> None:
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


def _taken(round_id: int, user, word: str) -> SubmitResult:
    found = FoundWord.objects.filter(round_id=round_id, word=word).select_related("user", "round").order_by("pk")
    first = found.first()
    if first is None:
        return SubmitResult("taken", word=word, reason=f"{word.upper()} is already taken.")
    if first.round.game == Game.CLASSIC:
        return SubmitResult("taken", word=word, reason=f"{word.upper()} is already on your list.")
    if first.user_id == user.pk:
        return SubmitResult("taken", word=word, reason=f"You already found {word.upper()}.")
    return SubmitResult("taken", word=word, reason=f"{first.user.shown_name} found {word.upper()} first.")


# --------------------------------------------------------------------------- end


def _placings(scores: list[tuple[int, int]]) -> dict[int, int]:
    """Competition placings by score: equal scores share a placing (1, 1, 3)."""
    ordered = sorted(scores, key=lambda item: -item[1])
    placings = {}
    for index, (key, score) in enumerate(ordered):
        if index and score == ordered[index - 1][1]:
            placings[key] = placings[ordered[index - 1][0]]
        else:
            placings[key] = index + 1
    return placings


def missed_words(game_round: HuntRound, found: set[str]) -> tuple[list[dict], int]:
    """Words on the board nobody found, best first, and how many words the board held."""
    board = board_of(game_round.board)
    lex = get_lexicon(game_round.lexicon_code, game_round.lexicon_version)
    on_board = hunt.solve(board, lex, game_round.min_length)
    missed = []
    rules = hunt.rules_for(game_round.game, game_round.size)
    for word in set(on_board) - found:
        # Shown on its best-scoring path where paths score differently.
        path = hunt.find_path(board, word) if rules.has_bonuses else on_board[word]
        points = hunt.word_points(rules, board, word, path)
        missed.append({"word": word, "points": points, "path": path_to_text(board, path)})
    missed.sort(key=lambda item: (-item["points"], -len(item["word"]), item["word"]))
    return missed[:MISSED_WORDS_KEPT], len(on_board)


@transaction.atomic
def round_end(*, round_id: int, now: datetime | None = None) -> HuntRound | None:
    """Close and score a round whose deadline has passed; a finished round is returned as is.

    Idempotent: running it again, or late, changes nothing and gives the same result,
    because the totals depend only on the stored words. Returns None if the deadline
    has not come yet.
    """
    now = now or timezone.now()
    _round_lock(round_id, shared=False)
    try:
        game_round = HuntRound.objects.select_for_update().get(pk=round_id)
    except HuntRound.DoesNotExist:
        return None
    if game_round.status == RoundStatus.FINISHED:
        return game_round
    if now < game_round.deadline:
        return None
    players = list(game_round.players.select_for_update())
    words = list(game_round.found_words.all())
    lists: dict[int, list[FoundWord]] = {player.user_id: [] for player in players}
    for found in words:
        lists.setdefault(found.user_id, []).append(found)
    kept_words = {user_id: {f.word for f in found} for user_id, found in lists.items()}
    if game_round.game == Game.CLASSIC:
        kept_words, common = hunt.cross_off(kept_words)
        if common:
            game_round.found_words.filter(word__in=common).update(crossed_off=True)
        for found in words:
            found.crossed_off = found.word in common
    for player in players:
        kept = [found for found in lists[player.user_id] if found.word in kept_words[player.user_id]]
        player.score = sum(found.points for found in kept)
        player.word_count = len(kept)
        player.computer_points = (
            sum(hunt.computer_points(found.word, game_round.size) for found in kept)
            if game_round.game == Game.CLASSIC
            else 0
        )
    placings = _placings([(player.user_id, player.score) for player in players])
    top_count = sum(1 for placing in placings.values() if placing == 1)
    for player in players:
        player.placing = placings[player.user_id]
        # A solo (daily) round has a score but nobody to beat: no win.
        player.is_winner = player.placing == 1 and top_count == 1 and len(players) > 1
        player.is_draw = player.placing == 1 and top_count > 1
    RoundPlayer.objects.bulk_update(
        players, ["score", "word_count", "computer_points", "placing", "is_winner", "is_draw"]
    )
    game_round.missed_words, game_round.total_words = missed_words(game_round, {f.word for f in words})
    game_round.status = RoundStatus.FINISHED
    game_round.ended_at = now
    game_round.save(update_fields=["missed_words", "total_words", "status", "ended_at"])
    ratings.hunt_round_finished(game_round, players, now=now)
    HuntTable.objects.filter(pk=game_round.table_id, status=TableStatus.PLAYING).update(status=TableStatus.BETWEEN)
    broadcasts.round_ended(game_round)
    return game_round


def rounds_sweep(*, now: datetime | None = None, grace: timedelta = timedelta(seconds=2)) -> list[int]:
    """End every round past its deadline (by ``grace``) whose end task was lost."""
    now = now or timezone.now()
    overdue = HuntRound.objects.filter(status=RoundStatus.PLAYING, deadline__lt=now - grace).values_list(
        "pk", flat=True
    )
    ended = []
    for round_id in list(overdue):
        if round_end(round_id=round_id, now=now) is not None:
            ended.append(round_id)
    return ended
