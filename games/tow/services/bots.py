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

from django.db.models import F, Q

from accounts.services import bot_account
from games import seating
from games.engine import tow as engine
from games.notifications import LIVE_DEADLINE_SECONDS
from lexicon import offensive

from .. import selectors, tasks
from ..models import Game, Move, MoveKind, Status
from .errors import Refused
from .moves import game_pass, game_play, game_swap, game_vote

log = logging.getLogger(__name__)

#: Seconds a bot waits before acting: (low, high) for live and correspondence games.
LIVE_DELAY = (1.0, 3.0)
CORRESPONDENCE_DELAY = (5.0, 20.0)


def bot_user(number: int = 1):
    """The TOW bot account ``number`` (1–3), created if missing."""
    username = "tow-bot" if number == 1 else f"tow-bot-{number}"
    return bot_account(username=username, display_name="TOW bot" if number == 1 else f"TOW bot {number}")


def delay(game: Game) -> float:
    """Seconds the bot waits before acting (seeded by the game and move: repeatable)."""
    low, high = LIVE_DELAY if game.seconds_per_move <= LIVE_DEADLINE_SECONDS else CORRESPONDENCE_DELAY
    return random.Random(f"{game.seed}/bot-delay/{game.move_count}").uniform(low, high)


def queue_turn(game: Game) -> None:
    """Store when the bots are due to act (a move, or votes) and, after the commit, queue
    their act for then."""
    game_id, countdown = game.pk, delay(game)
    seating.bot_due(game, countdown, lambda: tasks.bot_move.apply_async(args=[game_id], countdown=countdown))


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
    play = choose_play(state.table, rack, state.lexicon, rejected=rejected)
    if play is not None:
        game_play(game_id=game.pk, player=user, placement=play.placement, path=play.path, move_count=game.move_count)
        return
    if len(state.bag) >= len(rack):
        game_swap(game_id=game.pk, player=user, tiles=rack, move_count=game.move_count)
    else:
        game_pass(game_id=game.pk, player=user, move_count=game.move_count)


#: The best plays the bot considers before it swaps or passes.
CANDIDATES = 20


def choose_play(table: engine.Table, rack: str, lexicon, *, rejected=frozenset()) -> engine.Play | None:
    """The bot's play: the best it finds that the house has not rejected already and that
    scores no offensive word, read either way.

    It searches the lexicon less offensive words (``offensive.clean_lexicon``, as the
    crossword bots do), but a TOW play also scores a straight word's backward reading
    when that is a word of the game's lexicon: each candidate is judged again as the
    game will judge it, and one that would show an offensive word is passed over.
    """
    for play in engine.find_plays(table, rack, offensive.clean_lexicon(lexicon))[:CANDIDATES]:
        if (tuple(play.placement), play.path) in rejected:
            continue  # the house said no to this one already
        scored = engine.evaluate(table, play.placement, play.path, lexicon)
        if any(offensive.is_offensive(word) for word, _ in scored.words):
            continue
        return play
    return None


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
    """Act for every bot whose task seems lost; return how many acted.

    Only games where a bot is due count: a bot to move, or a bot yet to vote on a play,
    whose stored due time (``Game.bot_due_at``) is a grace period past
    (``seating.bots_overdue``). ``bot_turn`` is idempotent, so a task that turns up after
    all does nothing.
    """
    to_move = Q(voting=False, seats__index=F("to_move"), seats__user__is_bot=True, seats__left="")
    voting = Q(voting=True, seats__user__is_bot=True)
    acted = 0
    for game_id, _ in seating.bots_overdue(Game, to_move | voting, now=now):
        if Game.objects.filter(pk=game_id, voting=True).exists() and not _bot_yet_to_vote(game_id):
            continue
        acted += bot_turn(game_id=game_id)
    return acted
