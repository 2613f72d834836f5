"""Seats and turn clocks shared by the turn-based games (Word Grid, Wordgame and TOW).

Each game app keeps its own models, rules and notifications; what a seat and a move
deadline mean is the same in all of them and is written here once:

- ``locked_waiting`` / ``take_seat`` / ``accept`` / ``cancel_waiting``: a game waits for its seats to
  be filled and accepted (invitations and open seeks), or is cancelled (``decline``,
  ``withdraw``);
- ``check_invitees`` / ``seat_players``: a new game's seats, its creator first;
  ``check_arranged`` / ``seat_arranged``: the seats of a game someone else arranged;
- ``start``: the seats are filled: the clock starts and everyone is told;
- ``offer_rematch`` (with ``copy_seats``): the next game of a series, the same players
  seated, the asker and bots accepted;
- ``locked_game`` / ``seated`` / ``check_moving``: what a move service checks before
  it asks the engine; ``apply_move``: the one path of every move (each game adds what
  is its own: how a move is stored, what it did to the turn); ``finish``: a finished
  game's status, places, outcome and news;
- ``clock_stopped`` / ``penalised`` / ``forfeit_reason``: a live game's clock (each
  player's total time, ``games.engine.clock``), charged the time of each turn from the
  stored start of it; its flag is the game's deadline, so the deadline task and sweep
  end a game lost on time like a missed move;
- ``hand_over`` / ``deadline_set``: the turn passes on (a person is told, a bot's move
  queued) and a live game's deadline gets its task; ``bot_due`` / ``bots_overdue``: the
  one bot-turn scheme, a stored due time and the sweep that acts for a bot whose task
  was lost;
- ``sweep_deadlines`` / ``sweep_reminders``: the beat's idempotent deadline work;
  ``expire_waiting``: games whose invitations or seek waited too long are cancelled;
- ``playing``: what friends see of a player's games in progress; ``invitations``: how a
  game's invitations and open seeks count against their creator's limits.

The models need ``status`` (``Status`` below), ``is_open_seek``, ``created_by``,
``finished_at``, ``deadline`` and ``remind_at``, and a ``seats`` relation whose rows have
``index``, ``user`` and ``accepted`` (``games.models`` has them all), and ``game_kind``,
the code of a kind with ``registry.Turns``. Players are told through
``games.notifications``. A refusal raises ``config.errors.Refused``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import Count, Prefetch, Q, prefetch_related_objects
from django.utils import timezone

from accounts.services import notify
from config import durations
from config.errors import Refused
from friends import limits
from friends import services as friends
from games import notifications, registry
from games.engine import clock as clocks
from games.engine.crossword import IllegalPlay
from games.engine.turns import FORFEIT, LAST_SEAT
from games.models import Status
from games.outcomes import outcome_of
from lexicon.services import current_version

#: The shortest time per move a game may have (seconds).
MIN_SECONDS_PER_MOVE = 10
#: What a seat that left the game did, by move kind.
LEFT = {"resign": "resigned", "forfeit": "forfeited"}


def check_invitees(creator, invitees, *, seek: bool = False) -> None:
    """Refuse a new game's invitees unless each is another active person, invited once,
    and within the creator's allowance of invitations (and of open seeks, if the game is
    one: ``friends.limits``)."""
    seen = {creator.pk}
    for invitee in invitees:
        if invitee.pk in seen:
            raise Refused(f"{invitee.username} is invited twice (or is you).")
        if invitee.is_bot:
            raise Refused("Bots cannot be invited; add them as bots.")
        if not invitee.is_active:
            raise Refused(f"{invitee.username} cannot play.")
        seen.add(invitee.pk)
    limits.check_allowance(creator, invitees=invitees, seek=seek)


def seat_players(game, seat_model, *, creator, invitees=(), bots=()) -> None:
    """Seat ``creator`` first, then the invitees (each told), then ``bots`` (accepted at
    once), then open seats up to the game's player count."""
    seat_model.objects.create(game=game, index=0, user=creator, accepted=True)
    index = 1
    for invitee in invitees:
        seat_model.objects.create(game=game, index=index, user=invitee, invited=True)
        notifications.invitation(game, user=invitee, by=creator)
        index += 1
    for bot in bots:
        seat_model.objects.create(game=game, index=index, user=bot, accepted=True)
        index += 1
    for free in range(index, game.players):
        seat_model.objects.create(game=game, index=free)


