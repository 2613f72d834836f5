"""What the games played in turns tell players and open pages, queued after commit.

Word Grid / Wordgame (``games.crosswords``), TOW (``games.tow``) and any other kind
played in turns tell the same things the same way. A game names its kind
(``game.game_kind``, the kind's code in ``games.registry``): its notices are
``<kind>.<what>`` ("crossword.turn"), and the kind's ``Turns.opening`` says how the
opener was chosen. A game is named by its ``str`` ("Word Grid #12", "TOW #7").

Open pages of a game hear ``game.moved`` on its group and reload their view; each
seated person's pages hear ``games.changed`` on their own group, with the kind's code
(``accounts.my_games.games_changed``; My games refreshes). Players hear the rest through
``accounts.services.notify``, in the site always. Bots are told nothing: the services
that hand a bot its turn or a vote queue the bot instead (``games.seating.hand_over``).

The email rule, one for every game (each player may still opt out of email), is
``NOTICES``:

- an invitation, your turn, the reminder and a vote to cast are emailed in
  correspondence games only: a live game's turn (at most ``LIVE_DEADLINE_SECONDS``) is
  over before the email arrives;
- the result (game over) is emailed in every game, live or not: it is news whenever it
  arrives, and a live player may have left the page;
- rematch offers, cancellations, starts, forfeits and vote results are never emailed.

``PUSHED`` are also pushed, in correspondence games, to the devices a player turned
pushes on for (``accounts.services.notify``; a worker sends them after the commit).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings

from accounts import my_games
from accounts.services import notify
from config import durations
from config.realtime import broadcast_on_commit
from friends.selectors import invitation_email_allowed
from games import registry
from games.models import Status

#: Games with at most this time per move are live: their deadlines get their own task
#: (a broker holds a delayed task only so long, so longer ones are left to the sweep)
#: and turns are not emailed.
LIVE_DEADLINE_SECONDS = 3600

NEVER, CORRESPONDENCE, ALWAYS = registry.Emailed.NEVER, registry.Emailed.CORRESPONDENCE, registry.Emailed.ALWAYS
#: What a game played in turns tells its players: (what, what it is about, when emailed).
NOTICES = (
    ("invitation", "An invitation to a game", CORRESPONDENCE),
    ("rematch", "A rematch offered", NEVER),
    ("cancelled", "A game that will not start", NEVER),
    ("started", "A game that has started", NEVER),
    ("turn", "Your turn", CORRESPONDENCE),
    ("vote", "A vote to cast", CORRESPONDENCE),
    ("vote_result", "A vote's result", NEVER),
    ("reminder", "Little time left to move", CORRESPONDENCE),
    ("forfeit", "A game forfeited on time", NEVER),
    ("over", "A game's result", ALWAYS),
)
_EMAILED = {what: emailed for what, _, emailed in NOTICES}
_LABELS = {what: label for what, label, _ in NOTICES}
#: What a correspondence player's devices are woken for: a live game's player is at the table.
PUSHED = ("invitation", "turn", "over")


def turn_notices(code: str, *, votes: bool = False) -> tuple[registry.Notice, ...]:
    """The notices of the kind ``code`` played in turns (with votes, if it has them)."""
    return tuple(
        registry.Notice(f"{code}.{what}", label, emailed)
        for what, label, emailed in NOTICES
        if votes or what not in ("vote", "vote_result")
    )


def is_live(game) -> bool:
    return game.seconds_per_move <= LIVE_DEADLINE_SECONDS


def _tell(game, user, what: str, text: str, *, subject: str = "", body: str = "", link: str = "Open") -> None:
    """Notify ``user`` of ``text`` (kind ``<kind>.<what>``); emailed as ``NOTICES`` says,
    with ``subject``, saying ``body`` (the text by default) and linking the game; pushed as
    ``PUSHED`` says. Bots are not told."""
    if user.is_bot:
        return
    emailed = _EMAILED[what]
    mail = {}
    if emailed == ALWAYS or (emailed == CORRESPONDENCE and not is_live(game)):
        address = settings.SITE_URL + game.get_absolute_url()
        mail = {"email_subject": subject, "email_body": f"{body or text}\n\n{link} the game: {address}\n"}
    push = _LABELS[what] if what in PUSHED and not is_live(game) else None
    notify(user=user, kind=f"{game.game_kind}.{what}", text=text, url=game.get_absolute_url(), push_title=push, **mail)


def _moved(game) -> tuple[str, dict]:
    return game.group_name, {"type": "game.moved", "move_count": game.move_count, "status": game.status}


def reload_pages(game) -> None:
    """Every open page of the game reloads its view of the game."""
    broadcast_on_commit(*_moved(game))


def game_changed(game, seats=None) -> None:
    """Open pages of the game and the seated people's pages hear of the change (in one
    send); ``seats``, the game's seats with their users when the caller has read them."""
    if seats is None:
        people = game.seats.exclude(user=None).exclude(user__is_bot=True).values_list("user_id", flat=True)
    else:
        people = [seat.user_id for seat in seats if seat.user is not None and not seat.user.is_bot]
    my_games.games_changed(people, kind=game.game_kind, game=game.pk, also=[_moved(game)])


