"""Round use cases: start a round and end it (RULES §1, §2); submitting a word is
``submissions``'.

Time is the server's: a round stores when its board shows (after the 3-2-1) and its
deadline; a submission is judged against them, and ``round_end`` is scheduled for the
deadline. ``round_end`` is idempotent, and ``rounds_sweep`` ends any round whose task
was lost.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games import registry
from games.engine import hunt
from games.hunts import broadcasts, outcomes
from games.hunts.models import (
    FoundWord,
    Game,
    HuntRound,
    HuntTable,
    RoundPlayer,
    RoundStatus,
    TableStatus,
)
from lexicon.services import current_version, get_lexicon

from ..boards import board_of, path_to_text
from ..bot_profiles import first_turn_delay
from .errors import Refused
from .submissions import forget_round, round_lock

logger = logging.getLogger(__name__)

COUNTDOWN = timedelta(seconds=3)  # the 3-2-1 before the board shows
MISSED_WORDS_KEPT = 200


# --------------------------------------------------------------------------- start


@transaction.atomic
def round_start(*, table_id: int, by, now: datetime | None = None) -> HuntRound:
    """The host starts a round: a new board, the 3-2-1, then ``round_seconds`` of play."""
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
    forget_round(game_round.pk)
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
    round_lock(round_id, shared=False)
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
    registry.game_finished(outcomes.outcome_of(game_round))
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
