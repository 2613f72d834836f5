"""Everything TOW services tell the outside world, queued after commit.

Open game pages hear ``game.moved`` on the game's group and reload their view; players
hear about invitations, their turn, votes to cast, reminders and results through
``accounts.services.notify`` (email only in correspondence games, for those who opted in).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction

from accounts.services import notify
from config import durations
from config.realtime import broadcast_on_commit, user_group

from ..models import Game

#: Games with at most this time per move are live: their deadlines get their own task
#: and nobody is emailed (the turn would be over before the email arrived).
LIVE_DEADLINE_SECONDS = 3600


def _name(game: Game) -> str:
    return f"TOW #{game.pk}"


def _link(game: Game) -> str:
    return settings.SITE_URL + game.get_absolute_url()


def _live(game: Game) -> bool:
    return game.seconds_per_move <= LIVE_DEADLINE_SECONDS


def game_changed(game: Game) -> None:
    broadcast_on_commit(game.group_name, {"type": "game.moved", "move_count": game.move_count, "status": game.status})
    # Each player's open pages hear it on their own channel: My games and its badge.
    for user_id in game.seats.exclude(user=None).exclude(user__is_bot=True).values_list("user_id", flat=True):
        broadcast_on_commit(user_group(user_id), {"type": "games.changed", "game": game.pk})


def _email(game: Game, subject: str, body: str) -> dict:
    if _live(game):
        return {}
    return {"email_subject": subject, "email_body": f"{body}\n\nOpen the game: {_link(game)}\n"}


def invitation(game: Game, *, user, by) -> None:
    text = f"{by.shown_name} invites you to a TOW game ({_name(game)})."
    notify(
        user=user, kind="tow.invitation", text=text, url=game.get_absolute_url(), **_email(game, "TOW invitation", text)
    )


def rematch_offer(game: Game, *, user, by) -> None:
    notify(
        user=user,
        kind="tow.rematch",
        text=f"{by.shown_name} offers a rematch: {_name(game)}.",
        url=game.get_absolute_url(),
    )


def cancelled(game: Game, *, user, by) -> None:
    if user.is_bot:
        return
    notify(
        user=user,
        kind="tow.cancelled",
        text=f"{_name(game)} will not start: {by.shown_name} declined or withdrew.",
        url=game.get_absolute_url(),
    )


def started(game: Game, *, user, to_move) -> None:
    notify(
        user=user,
        kind="tow.started",
        text=f"{_name(game)} has started: {to_move.shown_name} won the draw and moves first.",
        url=game.get_absolute_url(),
    )


def your_turn(game: Game, *, user, news: str = "") -> None:
    """A person is told; a bot's turn is queued instead."""
    if user.is_bot:
        from .bots import queue_turn

        queue_turn(game)
        return
    lead = f"{news}; your" if news else "Your"
    text = f"{lead} turn in {_name(game)}."
    notify(
        user=user,
        kind="tow.turn",
        text=text,
        url=game.get_absolute_url(),
        **_email(
            game,
            f"Your turn in {_name(game)}",
            f"{text} You have {durations.spoken(timedelta(seconds=game.seconds_per_move))} to move.",
        ),
    )


def vote_needed(game: Game, *, user, by, words) -> None:
    """A house-vote play waits for ``user``'s vote (bots vote at once)."""
    if user.is_bot:
        from .bots import queue_turn

        queue_turn(game)
        return
    shown = ", ".join(w.upper() for w in words)
    text = f"{by.shown_name} played {shown} in {_name(game)}: not in the word list. Your vote?"
    notify(
        user=user,
        kind="tow.vote",
        text=text,
        url=game.get_absolute_url(),
        **_email(game, f"Your vote in {_name(game)}", text),
    )


def vote_result(game: Game, *, user, accepted: bool, words) -> None:
    shown = ", ".join(w.upper() for w in words)
    if accepted:
        text = f"The house accepted {shown} in {_name(game)}."
    else:
        text = f"The house rejected {shown} in {_name(game)}: your play was taken back; move again."
    if user.is_bot:
        if not accepted:
            from .bots import queue_turn

            queue_turn(game)
        return
    notify(user=user, kind="tow.vote_result", text=text, url=game.get_absolute_url())


def reminder(game: Game, *, user, left: timedelta) -> None:
    text = f"{durations.spoken(left)} left to move in {_name(game)}."
    notify(
        user=user,
        kind="tow.reminder",
        text=text,
        url=game.get_absolute_url(),
        **_email(game, f"Reminder: your move in {_name(game)}", f"{text} After that you forfeit the game."),
    )


def forfeited(game: Game, *, user, reason: str) -> None:
    notify(
        user=user, kind="tow.forfeit", text=f"You forfeited {_name(game)}: you {reason}.", url=game.get_absolute_url()
    )


def game_over(game: Game, *, user, result: str) -> None:
    if user.is_bot:
        return
    text = f"{_name(game)} is over: {result}"
    notify(
        user=user,
        kind="tow.over",
        text=text,
        url=game.get_absolute_url(),
        **_email(game, f"{_name(game)} is over", text),
    )


def deadline_set(game: Game) -> None:
    """A live game's deadline gets its own task, so a forfeit does not wait for the sweep."""
    if game.deadline is None or game.seconds_per_move > LIVE_DEADLINE_SECONDS:
        return
    from ..tasks import deadline_passed

    game_id, eta = game.pk, game.deadline + timedelta(seconds=1)
    transaction.on_commit(lambda: deadline_passed.apply_async(args=[game_id], eta=eta))