def check_arranged(players) -> None:
    """Refuse the players of a game someone else arranged (a tournament's) unless they are
    two or more different active people."""
    if len(players) < 2:
        raise Refused("A game needs two or more players.")
    if len({player.pk for player in players}) != len(players):
        raise Refused("A player is seated twice.")
    for player in players:
        if player.is_bot or not player.is_active:
            raise Refused(f"{player.username} cannot play.")


def seat_arranged(game, seat_model, players) -> None:
    """Seat ``players`` in order, every seat accepted: nobody is asked (a tournament's game)."""
    seat_model.objects.bulk_create(
        seat_model(game=game, index=index, user=player, accepted=True) for index, player in enumerate(players)
    )


def locked_waiting(model, game_id: int):
    """The game's row, locked, if it is still waiting for players; else Refused."""
    try:
        game = model.objects.select_for_update().get(pk=game_id)
    except model.DoesNotExist:
        raise Refused("No such game.", status=404) from None
    if game.status != Status.WAITING:
        raise Refused("This game has already started or was cancelled.", status=409)
    return game


def take_seat(game, player, *, taker_problem: Callable[[object], str | None] | None = None) -> bool:
    """Accept ``player``'s invitation or give them a free seat of an open seek.

    ``taker_problem(player)`` may refuse a stranger taking an open seat (a rating range,
    say). Returns True when every seat is now filled and accepted: the game can start.
    """
    seats = list(game.seats.all())
    mine = next((s for s in seats if s.user_id == player.pk), None)
    if mine is not None:
        if mine.accepted:
            raise Refused("You have already joined this game.", status=409)
        mine.accepted = True
        mine.save(update_fields=["accepted"])
    else:
        if player.is_bot:
            raise Refused("Bots cannot take seats yet.", status=403)
        free = next((s for s in seats if s.user_id is None), None)
        if free is None or not game.is_open_seek:
            raise Refused("There is no seat for you in this game.", status=403)
        problem = taker_problem(player) if taker_problem else None
        if problem:
            raise Refused(problem, status=403)
        free.user = player
        free.accepted = True
        free.save(update_fields=["user", "accepted"])
    return all(s.user_id is not None and s.accepted for s in game.seats.all())


@transaction.atomic
def accept(model, *, game_id: int, player, start: Callable, taker_problem: Callable | None = None):
    """Accept ``player``'s invitation to ``game_id`` or give them a free seat of an open
    seek (``taker_problem(game, player)`` may refuse a stranger a seat); the last seat
    filled starts the game (``start(game, by=player)``)."""
    game = locked_waiting(model, game_id)
    problem = (lambda taker: taker_problem(game, taker)) if taker_problem else None
    if take_seat(game, player, taker_problem=problem):
        start(game, by=player)
    else:
        notifications.game_changed(game)
    return game


def check_invited(game, player) -> None:
    """Refuse a decline from anyone but an invitee who has not accepted: declining cancels
    the game for everyone, which is not for a player who already joined it."""
    seat = game.seats.filter(user=player).first()
    if seat is None:
        raise Refused("You are not invited to this game.", status=403)
    if game.created_by_id == player.pk:
        raise Refused("You created this game: withdraw it instead of declining.", status=409)
    if seat.accepted:
        raise Refused("You have already joined this game, so it can no longer be declined.", status=409)


def check_creator(game, player) -> None:
    if game.created_by_id != player.pk:
        raise Refused("Only the player who created the game can withdraw it.", status=403)


def cancel_waiting(game, *, by, tell: Callable) -> None:
    """Cancel a game that has not started; ``tell(game, user=, by=)`` every other seat."""
    game.status = Status.CANCELLED
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "finished_at"])
    for seat in game.seats.exclude(user=None).exclude(user=by).select_related("user"):
        tell(game, user=seat.user, by=by)


@transaction.atomic
def decline(model, *, game_id: int, player):
    """Decline an invitation: the game will not start and the others are told."""
    game = locked_waiting(model, game_id)
    check_invited(game, player)
    return _cancelled(game, by=player)


@transaction.atomic
def withdraw(model, *, game_id: int, player):
    """The creator withdraws a game that has not started."""
    game = locked_waiting(model, game_id)
    check_creator(game, player)
    return _cancelled(game, by=player)


