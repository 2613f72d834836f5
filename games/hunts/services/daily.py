"""The daily challenge: one Rampage board and one Classic 5×5 board a day, the same for
everyone, each played once per player as a solo timed round.

A daily round is an ordinary hunt round at a one-seat table of its own
(``HuntTable.daily``), so submitting, the server's deadline, the end task and the results
are the rounds' own. What is daily: the board comes from the day's seed and the word-list
version pinned when the day's challenge was first needed; the table is private to its
player; and the database allows one such table per player and challenge.

The seed is a keyed hash of the date (the site's SECRET_KEY), so nobody can work out
tomorrow's board from the published source.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.engine import hunt
from games.hunts.models import DailyChallenge, FoundWord, HuntSeat, HuntTable, RoundPlayer, RoundStatus
from lexicon.services import current_version, get_lexicon

from .. import pools
from ..secrecy import today
from .errors import Refused
from .rounds import round_start

User = get_user_model()

#: The pools with a daily challenge, in the order they are shown.
DAILY_POOLS = ("rampage", "classic5")
DAILY_LEXICON = "en"  # British + American: Classic's list, and the Rampage default
RAREST_SHOWN = 10


def daily_seed(day: date, pool: str) -> str:
    """The board seed of ``pool``'s challenge on ``day``: the same all day, unguessable."""
    message = f"wordfall-daily:{pool}:{day.isoformat()}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()[:32]


def _check_pool(pool) -> str:
    if pool not in DAILY_POOLS:
        raise Refused("There is no daily challenge for that game.")
    return pool


def daily_challenge(*, day: date, pool: str) -> DailyChallenge:
    """``pool``'s challenge of ``day``, generated from the day's seed the first time it is
    asked for (two processes asking at once get the same row)."""
    _check_pool(pool)
    found = DailyChallenge.objects.filter(day=day, pool=pool).first()
    if found is not None:
        return found
    rules = pools.RULES[pool]
    version = current_version(DAILY_LEXICON)
    seed = daily_seed(day, pool)
    board = hunt.new_board(rules, seed, get_lexicon(DAILY_LEXICON, version))
    try:
        with transaction.atomic():
            return DailyChallenge.objects.create(
                day=day,
                pool=pool,
                game=rules.game,
                size=rules.size,
                seed=seed,
                board=board.to_text(),
                lexicon_code=DAILY_LEXICON,
                lexicon_version=version,
                round_seconds=rules.round_seconds,
            )
    except IntegrityError:
        return DailyChallenge.objects.get(day=day, pool=pool)


@transaction.atomic
def daily_play(*, user, pool: str, now: datetime | None = None) -> HuntTable:
    """Start ``user``'s one round of today's ``pool`` challenge: a private one-seat table
    whose round starts at once with the 3-2-1. A second try is refused."""
    now = now or timezone.now()
    if user is None or not user.is_authenticated:
        raise Refused("Log in to play the daily challenge.")
    if user.is_bot:
        raise Refused("Bots do not play the daily challenge.")
    _check_pool(pool)
    challenge = daily_challenge(day=today(now), pool=pool)
    if HuntTable.objects.filter(daily=challenge, host_id=user.pk).exists():
        raise Refused(f"You have played today's {pools.name_of(pool)} challenge; come back tomorrow.")
    try:
        with transaction.atomic():
            table = HuntTable.objects.create(
                game=challenge.game,
                size=challenge.size,
                lexicon_code=challenge.lexicon_code,
                round_seconds=challenge.round_seconds,
                seat_count=1,
                host=user,
                daily=challenge,
            )
    except IntegrityError:  # the same player, another tab, a moment earlier
        raise Refused(f"You have played today's {pools.name_of(pool)} challenge; come back tomorrow.") from None
    HuntSeat.objects.create(table=table, user=user, position=0)
    round_start(table_id=table.pk, by=user, now=now)
    return table


# --------------------------------------------------------------------------- reads


@dataclass(frozen=True)
class Placing:
    """One finished daily round on the leaderboard."""

    rank: int
    user: object
    score: int
    words: int
    round_id: int


def _finished(challenge: DailyChallenge):
    return RoundPlayer.objects.filter(round__table__daily=challenge, round__status=RoundStatus.FINISHED)


def daily_leaderboard(challenge: DailyChallenge, limit: int | None = 50) -> list[Placing]:
    """Finished rounds, best score first (more words, then the earlier finish, break ties
    of order; equal scores share a rank)."""
    rows = _finished(challenge).select_related("user").order_by("-score", "-word_count", "round__ended_at", "user_id")
    placings = []
    rank, previous = 0, None
    for index, player in enumerate(rows.iterator() if limit is None else rows[:limit]):
        if player.score != previous:
            rank, previous = index + 1, player.score
        placings.append(Placing(rank, player.user, player.score, player.word_count, player.round_id))
    return placings


def daily_place(challenge: DailyChallenge, user) -> dict | None:
    """``user``'s part in ``challenge``: their table, round, status, score and rank."""
    if user is None or not user.is_authenticated:
        return None
    table = HuntTable.objects.filter(daily=challenge, host_id=user.pk).first()
    if table is None:
        return None
    player = RoundPlayer.objects.filter(round__table=table, user_id=user.pk).select_related("round").first()
    if player is None or player.round.status != RoundStatus.FINISHED:
        return {"table": table, "finished": False}
    better = _finished(challenge).filter(score__gt=player.score).count()
    return {
        "table": table,
        "finished": True,
        "score": player.score,
        "words": player.word_count,
        "rank": better + 1,
        "round": player.round,
    }


def daily_players(challenge: DailyChallenge) -> int:
    return _finished(challenge).count()


@dataclass(frozen=True)
class DailyWord:
    word: str
    points: int
    finders: int
    names: tuple[str, ...]


def daily_words(challenge: DailyChallenge) -> dict:
    """Every word of the board with its points and how many players found it, and the
    rarest finds (found by the fewest, best first) with who found them."""
    board = hunt.Board.from_text(challenge.board)
    rules = hunt.rules_for(challenge.game, challenge.size)
    lex = get_lexicon(challenge.lexicon_code, challenge.lexicon_version)
    on_board = hunt.solve(board, lex, rules.min_length)
    finders: dict[str, list[str]] = defaultdict(list)
    found = (
        FoundWord.objects.filter(round__table__daily=challenge, round__status=RoundStatus.FINISHED)
        .select_related("user")
        .order_by("found_at", "pk")
    )
    for row in found:
        finders[row.word].append(row.user.name_and_username)
    words = []
    for word in on_board:
        points = hunt.word_points(rules, board, word)
        names = tuple(sorted(set(finders.get(word, ()))))
        words.append(DailyWord(word, points, len(names), names))
    words.sort(key=lambda w: (-w.points, -len(w.word), w.word))
    rarest = sorted((w for w in words if w.finders), key=lambda w: (w.finders, -w.points, -len(w.word), w.word))
    return {
        "board": board,
        "cells": [
            (face, board.bonuses.get((r, c), "")) for r, row in enumerate(board.faces) for c, face in enumerate(row)
        ],
        "words": words,
        "rarest": rarest[:RAREST_SHOWN],
        "players": daily_players(challenge),
        "found": sum(1 for w in words if w.finders),
    }
