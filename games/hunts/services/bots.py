"""Hunt bots: pick words from the solver at a human pace and submit them like people do.

A bot's plan for a round is the board's words within its reach in the order its
strength prefers (``bot_profiles.plan``): beginners look for short, common words (word
frequency) and miss many, masters for long, high-scoring ones and miss few. Each turn it submits the next word of its plan nobody has taken, through
``round_submit``, and says when its next turn is.

A bot's turns are a chain of Celery tasks, one per turn, but the chain is only a
messenger: the bot's seat in the round (``RoundPlayer``) stores which turn is due and
when. A task carries the turn it was queued for and plays it under the seat's row lock,
so a second delivery of the same task finds the turn already taken and does nothing,
and ``bots_sweep`` re-queues the due turn of a bot whose chain died (worker killed,
broker restarted) without ever running one turn twice.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from functools import lru_cache

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.engine import hunt
from games.hunts import broadcasts
from games.hunts.models import FoundWord, Game, HuntRound, RoundPlayer, RoundStatus
from lexicon import offensive
from lexicon.frequency import zipf
from lexicon.services import get_lexicon

from .. import bot_profiles
from ..boards import board_of
from .submissions import round_lock, round_submit

# A turn task this early is taken as on time (timers and clocks are not exact).
EARLY = timedelta(seconds=1)


def _points(game_round: HuntRound, board: hunt.Board, word: str, path: hunt.Path) -> int:
    return hunt.word_points(hunt.rules_for(game_round.game, game_round.size), board, word, path)


@lru_cache(maxsize=256)
def _plan(
    round_id: int,
    board_text: str,
    game: str,
    code: str,
    version: int,
    min_length: int,
    seed: str,
    strength: str,
    user_id: int,
) -> tuple[str, ...]:
    board = board_of(board_text)
    rules = hunt.rules_for(game, board.size)
    # Bots search the lexicon less offensive words, as every bot does; people may still play them.
    on_board = hunt.solve(board, offensive.clean_lexicon(get_lexicon(code, version)), min_length)
    rng = random.Random(f"{seed}:{user_id}")
    return bot_profiles.plan(rules, board, on_board, strength, rng, zipf, bot_profiles.form(seed, user_id))


def bot_play(*, round_id: int, user_id: int, turn: int | None = None, now: datetime | None = None) -> float | None:
    """Play a bot's due turn: submit the next word of its plan; seconds until the next turn, or None.

    ``turn`` is the turn a queued task was sent for: any other (an old or doubled
    delivery) changes nothing and returns None, as does a turn that is not due yet
    (its own task comes at its time). Without ``turn`` the bot's next turn is played
    now. None also means the bot stops: the round is over or its plan is spent. The
    next turn is queued after commit.
    """
    now = now or timezone.now()
    with transaction.atomic():
        # The round's lock before the seat's, in round_end's order, so the two never
        # wait for each other in a circle. Only the seat's row is locked (of=self): a lock
        # on the round's row would block the deferred foreign-key check of a person's
        # word committing at the same moment, while the bot waits for that word's
        # transaction (the same word), and PostgreSQL would abort one of them.
        round_lock(round_id, shared=True)
        player = (
            RoundPlayer.objects.select_for_update(of=("self",))
            .select_related("round")
            .filter(round_id=round_id, user_id=user_id)
            .exclude(bot_strength="")
            .first()
        )
        if player is None or player.bot_next_turn_at is None:
            return None
        if turn is not None:
            if turn != player.bot_turn:
                return None
            if now < player.bot_next_turn_at - EARLY:
                # Another machine's clock ran ahead: come back when the turn is due.
                broadcasts.bot_turn_planned(round_id, user_id, turn=turn, at=player.bot_next_turn_at)
                return None
        wait = _take_turn(player, now)
        player.bot_turn += 1
        player.bot_next_turn_at = now + timedelta(seconds=wait) if wait is not None else None
        player.save(update_fields=["bot_turn", "bot_next_turn_at"])
        if wait is not None:
            broadcasts.bot_turn_planned(round_id, user_id, turn=player.bot_turn, at=player.bot_next_turn_at)
        return wait


def _take_turn(player: RoundPlayer, now: datetime) -> float | None:
    game_round = player.round
    if game_round.status != RoundStatus.PLAYING or now >= game_round.deadline:
        return None
    user_id = player.user_id
    plan = _plan(
        game_round.pk,
        game_round.board,
        game_round.game,
        game_round.lexicon_code,
        game_round.lexicon_version,
        game_round.min_length,
        game_round.seed,
        player.bot_strength,
        user_id,
    )
    found = FoundWord.objects.filter(round=game_round)
    if game_round.game == Game.CLASSIC:
        found = found.filter(user_id=user_id)
    taken = set(found.values_list("word", flat=True))
    if now >= game_round.starts_at:
        word = next((w for w in plan if w not in taken), None)
        if word is None:
            return None
        bot = get_user_model().objects.get(pk=user_id)
        board = board_of(game_round.board)
        path = hunt.find_path(board, word)
        round_submit(round_id=game_round.pk, user=bot, path=[list(square) for square in path], now=now)
    wait = bot_profiles.pause(player.bot_strength, game_round.seed, user_id, len(taken))
    if (game_round.deadline - now).total_seconds() <= wait:
        return None
    return wait


def bots_sweep(*, now: datetime | None = None, grace: timedelta = timedelta(seconds=2)) -> list[tuple[int, int]]:
    """Queue again the due turn of every bot whose turn is overdue by ``grace``: its task was lost.

    Only reads: if the lost task was merely late, both deliveries carry the same turn
    and the second does nothing.
    """
    now = now or timezone.now()
    overdue = list(
        RoundPlayer.objects.filter(
            bot_next_turn_at__lt=now - grace, round__status=RoundStatus.PLAYING, round__deadline__gt=now
        ).values_list("round_id", "user_id", "bot_turn")
    )
    for round_id, user_id, turn in overdue:
        broadcasts.bot_turn_planned(round_id, user_id, turn=turn, at=now)
    return [(round_id, user_id) for round_id, user_id, _ in overdue]