def _cancelled(game, *, by):
    cancel_waiting(game, by=by, tell=notifications.cancelled)
    notifications.game_changed(game)
    return game


def copy_seats(seats, rematch, seat_model, *, asker, offer: Callable) -> bool:
    """Seat a rematch like ``seats``: the asker and bots accepted, everyone else offered
    it through ``offer(rematch, user=, by=)``. Returns True if all have accepted."""
    everyone = True
    for seat in seats:
        is_bot = seat.user is not None and seat.user.is_bot
        accepted = seat.user_id == asker.pk or is_bot
        seat_model.objects.create(
            game=rematch, index=seat.index, user=seat.user, accepted=accepted, invited=not accepted
        )
        if not accepted:
            everyone = False
            offer(rematch, user=seat.user, by=asker)
    return everyone


def start(game, *, to_move: int, by) -> None:
    """Start the clock of a game whose seats are all filled, seat ``to_move`` to open it;
    ``by`` took the last seat and is looking at the game, so is not told (None: a game
    nobody at it started, everyone is told)."""
    now = timezone.now()
    game.status = Status.ACTIVE
    game.started_at = now
    game.to_move = to_move
    if game.clock is not None:
        game.clock_left = list(game.clock.start(game.players))
    game.set_deadline(now)
    game.save(
        update_fields=["status", "started_at", "to_move", "deadline", "remind_at", "clock_left", "turn_started_at"]
    )
    seats = list(game.seats.select_related("user"))
    opener = next(seat.user for seat in seats if seat.index == to_move)
    hand_over(game, opener)
    for seat in seats:
        if seat.index != to_move and (by is None or seat.user_id != by.pk):
            notifications.started(game, user=seat.user, to_move=opener)
    deadline_set(game)
    notifications.game_changed(game)


def _turns(game) -> registry.Turns:
    return registry.kind(game.game_kind).turns


def queue_bot(game) -> None:
    """A bot is due to move or vote in ``game``: its kind queues it (``Turns.queue_bot``)."""
    _turns(game).queue_bot(game)


def hand_over(game, user, *, news: str = "") -> None:
    """The turn passes to ``user``: a person is told (``news``: what the last player did),
    a bot's move is queued."""
    if user.is_bot:
        queue_bot(game)
    else:
        notifications.your_turn(game, user=user, news=news)


def deadline_set(game) -> None:
    """A live game's new deadline gets its own task, so a forfeit does not wait for the
    sweep (a broker keeps a delayed task only so long: longer deadlines are the sweep's)."""
    if game.deadline is None or not notifications.is_live(game):
        return
    _turns(game).queue_deadline(game.pk, game.deadline + timedelta(seconds=1))


def offer_rematch(model, seat_model, *, game_id: int, player, start: Callable, copy: tuple[str, ...] = ()):
    """Offer the next game of ``game_id``'s series: the same seats and rules, the next game
    number, the lexicon's current version, and the game's own fields named in ``copy``.
    Asking twice returns the rematch already offered; a new offer invites the other
    people, so ``check_invitees`` and its limits apply. Bots accept at once, so a rematch
    whose other players are all bots starts straight away (``start(rematch, by=player)``)."""
    try:
        game = model.objects.select_for_update().get(pk=game_id)
    except model.DoesNotExist:
        raise Refused("No such game.", status=404) from None
    seats = list(game.seats.select_related("user"))
    if not any(s.user_id == player.pk for s in seats):
        raise Refused("Only the game's players can ask for a rematch.", status=403)
    if game.status != Status.FINISHED:
        raise Refused("A rematch can follow only a finished game.")
    existing = model.objects.filter(rematch_of=game).first()
    if existing is not None:
        return existing
    # Offering a rematch invites the other people at the table: the same checks and limits.
    check_invitees(player, [s.user for s in seats if s.user_id not in (None, player.pk) and not s.user.is_bot])
    rematch = model.objects.create(
        players=game.players,
        lexicon_code=game.lexicon_code,
        lexicon_version=current_version(game.lexicon_code),
        series=game.series,
        game_number=game.game_number + 1,
        rematch_of=game,
        seconds_per_move=game.seconds_per_move,
        clock_seconds=game.clock_seconds,
        clock_increment=game.clock_increment,
        clock_overtime=game.clock_overtime,
        created_by=player,
        ranked=game.ranked,
        **{field: getattr(game, field) for field in copy},
    )
    everyone = copy_seats(seats, rematch, seat_model, asker=player, offer=notifications.rematch_offer)
    notifications.game_changed(game)
    if everyone:
        start(rematch, by=player)
    return rematch


