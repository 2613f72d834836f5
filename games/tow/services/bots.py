"""The casual TOW bot: its accounts, its turns and votes, and the sweep that keeps it moving.

When the turn (or a vote) passes to a bot, a Celery task is queued after the commit with
a short, human-like delay. The task asks the engine for the best straight or
single-bend word it finds with the rack (``engine.best_play``), swaps when it finds
nothing (passes when the bag is too small), and votes to accept every word (it trusts the
house). It acts through the same services as a person, naming the move number it saw, so
a doubled or late task is refused as stale and does nothing. ``bots_sweep`` moves bots
whose task was lost.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games.engine import tow as engine
from games.notifications import LIVE_DEADLINE_SECONDS

from .. import selectors
from ..models import Game, Move, MoveKind, Status
from .errors import Refused
from .moves import game_pass, game_play, game_swap, game_vote

log = logging.getLogger(__name__)

#: Seconds a bot waits before acting: (low, high) for live and correspondence games.
LIVE_DELAY = (1.0, 3.0)
CORRESPONDENCE_DELAY = (5.0, 20.0)
#: How long past its latest planned act the sweep lets a bot wait before moving it itself.
SWEEP_GRACE = timedelta(seconds=5)


def bot_user(number: int = 1):
    """The TOW bot account ``number`` (1–3), created if missing."""
    User = get_user_model()
    username = "tow-bot" if number == 1 else f"tow-bot-{number}"
    shown = "TOW bot" if number == 1 else f"TOW bot {number}"
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user
    try:
        with transaction.atomic():
            user = User.objects.create(username=username, is_bot=True, display_name=shown)
            user.set_unusable_password()
            user.save()
    except IntegrityError:
        user = User.objects.get(username=username)
    return user


def queue_turn(game: Game) -> None:
    """Queue the bot's move (or vote) for after the commit."""
    from ..tasks import bot_move

    low, high = LIVE_DELAY if game.seconds_per_move <= LIVE_DEADLINE_SECONDS else CORRESPONDENCE_DELAY
    delay = random.uniform(low, high)
    game_id = game.pk
    transaction.on_commit(lambda: bot_move.apply_async(args=[game_id], countdown=delay))


def _bots_due(game: Game, state: engine.Game) -> list:
    """(seat, user) of bots that must act now: voters yet to vote, or the bot to move."""
    seats = {s.index: s.user for s in game.seats.select_related("user")}
    if state.pending is not None:
        return [(s, seats[s]) for s in state.voters if seats[s].is_bot and state.pending.vote_of(s) is None]
    if seats[state.to_move].is_bot:
        return [(state.to_move, seats[state.to_move])]
    return []


def bot_turn(*, game_id: int) -> int:
    """Every bot due in the game acts once; returns how many acted."""
    acted = 0
    for _ in range(engine.MAX_PLAYERS):
        game = Game.objects.filter(pk=game_id, status=Status.ACTIVE).first()
        if game is None:
            return acted
        state = selectors.engine_state(game)
        due = _bots_due(game, state)
        if not due:
            return acted
        seat, user = due[0]
        try:
            _act(game, state, seat, user)
        except Refused as refused:
            log.info("TOW bot in game %s was refused: %s", game_id, refused.reason)
            return acted
        acted += 1
    return acted


def _act(game: Game, state: engine.Game, seat: int, user) -> None:
    if state.pending is not None:
        game_vote(game_id=game.pk, player=user, accept=True, move_count=game.move_count)
        return
    rack = state.racks[seat]
    rejected = {(tuple(t.move.placement), t.move.path) for t in state.turns if not t.accepted and t.move.seat == seat}
    for play in engine.find_plays(state.table, rack, state.lexicon)[:20]:
        if (tuple(play.placement), play.path) in rejected:
            continue  # the house said no to this one already
        game_play(game_id=game.pk, player=user, placement=play.placement, path=play.path, move_count=game.move_count)
        return
    if len(state.bag) >= len(rack):
        game_swap(game_id=game.pk, player=user, tiles=rack, move_count=game.move_count)
    else:
        game_pass(game_id=game.pk, player=user, move_count=game.move_count)


def _longest_delay(seconds_per_move: int) -> timedelta:
    return timedelta(seconds=(LIVE_DELAY if seconds_per_move <= LIVE_DEADLINE_SECONDS else CORRESPONDENCE_DELAY)[1])


def _bot_yet_to_vote(game_id: int) -> bool:
    """Whether a bot still in the game has not voted on the play waiting for votes."""
    pending = (
        Move.objects.filter(game_id=game_id, kind=MoveKind.PLACE, accepted__isnull=True)
        .order_by("-number")
        .values_list("number", "seat")
        .first()
    )
    if pending is None:
        return False
    number, player = pending
    voted = set(
        Move.objects.filter(game_id=game_id, kind=MoveKind.VOTE, number__gt=number).values_list("seat", flat=True)
    )
    bots = Game.objects.get(pk=game_id).seats.filter(user__is_bot=True, left="").exclude(index=player)
    return any(seat not in voted for seat in bots.values_list("index", flat=True))


def bots_sweep(*, now=None) -> int:
    """Move every bot whose task seems lost; return how many acted.

    Only games where a bot is due count: a bot to move, or a bot yet to vote on a play.
    A bot is overdue when its turn began (the last move, or the start) longer ago than
    its longest delay plus ``SWEEP_GRACE``. ``bot_turn`` is idempotent, so a task that
    turns up after all does nothing.
    """
    now = now or timezone.now()
    to_move = Game.objects.filter(
        status=Status.ACTIVE, voting=False, seats__index=F("to_move"), seats__user__is_bot=True, seats__left=""
    )
    voting = Game.objects.filter(status=Status.ACTIVE, voting=True, seats__user__is_bot=True).distinct()
    acted = 0
    for games, due in ((to_move, None), (voting, _bot_yet_to_vote)):
        for game_id, seconds, started_at in games.values_list("pk", "seconds_per_move", "started_at"):
            last = Move.objects.filter(game_id=game_id).order_by("-number").values_list("created_at", flat=True).first()
            since = last or started_at
            if since is None or now - since < _longest_delay(seconds) + SWEEP_GRACE:
                continue
            if due is not None and not due(game_id):
                continue
            acted += bot_turn(game_id=game_id)
    return acted
