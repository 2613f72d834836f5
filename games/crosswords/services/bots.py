"""Crossword bots: their accounts, their turns and the sweep that keeps them moving.

A bot is an account flagged ``is_bot`` with a ``Bot`` row saying which game it plays and
how well. When the turn passes to a bot (``games.seating.hand_over``), a Celery task is
queued after the move commits, with a human-like delay: a few seconds in live games,
under a minute in correspondence games. The task asks the engine for a move
(``games.engine.crossword_bot``) and makes it through the same services as a person
(``game_play``/``game_swap``/``game_pass``), naming the move number it saw: a task that
runs twice, or late after someone else moved, is refused as stale under the game's row
lock and does nothing. If the engine fails, the failure is logged with the position and
kept as a ``BotError`` for the admins, and the bot passes, so a game is never stuck.
If a task is lost (no worker, a broker restart), ``bots_sweep`` on the beat moves every
bot that has been waiting longer than a grace period.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import time
import traceback

from django.db import transaction
from django.db.models import F, Q

from accounts.services import bot_account
from games import seating
from games.engine import crossword_bot
from games.engine import crossword_game as engine
from lexicon import offensive
from lexicon.frequency import zipf

from .. import selectors, tasks
from ..models import Bot, BotError, BotStrength, Game, Move, Status, Variant
from . import notifications
from .errors import Refused
from .games import _start, game_create
from .moves import game_pass, game_play, game_swap
from .notifications import LIVE_DEADLINE_SECONDS

log = logging.getLogger(__name__)

#: Word Grid seats up to three bots; one account per strength would allow only one each.
ACCOUNTS_PER_STRENGTH = {Variant.WORD_GRID: 3, Variant.WORDGAME: 1}
#: Seconds a bot waits before moving: (low, high) for live and correspondence games.
LIVE_DELAY = (2.0, 5.0)
CORRESPONDENCE_DELAY = (10.0, 40.0)
#: The champion's simulation in the worker: at most this many reply searches and this
#: much CPU time a move (whichever ends first), so it plays by correspondence only.
CHAMPION_BUDGET = 3000
CHAMPION_CPU_SECONDS = 10.0


def _names(variant: str, strength: str, number: int) -> tuple[str, str]:
    suffix = f"-{number}" if number > 1 else ""
    label = Variant(variant).label
    shown = f"{strength.title()} bot{' ' + str(number) if number > 1 else ''} ({label})"
    return f"{variant}-{strength}-bot{suffix}", shown


def bot_user(variant: str, strength: str, number: int = 1):
    """The bot account for ``variant``/``strength``/``number``, created if missing."""
    if variant not in Variant.values or strength not in BotStrength.values:
        raise Refused("There is no such bot.")
    username, shown = _names(variant, strength, number)
    with transaction.atomic():
        user = bot_account(username=username, display_name=shown)
        Bot.objects.get_or_create(user=user, defaults={"variant": variant, "strength": strength, "number": number})
    return user


def bots_for(variant: str, strengths) -> list:
    """Accounts for the bots of ``strengths`` (repeats allowed up to the accounts per strength)."""
    used: dict[str, int] = {}
    users = []
    for strength in strengths:
        used[strength] = used.get(strength, 0) + 1
        if used[strength] > ACCOUNTS_PER_STRENGTH.get(variant, 1):
            raise Refused(
                f"At most {ACCOUNTS_PER_STRENGTH.get(variant, 1)} "
                f"{strength} bot(s) fit in one {Variant(variant).label} game."
            )
        users.append(bot_user(variant, strength, used[strength]))
    return users


@transaction.atomic
def game_create_with_bots(
    *, creator, variant: str, seconds_per_move: int, bots, invitees=(), open_seats: int = 0, clock=None
) -> Game:
    """A game with ``creator``, the invitees, bots of the ``bots`` strengths, then open seats.

    Bots take their seats at once; with no invitees or open seats the game starts now.
    Games with bots are casual: bots are never rated.
    """
    bots = list(bots)
    if creator.is_bot:
        raise Refused("Bots do not start games.", status=403)
    if not bots:
        raise Refused("Choose a bot to play against.")
    if BotStrength.CHAMPION in bots and seconds_per_move <= LIVE_DEADLINE_SECONDS:
        raise Refused(
            f"The champion thinks for up to {CHAMPION_CPU_SECONDS:g} seconds a move: it plays correspondence games only."
        )
    users = bots_for(variant, bots)
    game = game_create(
        creator=creator,
        variant=variant,
        seconds_per_move=seconds_per_move,
        invitees=invitees,
        open_seats=open_seats,
        bot_seats=len(bots),
        clock=clock,
    )
    free = list(game.seats.filter(user=None).order_by("index"))
    for seat, user in zip(free, users):
        seat.user, seat.accepted = user, True
        seat.save(update_fields=["user", "accepted"])
    if all(seat.user_id is not None and seat.accepted for seat in game.seats.all()):
        _start(game, by=creator)
    else:
        notifications.game_changed(game)
    return game


def strength_of(user) -> str | None:
    bot = Bot.objects.filter(user=user).first()
    return bot.strength if bot else None


# -- turns ---------------------------------------------------------------------------


def is_live(game: Game) -> bool:
    return game.seconds_per_move <= LIVE_DEADLINE_SECONDS


def delay(game: Game) -> float:
    """Seconds the bot waits before its move (seeded by the game and move: repeatable)."""
    low, high = LIVE_DELAY if is_live(game) else CORRESPONDENCE_DELAY
    return random.Random(f"{game.seed}/bot-delay/{game.move_count}").uniform(low, high)


def queue_turn(game: Game) -> None:
    """Store when the bot to move is due and, after this transaction commits, queue its
    move at the current move number for then."""
    game_id, move_count, countdown = game.pk, game.move_count, delay(game)
    seating.bot_due(game, countdown, lambda: tasks.bot_move.apply_async((game_id, move_count), countdown=countdown))


def bot_turn(*, game_id: int, move_count: int) -> Move | None:
    """Make the move of the bot to play at ``move_count``; None if there is nothing to do.

    Thinking happens outside any transaction; the move itself goes through the same
    service as a person's, which locks the game and refuses it if the move number has
    moved on (a doubled or late task).
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Status.ACTIVE or game.move_count != move_count:
        return None
    seat = game.seats.select_related("user").filter(index=game.to_move).first()
    if seat is None or seat.user is None or not seat.user.is_bot:
        return None
    bot, strength = seat.user, strength_of(seat.user) or BotStrength.CASUAL
    state = selectors.engine_state(game)
    # The bot thinks in the lexicon less offensive words, so neither its word nor a cross
    # word it makes is one; the move is still judged by the game's own lexicon.
    position = dataclasses.replace(
        crossword_bot.Position.of(state, seat.index), lexicon=offensive.clean_lexicon(state.lexicon)
    )
    rng = random.Random(f"{game.seed}/bot/{move_count}")
    stop_at = time.process_time() + CHAMPION_CPU_SECONDS
    try:
        move = crossword_bot.choose(
            position,
            strength,
            rng,
            frequency=zipf,
            budget=CHAMPION_BUDGET,
            out_of_time=lambda: time.process_time() >= stop_at,
        )
    except Exception:  # noqa: BLE001 — any engine failure: log it, keep it, pass
        _record_error(game, seat.index, strength, position, traceback.format_exc())
        return _pass(game_id, bot, move_count)
    try:
        return _make(game_id, bot, move, move_count)
    except Refused as refused:
        if not _still_waiting(game_id, move_count):
            return None
        _record_error(
            game,
            seat.index,
            strength,
            position,
            f"the service refused the bot's {move.kind}: {refused.reason}\n{move!r}",
        )
        return _pass(game_id, bot, move_count)


