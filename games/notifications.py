"""What the turn-based games tell players and open pages, queued after commit, by game kind.

Word Grid / Wordgame (``games.crosswords``) and TOW (``games.tow``) tell the same things
the same way; ``KINDS`` holds what differs between them (the notification kinds' prefix,
how the opener was chosen, where a bot's turn and a live deadline are queued), keyed by
the game model's app. A game is named by its ``str`` ("Word Grid #12", "TOW #7").

Open pages of a game hear ``game.moved`` on its group and reload their view; each
seated person's pages hear ``games.changed`` on their own group, named by the notice
prefix as its kind (``accounts.my_games.games_changed``; My games refreshes).
Players hear the rest through ``accounts.services.notify``, in the site always. Bots are
told nothing: a bot's turn or vote is queued instead.

The email rule, one for every game (each player may still opt out of email):

- an invitation, your turn, the reminder and a vote to cast are emailed in
  correspondence games only: a live game's turn (at most ``LIVE_DEADLINE_SECONDS``) is
  over before the email arrives;
- the result (game over) is emailed in every game, live or not: it is news whenever it
  arrives, and a live player may have left the page;
- rematch offers, cancellations, starts, forfeits and vote results are never emailed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

from accounts import my_games
from accounts.services import notify
from config import durations
from config.realtime import broadcast_on_commit
from games.models import Status

#: Games with at most this time per move are live: their deadlines get their own task
#: (a broker holds a delayed task only so long, so longer ones are left to the sweep)
#: and turns are not emailed.
LIVE_DEADLINE_SECONDS = 3600


@dataclass(frozen=True)
class GameKind:
    notice: str  # prefix of the notification kinds: "crossword.turn"
    opening: str  # how the opener was chosen, after their name
    bot_turn: str  # the app's bots.queue_turn(game)
    deadline_task: str  # the Celery task that settles a live game's passed deadline
    finished_task: str = ""  # a Celery task run once a game is finished (its id)


KINDS = {
    "crosswords": GameKind(
        notice="crossword",
        opening="moves first",
        bot_turn="games.crosswords.services.bots.queue_turn",
        deadline_task="games.crosswords.tasks.forfeit_if_overdue",
        finished_task="games.crosswords.tasks.analyse_game",
    ),
    "tow": GameKind(
        notice="tow",
        opening="won the draw and moves first",
        bot_turn="games.tow.services.bots.queue_turn",
        deadline_task="games.tow.tasks.deadline_passed",
    ),
}


def _kind(game) -> GameKind:
    return KINDS[game._meta.app_label]


def _live(game) -> bool:
    return game.seconds_per_move <= LIVE_DEADLINE_SECONDS


def _tell(game, user, what: str, text: str, *, email: str = "", body: str = "", link: str = "Open") -> None:
    """Notify ``user`` of ``text`` (kind ``<notice>.<what>``), with an email ``email`` as
    its subject when given; the email says ``body`` (the text by default) and links the
    game. Bots are not told."""
    if user.is_bot:
        return
    mail = {}
    if email:
        address = settings.SITE_URL + game.get_absolute_url()
        mail = {"email_subject": email, "email_body": f"{body or text}\n\n{link} the game: {address}\n"}
    notify(user=user, kind=f"{_kind(game).notice}.{what}", text=text, url=game.get_absolute_url(), **mail)


def _queue_bot(game) -> None:
    import_string(_kind(game).bot_turn)(game)


def reload_pages(game) -> None:
    """Every open page of the game reloads its view of the game."""
    broadcast_on_commit(game.group_name, {"type": "game.moved", "move_count": game.move_count, "status": game.status})


def game_changed(game) -> None:
    """Open pages of the game and the seated people's pages hear of the change; a
    finished game's follow-up task is queued (it does nothing twice)."""
    reload_pages(game)
    people = game.seats.exclude(user=None).exclude(user__is_bot=True).values_list("user_id", flat=True)
    my_games.games_changed(people, kind=_kind(game).notice, game=game.pk)
    finished_task = _kind(game).finished_task
    if game.status == Status.FINISHED and finished_task:
        game_id = game.pk
        transaction.on_commit(lambda: import_string(finished_task).delay(game_id))


def invitation(game, *, user, by) -> None:
    text = f"{by.shown_name} invites you to a {game} game."
    _tell(game, user, "invitation", text, email="" if _live(game) else f"Invitation: {game}")


def rematch_offer(game, *, user, by) -> None:
    _tell(game, user, "rematch", f"{by.shown_name} offers a rematch: {game}.")


def cancelled(game, *, user, by) -> None:
    _tell(game, user, "cancelled", f"{game} will not start: {by.shown_name} declined or withdrew.")


def started(game, *, user, to_move) -> None:
    """The game a player waits in has filled up; someone else opens it."""
    _tell(game, user, "started", f"{game} has started: {to_move.shown_name} {_kind(game).opening}.")


def your_turn(game, *, user, news: str = "") -> None:
    """``news`` says what the previous player did ("ann played QUIZ for 44")."""
    if user.is_bot:
        _queue_bot(game)
        return
    lead = f"{news}; your" if news else "Your"
    text = f"{lead} turn in {game}."
    left = durations.spoken(timedelta(seconds=game.seconds_per_move))
    email = "" if _live(game) else f"Your turn in {game}"
    _tell(game, user, "turn", text, email=email, body=f"{text} You have {left} to move.")


def vote_needed(game, *, user, by, words) -> None:
    """A house-vote play waits for ``user``'s vote (a bot votes at once)."""
    if user.is_bot:
        _queue_bot(game)
        return
    shown = ", ".join(w.upper() for w in words)
    text = f"{by.shown_name} played {shown} in {game}: not in the word list. Your vote?"
    _tell(game, user, "vote", text, email="" if _live(game) else f"Your vote in {game}")


def vote_result(game, *, user, accepted: bool, words) -> None:
    """The house decided ``user``'s play; a rejected player moves again."""
    if user.is_bot:
        if not accepted:
            _queue_bot(game)
        return
    shown = ", ".join(w.upper() for w in words)
    if accepted:
        text = f"The house accepted {shown} in {game}."
    else:
        text = f"The house rejected {shown} in {game}: your play was taken back; move again."
    _tell(game, user, "vote_result", text)


def reminder(game, *, user, left: timedelta) -> None:
    spoken = durations.spoken(left)
    body = f"You have {spoken} left to move in {game}; after that you forfeit the game."
    email = "" if _live(game) else f"Reminder: your move in {game}"
    _tell(game, user, "reminder", f"{spoken} left to move in {game}.", email=email, body=body)


def forfeited(game, *, user, reason: str) -> None:
    _tell(game, user, "forfeit", f"You forfeited {game}: you {reason}.")


def game_over(game, *, user, result: str) -> None:
    _tell(game, user, "over", f"{game} is over: {result}", email=f"{game} is over", link="See")


def deadline_set(game) -> None:
    """A live game's deadline gets its own task, so a forfeit does not wait for the sweep."""
    if game.deadline is None or game.seconds_per_move > LIVE_DEADLINE_SECONDS:
        return
    task = import_string(_kind(game).deadline_task)
    game_id, eta = game.pk, game.deadline + timedelta(seconds=1)
    transaction.on_commit(lambda: task.apply_async(args=[game_id], eta=eta))
