"""Everything crossword services tell the outside world, queued after commit.

Live page updates go to the game's channel-layer group; players hear about invitations,
their turn, reminders and results through ``accounts.services.notify`` (in-site always,
email only where given here and the player opted in).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction

from accounts.services import notify
from config import durations
from config.realtime import broadcast_on_commit, user_group

from ..models import Game, Status


def _name(game: Game) -> str:
    return f"{game.get_variant_display()} #{game.pk}"


def _link(game: Game) -> str:
    """The game's full address, for emails (in-site notifications use the path)."""
    return settings.SITE_URL + game.get_absolute_url()


def _live(game: Game) -> bool:
    """A live game's turns pass in minutes: an email would arrive after the turn."""
    return game.seconds_per_move <= LIVE_DEADLINE_SECONDS


def game_changed(game: Game) -> None:
    """Every open page of the game reloads its view of the game; a finished game is
    analysed (once: the task does nothing for a game already analysed)."""
    broadcast_on_commit(game.group_name, {"type": "game.moved", "move_count": game.move_count, "status": game.status})
    # Each player's open pages hear it on their own channel: My games refreshes its lists.
    for user_id in game.seats.exclude(user=None).exclude(user__is_bot=True).values_list("user_id", flat=True):
        broadcast_on_commit(user_group(user_id), {"type": "games.changed", "game": game.pk})
    if game.status == Status.FINISHED:
        from ..tasks import analyse_game

        game_id = game.pk
        transaction.on_commit(lambda: analyse_game.delay(game_id))


def analysis_ready(game: Game) -> None:
    """Open pages of a finished game reload to show its analysis."""
    broadcast_on_commit(game.group_name, {"type": "game.moved", "move_count": game.move_count, "status": game.status})


def invitation(game: Game, *, user, by) -> None:
    notify(
        user=user,
        kind="crossword.invitation",
        text=f"{by.shown_name} invites you to a {_name(game)} game.",
        url=game.get_absolute_url(),
    )


def rematch_offer(game: Game, *, user, by) -> None:
    notify(
        user=user,
        kind="crossword.rematch",
        text=f"{by.shown_name} offers a rematch: {_name(game)}.",
        url=game.get_absolute_url(),
    )


def cancelled(game: Game, *, user, by) -> None:
    notify(
        user=user,
        kind="crossword.cancelled",
        text=f"{_name(game)} will not start: {by.shown_name} declined or withdrew.",
        url=game.get_absolute_url(),
    )


def started(game: Game, *, user, to_move) -> None:
    """The game a player waits in has filled up; someone else opens it."""
    notify(
        user=user,
        kind="crossword.started",
        text=f"{_name(game)} has started: {to_move.shown_name} moves first.",
        url=game.get_absolute_url(),
    )


def your_turn(game: Game, *, user, news: str = "") -> None:
    """``news`` says what the previous player did ("ann played QUIZ for 44").

    A bot is not told: its move is queued instead (``bots.queue_turn``).
    """
    if user.is_bot:
        from .bots import queue_turn

        queue_turn(game)
        return
    left = durations.spoken(timedelta(seconds=game.seconds_per_move))
    lead = f"{news}; your" if news else "Your"
    notify(
        user=user,
        kind="crossword.turn",
        text=f"{lead} turn in {_name(game)}.",
        url=game.get_absolute_url(),
        email_subject=None if _live(game) else f"Your turn in {_name(game)}",
        email_body=(f"{lead} turn in {_name(game)}. You have {left} to move.\n\nOpen the game: {_link(game)}\n"),
    )


def reminder(game: Game, *, user, left: timedelta) -> None:
    notify(
        user=user,
        kind="crossword.reminder",
        text=f"{durations.spoken(left)} left to move in {_name(game)}.",
        url=game.get_absolute_url(),
        email_subject=None if _live(game) else f"Reminder: your move in {_name(game)}",
        email_body=(
            f"You have {durations.spoken(left)} left to move in {_name(game)}; after that "
            f"you forfeit the game.\n\nOpen the game: {_link(game)}\n"
        ),
    )


def forfeited(game: Game, *, user, reason: str) -> None:
    notify(
        user=user,
        kind="crossword.forfeit",
        text=f"You forfeited {_name(game)}: you {reason}.",
        url=game.get_absolute_url(),
    )


def game_over(game: Game, *, user, result: str) -> None:
    notify(
        user=user,
        kind="crossword.over",
        text=f"{_name(game)} is over: {result}",
        url=game.get_absolute_url(),
        email_subject=f"{_name(game)} is over",
        email_body=f"{_name(game)} is over: {result}\n\nSee the game: {_link(game)}\n",
    )


# Deadlines of live games (short times per move) get their own task at the deadline, so
# a forfeit does not wait for the next sweep; long ones are left to the sweep, since a
# broker holds a delayed task for only so long.
LIVE_DEADLINE_SECONDS = 3600


def deadline_set(game: Game) -> None:
    if game.deadline is None or game.seconds_per_move > LIVE_DEADLINE_SECONDS:
        return
    from ..tasks import forfeit_if_overdue

    game_id, eta = game.pk, game.deadline + timedelta(seconds=1)
    transaction.on_commit(lambda: forfeit_if_overdue.apply_async(args=[game_id], eta=eta))