def invitation(game, *, user, by) -> None:
    """Invited players are emailed only by someone their setting allows (no subject, no
    email), and the text names the sender by username, so the site never mails a
    stranger's words alone."""
    text = f"{by.name_and_username} invites you to a {game} game."
    allowed = invitation_email_allowed(invitee=user, sender=by)
    _tell(game, user, "invitation", text, subject=f"Invitation: {game}" if allowed else "")


def rematch_offer(game, *, user, by) -> None:
    _tell(game, user, "rematch", f"{by.name_and_username} offers a rematch: {game}.")


def cancelled(game, *, user, by) -> None:
    _tell(game, user, "cancelled", f"{game} will not start: {by.name_and_username} declined or withdrew.")


def started(game, *, user, to_move) -> None:
    """The game a player waits in has filled up; someone else opens it."""
    opening = registry.kind(game.game_kind).turns.opening
    _tell(game, user, "started", f"{game} has started: {to_move.name_and_username} {opening}.")


def your_turn(game, *, user, news: str = "") -> None:
    """``news`` says what the previous player did ("ann played QUIZ for 44")."""
    lead = f"{news}; your" if news else "Your"
    text = f"{lead} turn in {game}."
    left = durations.spoken(timedelta(seconds=game.seconds_per_move))
    _tell(game, user, "turn", text, subject=f"Your turn in {game}", body=f"{text} You have {left} to move.")


def vote_needed(game, *, user, by, words) -> None:
    """A house-vote play waits for ``user``'s vote."""
    shown = ", ".join(w.upper() for w in words)
    text = f"{by.name_and_username} played {shown} in {game}: not in the word list. Your vote?"
    _tell(game, user, "vote", text, subject=f"Your vote in {game}")


def vote_result(game, *, user, accepted: bool, words) -> None:
    """The house decided ``user``'s play; a rejected player moves again."""
    shown = ", ".join(w.upper() for w in words)
    if accepted:
        text = f"The house accepted {shown} in {game}."
    else:
        text = f"The house rejected {shown} in {game}: your play was taken back; move again."
    _tell(game, user, "vote_result", text)


def reminder(game, *, user, left: timedelta) -> None:
    spoken = durations.spoken(left)
    body = f"You have {spoken} left to move in {game}; after that you forfeit the game."
    _tell(
        game, user, "reminder", f"{spoken} left to move in {game}.", subject=f"Reminder: your move in {game}", body=body
    )


def forfeited(game, *, user, reason: str) -> None:
    """A forfeit in a game that goes on; one that ends it is told by the result alone."""
    if game.status == Status.FINISHED:
        return
    _tell(game, user, "forfeit", f"You forfeited {game}: you {reason}.")


def game_over(game, *, user, result: str) -> None:
    _tell(game, user, "over", f"{game} is over: {result}", subject=f"{game} is over", link="See")
