"""Moves of a game in progress: play, swap, pass, vote, resign, forfeit.

Every move goes through ``_apply``, the turn-based games' one move path
(``games.seating.apply_move``) with what is TOW's own: a move's path and play, and the
house vote. A house-vote play is stored when made (``accepted`` None) and marked
accepted or rejected by the move that settles its vote.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import notifications, seating
from games.engine import tow as engine

from .. import selectors
from ..models import Game, Move, MoveKind, Status
from .errors import Refused

STALE = "The game has moved on since this page was loaded; the table has been refreshed."
LEFT = seating.LEFT
TURN_KINDS = (engine.PLACE, engine.SWAP, engine.PASS)


def _apply(game: Game, move: engine.Move, *, move_count: int | None, reason: str = "", now=None) -> Move:
    moves = []

    def state() -> engine.Game:
        moves.extend(game.moves.order_by("number"))
        return selectors.engine_state(game, moves=moves)

    def store(before: engine.Game, after: engine.Game) -> Move:
        stored = Move(
            game=game,
            number=game.move_count,
            seat=move.seat,
            kind=move.kind,
            placement=[list(t) for t in move.placement],
            path=[list(c) for c in move.path],
            tiles=move.tiles,
            accept=move.accept,
            rack_before=before.racks[move.seat],
            rack_after=after.racks[move.seat],
            reason=reason,
        )
        if before.pending is None and after.pending is not None:  # the play waits for the house
            stored.play = after.pending.play.to_dict()
            stored.score = after.pending.play.score
        elif move.kind == engine.PLACE:
            turn = after.turns[-1]
            stored.play, stored.score, stored.accepted = turn.play.to_dict(), turn.score, True
        stored.save()
        return stored

    def turn(before: engine.Game, after: engine.Game, stored: Move, seats: dict) -> seating.Turn:
        """The house vote, TOW's own: a play waiting for votes asks the voters; the vote
        that settles it tells its player (a rejected one moves again)."""
        opened_vote = before.pending is None and after.pending is not None
        settled = before.pending is not None and after.pending is None
        accepted = _settle(game, before, after) if settled else None
        game.voting = after.pending is not None
        if after.is_over:
            return seating.Turn(passed=False)
        if opened_vote:
            _ask_votes(game, after, [seats[voter].user for voter in after.voters], by=seats[move.seat].user)
        if accepted is not None:
            player = seats[before.pending.move.seat].user
            notifications.vote_result(game, user=player, accepted=accepted, words=before.pending.play.unknown_words)
            if not accepted and player.is_bot:
                seating.queue_bot(game)  # it moves again, as a person told so does
        passed = after.to_move != before.to_move or (settled and accepted is not None)
        told = passed and accepted is not False
        return seating.Turn(passed=passed, hand_over=told, news=_news(after, seats) if told else "")

    return seating.apply_move(
        game,
        move,
        move_count=move_count,
        state=state,
        stale=STALE,
        late="The time for this move has run out.",
        timed=TURN_KINDS + (engine.VOTE,),
        store=store,
        turn=turn,
        result=lambda after, seats: selectors.result_text(game, after, seats),
        reason=reason,
        now=now,
    )


def _ask_votes(game: Game, after: engine.Game, voters, *, by) -> None:
    """Each person who votes is asked; the bots' votes are queued."""
    words = after.pending.play.unknown_words
    for voter in voters:
        if not voter.is_bot:
            notifications.vote_needed(game, user=voter, by=by, words=words)
    if any(voter.is_bot for voter in voters):
        seating.queue_bot(game)


def _settle(game: Game, before: engine.Game, after: engine.Game) -> bool | None:
    """Mark the voted play accepted or rejected; None if its player left (no vote result)."""
    voted = game.moves.filter(kind=MoveKind.PLACE, accepted__isnull=True).order_by("-number").first()
    last = after.turns[-1]
    if last.move != before.pending.move:
        if voted is not None:
            Move.objects.filter(pk=voted.pk).update(accepted=False, score=0)
        return None
    if voted is not None:
        Move.objects.filter(pk=voted.pk).update(accepted=last.accepted, score=last.score)
    return last.accepted


def _news(state: engine.Game, seats: dict) -> str:
    """What the last turn did, for the next player's notification."""
    turn = state.turns[-1]
    seat = seats.get(turn.move.seat)
    name = seat.user.name_and_username if seat and seat.user else "Someone"
    if turn.move.kind == engine.PLACE and turn.play is not None:
        return f"{name} played {turn.play.main_word.upper()} for {turn.score}"
    return {
        engine.SWAP: f"{name} swapped",
        engine.PASS: f"{name} passed",
        engine.RESIGN: f"{name} resigned",
        engine.FORFEIT: f"{name} forfeited",
    }.get(turn.move.kind, "")


def _parse_move(build):
    try:
        return build()
    except (TypeError, ValueError):
        raise Refused("The move could not be read.") from None


@transaction.atomic
def game_play(*, game_id: int, player, placement, path=None, word: str = "", move_count: int | None) -> Move:
    """Place tiles ``[(row, col, letter, kind), ...]`` and name the main word by its
    ``path`` of cells, or by the ``word`` when only one path spells it."""
    game, seat = seating.seated(Game, game_id, player)
    if not path:
        state = selectors.engine_state(game)
        if state.pending is None and state.to_move == seat:
            try:
                path, _ = selectors.find_path(state, placement, word)
            except engine.IllegalPlay as refused:
                raise Refused(seating.sentence(refused.reason)) from None
    move = _parse_move(lambda: engine.Move.place(seat, placement, path or ()))
    return _apply(game, move, move_count=move_count)


@transaction.atomic
def game_swap(*, game_id: int, player, tiles: str, move_count: int | None) -> Move:
    """Swap ``tiles`` (letters, "+" corner, "*" PZ) for as many from the bag."""
    game, seat = seating.seated(Game, game_id, player)
    return _apply(game, engine.Move.swap(seat, tiles), move_count=move_count)


@transaction.atomic
def game_pass(*, game_id: int, player, move_count: int | None) -> Move:
    game, seat = seating.seated(Game, game_id, player)
    return _apply(game, engine.Move.pass_(seat), move_count=move_count)


@transaction.atomic
def game_vote(*, game_id: int, player, accept: bool, move_count: int | None) -> Move:
    """Vote on the play waiting for the house: a majority accepts, a tie rejects."""
    game, seat = seating.seated(Game, game_id, player)
    return _apply(game, engine.Move.vote(seat, accept), move_count=move_count)


@transaction.atomic
def game_resign(*, game_id: int, player) -> Move:
    game, seat = seating.seated(Game, game_id, player)
    return _apply(game, engine.Move.resign(seat), move_count=None)


@transaction.atomic
def game_deadline(*, game_id: int, now=None) -> Move | None:
    """The move deadline passed: close a running vote on the votes cast, or forfeit the
    player to move. Does nothing before the deadline (idempotent)."""
    game = seating.locked_game(Game, game_id)
    now = now or timezone.now()
    if game.status != Status.ACTIVE or game.deadline is None or game.deadline > now:
        return None
    if game.voting:
        return _apply(game, engine.Move.close_vote(game.to_move), move_count=None, now=now)
    return _apply(
        game, engine.Move.forfeit(game.to_move), move_count=None, reason=seating.forfeit_reason(game, now), now=now
    )