# -- moves ---------------------------------------------------------------------------------


def locked_game(model, game_id: int):
    """The game's row, locked for the move being made."""
    try:
        return model.objects.select_for_update().get(pk=game_id)
    except model.DoesNotExist:
        raise Refused("No such game.", status=404) from None


def seats_with_players(game, *related: str) -> list:
    """The game's seats in order with their players (and ``related``, as
    ``select_related`` names it), read once for the ``game`` object: a move asks who sits,
    who moved, the scores, and its answer draws them again, so the first asking reads
    them for the rest (Django's prefetch cache of ``game.seats``; a later asking's
    ``related`` that the first did not read is read when used)."""
    rows = game.seats.model.objects.select_related("user", *related).order_by("index")
    prefetch_related_objects([game], Prefetch("seats", queryset=rows))
    return list(game.seats.all())


def seated(model, game_id: int, player) -> tuple:
    """(the game's row, locked; ``player``'s seat index in it), or Refused."""
    game = locked_game(model, game_id)
    index = next((seat.index for seat in seats_with_players(game) if seat.user_id == player.pk), None)
    if index is None:
        raise Refused("You are not playing in this game.", status=403)
    return game, index


def check_moving(game, seat, move_count: int | None, *, stale: str) -> None:
    """Refuse a move in a game that is not in play, by a ``seat`` (its row) that left, or
    from a page that showed another move count than the game's (``stale`` says so); a game in
    play has every seat."""
    if game.status != Status.ACTIVE:
        raise Refused(
            "This game is over." if game.status == Status.FINISHED else "This game has not started.", status=409
        )
    if seat.left:
        raise Refused("You have left this game.", status=409)
    if move_count is not None and move_count != game.move_count:
        raise Refused(stale, status=409)


def result_text(state, seats: dict, reasons: dict[str, str]) -> str:
    """ "ann wins (312–280)" or "a draw between …", with why the game ended: ``reasons``
    by the engine's end reason, or who left when the last one left ended it.

    Scores are listed in the order of the places, so a winner who is behind on points
    because the others left is not shown with the leader's score.
    """
    winners = state.winners()
    names = [seats[s].user.name_and_username for s in winners]
    line = "–".join(str(score) for _, score, _ in state.standings())
    why = reasons.get(state.end_reason, state.end_reason or "")
    gone = [
        f"{seats[s].user.name_and_username} {seats[s].left}"
        for s in state.left_order
        if seats[s].user and seats[s].left
    ]
    if state.end_reason == LAST_SEAT and gone:
        why = " and ".join(gone)
    text = f"a draw between {' and '.join(names)} ({line})" if len(winners) > 1 else f"{names[0]} wins ({line})"
    return f"{text}; the game ended because {why}." if why else text + "."


def sentence(reason: str) -> str:
    """The engine's reason ("not your turn") as a sentence for the player."""
    return reason[:1].upper() + reason[1:] + ("" if reason.endswith(".") else ".")


@dataclass(frozen=True)
class Turn:
    """What a move did to the turn, as its game says: whether the turn ``passed`` (a new
    deadline), whether the next player is to be told (``hand_over``; not when the house
    rejected their play: they were told so), and the ``news`` of what was done."""

    passed: bool
    hand_over: bool = True
    news: str = ""