def _make(game_id: int, bot, move: engine.Move, move_count: int) -> Move:
    if move.kind == engine.PLACE:
        return game_play(game_id=game_id, player=bot, placement=move.placement, move_count=move_count)
    if move.kind == engine.SWAP:
        return game_swap(game_id=game_id, player=bot, tiles=move.tiles, move_count=move_count)
    return game_pass(game_id=game_id, player=bot, move_count=move_count)


def _pass(game_id: int, bot, move_count: int) -> Move | None:
    try:
        return game_pass(game_id=game_id, player=bot, move_count=move_count)
    except Refused:
        return None


def _still_waiting(game_id: int, move_count: int) -> bool:
    return Game.objects.filter(pk=game_id, status=Status.ACTIVE, move_count=move_count).exists()


def _record_error(game: Game, seat: int, strength: str, position, error: str) -> None:
    board = "\n".join(position.board.rows())
    log.error(
        "crossword bot (%s) failed in game %s at move %s, seat %s, rack %r:\n%s\n%s",
        strength,
        game.pk,
        game.move_count + 1,
        seat,
        position.rack,
        board,
        error,
    )
    BotError.objects.create(
        game=game,
        move_number=game.move_count,
        seat=seat,
        strength=strength,
        rack=position.rack,
        board=board,
        error=error,
    )


# -- the sweep -----------------------------------------------------------------------


def bots_sweep(*, now=None) -> int:
    """Move every bot whose turn task seems lost; return how many moved.

    A bot is overdue when its stored due time (``Game.bot_due_at``, set when its turn
    was queued) is more than the grace period past (``seating.bots_overdue``). ``bot_turn`` is idempotent, so a task that
    turns up after all does nothing.
    """
    waiting = seating.bots_overdue(Game, Q(seats__index=F("to_move"), seats__user__is_bot=True), now=now)
    moved = 0
    for game_id, move_count in waiting:
        if bot_turn(game_id=game_id, move_count=move_count) is not None:
            moved += 1
    return moved