def apply_move(
    game,
    move,
    *,
    move_count: int | None,
    state: Callable[[], object],
    stale: str,
    late: str,
    timed: tuple[str, ...],
    store: Callable[[object, object], object],
    turn: Callable[[object, object, object, dict], Turn],
    result: Callable[[object, dict], str],
    reason: str = "",
    now=None,
) -> object:
    """The one path of a move in a game played in turns, by a person, a bot or a sweep.

    Check the seat, the turn and the move number the client saw (``stale`` says so); let
    the engine check the move on the game's ``state()``; refuse a move of the ``timed``
    kinds after the deadline (``late``: the clock is the server's); apply it, ``store``
    it (``store(before, after)`` returns the row), set the seats' scores and who left,
    ask the game what it did to the turn (``turn(before, after, stored, seats)``, where
    a game's own rules act: a house vote), charge the mover's clock for a turn that
    ended, then finish the game (overtime penalties taken off the scores;
    ``result(after, seats)`` tells everyone) or start the next turn's clock and hand it
    over. Everyone looking is told.
    """
    # The seats are read once: the mover's tells whether they left, and the move sets scores.
    seats = {seat.index: seat for seat in seats_with_players(game)}
    check_moving(game, seats.get(move.seat), move_count, stale=stale)
    before = state()
    try:
        before.check(move)
    except IllegalPlay as refused:
        # The turn, the rack or the game moved on since the page was drawn.
        raise Refused(sentence(refused.reason), status=409) from None
    now = now or timezone.now()
    if move.kind in timed and game.deadline is not None and game.deadline <= now:
        raise Refused(late, status=409)
    try:
        after = before.apply(move)
    except IllegalPlay as refused:
        raise Refused(sentence(refused.reason)) from None
    stored = store(before, after)
    game.move_count += 1
    # Only the seats whose score or leaving the move changed are written.
    stored_seats = {index: (seat.score, seat.left) for index, seat in seats.items()}
    for index, seat in seats.items():
        seat.score = after.scores[index]
        if move.kind in LEFT and index == move.seat:
            seat.left = LEFT[move.kind]
    done = turn(before, after, stored, seats)
    if move.seat == game.to_move and (done.passed or after.is_over):
        clock_stopped(game, now, moved=move.kind not in LEFT)
    if after.is_over:
        after = penalised(game, after)
        for index, seat in seats.items():
            seat.score = after.scores[index]
        finish(game, after, seats, result=result(after, seats))
    else:
        game.to_move = after.to_move
        if done.passed:
            game.set_deadline(now)
        game.save()
        for index, seat in seats.items():
            if (seat.score, seat.left) != stored_seats[index]:
                seat.save(update_fields=["score", "left"])
        if done.passed and done.hand_over:
            hand_over(game, seats[after.to_move].user, news=done.news)
        if done.passed:
            deadline_set(game)
    if move.kind == FORFEIT:
        notifications.forfeited(game, user=seats[move.seat].user, reason=reason)
    notifications.game_changed(game, seats.values())
    return stored


# -- the game clock ------------------------------------------------------------------------


def check_clock(clock, seconds_per_move: int) -> None:
    """Refuse a clock for a correspondence game: its players keep days per move."""
    if clock is not None and seconds_per_move > notifications.LIVE_DEADLINE_SECONDS:
        raise Refused("A clock is for live games; a correspondence game keeps its days per move.")


def clock_fields(clock) -> dict:
    """A new game's clock columns for ``clock`` (None: no clock)."""
    if clock is None:
        return {}
    return {"clock_seconds": clock.seconds, "clock_increment": clock.increment, "clock_overtime": clock.overtime}


def used_ms(game, now) -> int:
    """How long the turn to move has lasted at ``now`` (ms), by the game's stored start of
    it; 0 in a game without a clock."""
    if game.turn_started_at is None:
        return 0
    return max(0, int((now - game.turn_started_at).total_seconds() * 1000))


def clock_stopped(game, now, *, moved: bool) -> None:
    """The player to move ends their turn at ``now`` (``moved``: by a move, not by leaving):
    their clock is charged the time it lasted (``Clock.left_after``). The next turn's
    clock starts with ``set_deadline``."""
    clock = game.clock
    if clock is None:
        return
    left = list(game.clock_left)
    left[game.to_move] = clock.left_after(left[game.to_move], used_ms(game, now), moved=moved)
    game.clock_left = left


def penalised(game, state):
    """``state`` with the overtime penalties of a clocked game taken off its scores once it
    is over (``with_time_penalties``): what the stored game and its pages agree on."""
    clock = game.clock
    if clock is None or not state.is_over:
        return state
    return state.with_time_penalties(clock.penalties(game.clock_left))


def lost_on_time(game, now) -> bool:
    """Whether the player to move has lost on time by ``now`` (their clock, not the time
    per move, is what ran out)."""
    clock = game.clock
    return (
        clock is not None
        and game.to_move is not None
        and clock.lost_on_time(game.clock_left[game.to_move], used_ms(game, now))
    )


@dataclass(frozen=True)
class ClockFace:
    """A seat's clock as its page shows it at ``now``: the time left (ms, negative once
    over time), whether it is running, and the points it would lose if the game ended."""

    index: int
    left_ms: int
    running: bool
    penalty: int

    @property
    def text(self) -> str:
        return clocks.shown(self.left_ms).text

    @property
    def over(self) -> bool:
        return self.left_ms < 0


def clock_faces(game, now) -> list[ClockFace]:
    """Every seat's clock at ``now`` in a clocked game that has started (else [])."""
    clock = game.clock
    if clock is None or not game.clock_left:
        return []
    running = game.to_move if game.status == Status.ACTIVE else None
    faces = []
    for index, left in enumerate(game.clock_left):
        if index == running:
            left = clock.running(left, used_ms(game, now))
        faces.append(ClockFace(index, left, index == running, clock.penalty_for(left)))
    return faces


def public_clock(game, now) -> dict:
    """A game's clock as the public API reads it at ``now``: its ``status`` and ``clock``,
    None without one, else its settings and, once the game has started, each seat's
    clock (``clock_faces``: the time left, running or not, and the overtime penalty it
    carries, the one taken off its score at the end)."""
    clock = game.clock
    if clock is None:
        return {"status": game.status, "clock": None}
    names = {seat.index: seat.user.username if seat.user else None for seat in game.seats.select_related("user")}
    seats = [
        {
            "seat": face.index,
            "username": names.get(face.index),
            "left_ms": face.left_ms,
            "running": face.running,
            "penalty": face.penalty,
        }
        for face in clock_faces(game, now)
    ]
    settings = {
        "label": clock.label,
        "seconds": clock.seconds,
        "increment": clock.increment,
        "overtime": clock.overtime,
        "penalty_per_minute": clock.penalty,
    }
    return {"status": game.status, "clock": {**settings, "seats": seats}}


def forfeit_reason(game, now) -> str:
    """Why the player to move forfeits at ``now``, their deadline past."""
    return "lost on time" if lost_on_time(game, now) else "missed the move deadline"


def finish(game, state, seats: dict, *, result: str) -> None:
    """The engine's ``state`` is over: store the end and each seat's place (``seats`` by
    index, scores already set), tell the shared parts its outcome (ratings, tournaments:
    ``games.registry.game_finished``), and tell everyone ``result``."""
    game.status = Status.FINISHED
    game.finished_at = timezone.now()
    game.to_move = None
    game.deadline = None
    game.remind_at = None
    game.end_reason = state.end_reason or ""
    game.save()
    places = {seat: place for seat, _, place in state.standings()}
    for index, seat in seats.items():
        seat.place = places[index]
        seat.save(update_fields=["score", "left", "place"])
    registry.game_finished(outcome_of(game))
    for seat in seats.values():
        notifications.game_over(game, user=seat.user, result=result)


# -- bots ----------------------------------------------------------------------------------

#: How long past its due time the sweep lets a bot wait before acting for it: short in
#: live games (the sweeps run every 10 s, so a lost turn is played within about 12 s of
#: its due time), longer by correspondence, where a few seconds do not matter.
LIVE_SWEEP_GRACE = timedelta(seconds=2)
CORRESPONDENCE_SWEEP_GRACE = timedelta(seconds=20)


def bot_due(game, seconds: float, act: Callable[[], None]) -> None:
    """A bot is due to act in ``game`` in ``seconds``: store when (``bot_due_at``, what the
    sweep reads if the task is lost) and run ``act`` (queue the app's bot task) after the
    commit."""
    game.bot_due_at = timezone.now() + timedelta(seconds=seconds)
    type(game).objects.filter(pk=game.pk).update(bot_due_at=game.bot_due_at)
    transaction.on_commit(act)


def bots_overdue(model, due: Q, *, now=None) -> list[tuple[int, int]]:
    """(id, move count) of active games of ``model`` where a bot is due (``due``: the
    app's own condition) and its due time is a grace period past, oldest first."""
    now = now or timezone.now()
    live = Q(seconds_per_move__lte=notifications.LIVE_DEADLINE_SECONDS)
    overdue = (live & Q(bot_due_at__lt=now - LIVE_SWEEP_GRACE)) | (
        ~live & Q(bot_due_at__lt=now - CORRESPONDENCE_SWEEP_GRACE)
    )
    games = model.objects.filter(overdue, due, status=Status.ACTIVE).order_by("bot_due_at", "pk")
    return list(dict.fromkeys(games.values_list("pk", "move_count")))


def sweep_deadlines(model, settle: Callable, *, now=None) -> int:
    """Call ``settle(game_id=, now=)`` for every active game whose deadline passed; it
    re-checks under its own row lock (so a doubled tick does nothing) and returns None
    when there was nothing to do. Returns how many settled."""
    now = now or timezone.now()
    ids = list(model.objects.filter(status=Status.ACTIVE, deadline__lte=now).values_list("pk", flat=True))
    return sum(1 for game_id in ids if settle(game_id=game_id, now=now) is not None)


def sweep_reminders(model, remind: Callable, *, now=None) -> int:
    """Once a turn, when ``remind_at`` has come and the deadline has not, clear it and
    call ``remind(game, now)`` in the same transaction. Returns how many were sent."""
    now = now or timezone.now()
    ids = list(
        model.objects.filter(status=Status.ACTIVE, remind_at__lte=now, deadline__gt=now).values_list("pk", flat=True)
    )
    sent = 0
    for game_id in ids:
        with transaction.atomic():
            game = model.objects.select_for_update().get(pk=game_id)
            if (
                game.status != Status.ACTIVE
                or game.remind_at is None
                or game.remind_at > now
                or game.deadline is None
                or game.deadline <= now
            ):
                continue
            game.remind_at = None
            game.save(update_fields=["remind_at"])
            remind(game, now)
            sent += 1
    return sent


# -- what friends see and count, and invitations that waited too long -------------------


def invitations(model, seat_model) -> registry.Invitations:
    """How the games of ``model`` count against their creator's limits (``friends.limits``):
    an invitation is an unaccepted seat of a waiting game its creator made for a person
    (the new-game pages, challenges and rematch offers), a seek a waiting open seek; an
    hour counts every seat the creator invited, answered or not, and every seek."""

    def open_invitations(sender, invitee) -> int:
        seats = seat_model.objects.filter(game__created_by=sender, game__status=Status.WAITING, accepted=False)
        seats = seats.exclude(user=None)
        return (seats.filter(user=invitee) if invitee is not None else seats).count()

    def seeks(sender) -> int:
        return model.objects.filter(created_by=sender, status=Status.WAITING, is_open_seek=True).count()

    def sent_since(sender, since) -> int:
        invited = seat_model.objects.filter(game__created_by=sender, game__created_at__gt=since, invited=True)
        sought = model.objects.filter(created_by=sender, created_at__gt=since, is_open_seek=True)
        return invited.count() + sought.count()

    return registry.Invitations(open=open_invitations, seeks=seeks, sent_since=sent_since)


def playing(seat_model, user_ids, noun: str) -> dict[int, registry.Playing]:
    """How many games in progress each of ``user_ids`` sits at: "2 crossword games"."""
    counts = (
        seat_model.objects.filter(user_id__in=list(user_ids), game__status=Status.ACTIVE)
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    return {user_id: registry.Playing(f"{n} {noun}{'s' if n != 1 else ''}") for user_id, n in counts}


def _expired(now) -> Q:
    live = Q(seconds_per_move__lte=notifications.LIVE_DEADLINE_SECONDS)
    return Q(status=Status.WAITING) & (
        Q(created_at__lte=now - friends.correspondence_expiry())
        | (live & Q(created_at__lte=now - friends.live_expiry()))
    )


def _tell_expired(game, *, user, by) -> None:
    expiry = friends.live_expiry() if notifications.is_live(game) else friends.correspondence_expiry()
    what = "open seek" if game.is_open_seek else "invitation"
    notify(
        user=user,
        kind="game.expired",
        text=f"{game}: the {what} expired after {durations.spoken(expiry)} without every seat taken.",
        url=game.get_absolute_url(),
    )


def expire_waiting(model, *, now) -> int:
    """Cancel every game of ``model`` still waiting for its players past the invitations'
    time (live or correspondence), each under its own row lock, so a doubled or
    overlapping sweep cancels each once; the players are told. Returns how many."""
    cancelled = 0
    for game_id in list(model.objects.filter(_expired(now)).values_list("pk", flat=True)):
        with transaction.atomic():
            game = model.objects.select_for_update().filter(_expired(now), pk=game_id).first()
            if game is None:
                continue
            cancel_waiting(game, by=None, tell=_tell_expired)
            notifications.game_changed(game)
            cancelled += 1
    return cancelled
