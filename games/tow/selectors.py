"""Reads of TOW games: the engine state, a player's view, lists, previews and replays.

A player's view never holds the bag's order or another player's rack, only counts. A
play waiting for the house vote is shown to everyone (the voters must see what they
vote on), its tiles marked as pending.
"""

from __future__ import annotations

from django.db.models import F, Q

from games import seating
from games.engine import tow as engine
from games.states import StateCache
from lexicon.loading import get_lexicon

from .models import Game, Move, MoveKind, Seat, Status

END_REASONS = {
    engine.WENT_OUT: "a player went out",
    engine.PASSES: "everyone passed twice",
    engine.LAST_SEAT: "only one player was left",
}
RULER = 12
KIND_NAMES = {engine.LETTER: "letter", engine.CORNER: "corner tile", engine.PZ: "PZ tile"}


def engine_move(move: Move) -> engine.Move:
    if move.kind == MoveKind.PLACE:
        return engine.Move.place(move.seat, move.placement, move.path)
    if move.kind == MoveKind.SWAP:
        return engine.Move.swap(move.seat, move.tiles)
    if move.kind == MoveKind.VOTE:
        return engine.Move.vote(move.seat, bool(move.accept))
    return engine.Move(move.kind, move.seat)


def lexicon(game: Game):
    """The lexicon version the game started with (``en`` on a house-vote table)."""
    return get_lexicon(game.lexicon_code, game.lexicon_version)


def engine_state(game: Game, moves=None) -> engine.Game:
    """The engine's game after the stored moves (all by default), from the seed.

    Each process keeps a game's latest state (``games.states``): the next request after a
    move applies only that move.
    """
    moves = list(game.moves.order_by("number") if moves is None else moves)
    key = ("tow", game.pk, game.seed, game.lexicon_code, game.lexicon_version, game.house_vote)
    return STATES.state(
        key,
        moves,
        new=lambda: engine.new_game(
            game.players, game.seed, lexicon(game), game.game_number, house_vote=game.house_vote
        ),
        step=lambda state, move: state.apply(engine_move(move)),
    )


STATES = StateCache()


def seat_of(game: Game, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).values_list("index", flat=True).first()


def result_text(game: Game, state: engine.Game, seats: dict[int, Seat]) -> str:
    """ "ann wins (312–280)" or "a draw between …", with why the game ended."""
    return seating.result_text(state, seats, END_REASONS)


# -- lists -------------------------------------------------------------------------------------


def _mine(user):
    return Game.objects.filter(seats__user=user).distinct()


def games_awaiting(*, user):
    """Seats of ``user`` in active games where they are to move or may have a vote to cast."""
    mine = Seat.objects.filter(user=user, game__status=Status.ACTIVE, left="")
    return mine.filter(
        Q(index=F("game__to_move"), game__voting=False) | Q(game__voting=True) & ~Q(index=F("game__to_move"))
    )


def my_games(*, user) -> dict[str, list[Game]]:
    games = _mine(user).prefetch_related("seats__user")
    awaiting = set(games_awaiting(user=user).values_list("game_id", flat=True))
    active = list(games.filter(status=Status.ACTIVE))
    return {
        "waiting": list(games.filter(status=Status.WAITING)),
        "my_move": [g for g in active if g.pk in awaiting],
        "active": [g for g in active if g.pk not in awaiting],
        "finished": list(games.filter(status=Status.FINISHED)[:20]),
    }


def open_seeks(*, user) -> list[Game]:
    """Open seeks someone else created that still have a free seat."""
    return list(
        Game.objects.filter(status=Status.WAITING, is_open_seek=True, seats__user__isnull=True)
        .exclude(seats__user=user)
        .distinct()
        .prefetch_related("seats__user")[:50]
    )


# -- a player's view ---------------------------------------------------------------------------


def _tiles(state: engine.Game) -> list[dict]:
    return [
        {"row": r, "col": c, "letter": letter, "kind": kind, "play": play, "name": engine.cell_name(r, c)}
        for r, c, letter, kind, play in state.table.tiles()
    ]


def describe(move: Move, names: dict[int, str]) -> dict:
    """One history entry: who did what, the words and bonuses, votes when there were any."""
    who = names.get(move.seat, f"Seat {move.seat + 1}")
    entry = {"number": move.number + 1, "seat": move.seat, "who": who, "kind": move.kind, "score": move.score}
    if move.kind == MoveKind.PLACE:
        entry.update(play=move.play, accepted=move.accepted)
    elif move.kind == MoveKind.SWAP:
        entry["text"] = f"swapped {len(move.tiles)} tile{'s' if len(move.tiles) != 1 else ''}"
    elif move.kind == MoveKind.PASS:
        entry["text"] = "passed"
    elif move.kind == MoveKind.RESIGN:
        entry["text"] = "resigned"
    elif move.kind == MoveKind.FORFEIT:
        entry["text"] = f"forfeited ({move.reason})" if move.reason else "forfeited"
    elif move.kind == MoveKind.VOTE:
        entry["text"] = "voted to accept" if move.accept else "voted to reject"
    elif move.kind == MoveKind.CLOSE_VOTE:
        entry["text"] = "the vote's time ran out"
    return entry


def game_view(*, game: Game, viewer) -> dict:
    """Everything one viewer's page shows, as JSON-ready data, built panel by panel: the
    game and its seats, then once it has started the table, the vote on a pending play,
    the rack and bag, the move list and draws, and whose turn it is or the result."""
    seats = list(game.seats.select_related("user"))
    names = {s.index: (s.user.name_and_username if s.user else "open seat") for s in seats}
    mine = next((s.index for s in seats if viewer.is_authenticated and s.user_id == viewer.pk), None)
    view = _game_panel(game) | _seating_panel(game, seats, mine, viewer) | _seats_panel(seats, names)
    if game.status not in (Status.ACTIVE, Status.FINISHED):
        return view
    moves = list(game.moves.order_by("number"))
    state = engine_state(game, moves)
    return (
        view
        | _table_panel(state, moves)
        | {"pending": _vote_panel(state, names, mine)}
        | _rack_panel(state, mine)
        | _history_panel(state, moves, names)
        | _turn_panel(game, state, seats, mine)
    )


def _game_panel(game: Game) -> dict:
    return {
        "id": game.pk,
        "status": game.status,
        "move_count": game.move_count,
        "players": game.players,
        "words": game.get_words_display(),
        "house_vote": game.house_vote,
        "seconds_per_move": game.seconds_per_move,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "end_reason": game.end_reason,
    }


def _seating_panel(game: Game, seats: list[Seat], mine: int | None, viewer) -> dict:
    """The viewer's seat and what they may do while the game waits for its seats."""
    return {
        "seat": mine,
        "can_accept": mine is not None and not next(s.accepted for s in seats if s.index == mine),
        "can_take_seat": game.is_open_seek and mine is None,
        "can_withdraw": viewer.is_authenticated and game.created_by_id == viewer.pk,
    }


def _seats_panel(seats: list[Seat], names: dict[int, str]) -> dict:
    return {
        "seats": [
            {
                "index": s.index,
                "name": names[s.index],
                "score": s.score,
                "accepted": s.accepted,
                "left": s.left,
                "place": s.place,
                "is_bot": bool(s.user and s.user.is_bot),
            }
            for s in seats
        ]
    }


def _table_panel(state: engine.Game, moves: list[Move]) -> dict:
    """The tiles on the table, the cells of the last accepted play, and ruler names
    around the table as far as a player can pan while placing."""
    last = next((m for m in reversed(moves) if m.kind == MoveKind.PLACE and m.accepted), None)
    bounds = state.table.bounds() or (0, 0, 0, 0)
    return {
        "row_names": {r: engine.row_name(r) for r in range(bounds[0] - RULER, bounds[2] + RULER + 1)},
        "col_names": {c: engine.column_name(c) for c in range(bounds[1] - RULER, bounds[3] + RULER + 1)},
        "tiles": _tiles(state),
        "last_cells": [[r, c] for r, c, *_ in last.placement] if last else [],
    }


def _vote_panel(state: engine.Game, names: dict[int, str], mine: int | None) -> dict | None:
    """The play waiting for the house vote, its votes so far and whether the viewer may vote."""
    pending = state.pending
    if pending is None:
        return None
    my_vote = pending.vote_of(mine) if mine is not None else None
    return {
        "seat": pending.move.seat,
        "who": names[pending.move.seat],
        "play": pending.play.to_dict(),
        "placement": [list(t) for t in pending.play.placement],
        "votes": [{"seat": s, "who": names[s], "accept": a} for s, a in pending.votes],
        "voters": list(state.voters),
        "my_vote": my_vote,
        "can_vote": mine in state.voters and pending.vote_of(mine) is None,
    }


def _rack_panel(state: engine.Game, mine: int | None) -> dict:
    """The viewer's rack and its tiles' values; every rack's count and the bag's."""
    rack = state.racks[mine] if mine is not None else ""
    return {
        "values": {t: engine.tile_value(t) for t in rack},
        "bag": len(state.bag),
        "rack": rack,
        "rack_counts": [len(r) for r in state.racks],
    }


def _history_panel(state: engine.Game, moves: list[Move], names: dict[int, str]) -> dict:
    """The move list, and the draws for the first turn, round by round."""
    return {
        "history": [describe(m, names) for m in moves],
        "draws": [[{"seat": seat, "who": names[seat], "tile": tile} for seat, tile in rnd] for rnd in state.draws],
    }


def _turn_panel(game: Game, state: engine.Game, seats: list[Seat], mine: int | None) -> dict:
    return {
        "to_move": state.to_move if not state.is_over else None,
        "my_turn": (
            mine is not None
            and not state.is_over
            and state.to_move == mine
            and state.pending is None
            and state.in_play[mine]
        ),
        "result": result_text(game, state, {s.index: s for s in seats}) if state.is_over else "",
    }


# -- previews and replays ---------------------------------------------------------------------


def find_path(state: engine.Game, placement, word: str):
    """The single path that spells ``word`` legally with ``placement``.

    Returns ``(path, play)``; raises IllegalPlay saying why when no path or several
    paths of different score fit (the player must then trace the word).
    """
    found = engine.paths(state.table, placement, word)
    legal, reasons = [], []
    for path in found:
        try:
            legal.append((path, state.evaluate(placement, path)))
        except engine.IllegalPlay as refused:
            reasons.append(refused.reason)
    if not legal:
        if reasons:
            raise engine.IllegalPlay(reasons[0])
        raise engine.IllegalPlay(
            f"no path through your new tiles spells {word.upper()}" if word else "type the word or trace its path"
        )
    if len(legal) > 1 and len({play.score for _, play in legal}) > 1:
        raise engine.IllegalPlay(f"{word.upper()} can be read along {len(legal)} paths: trace it over the table")
    return legal[0]


def preview(*, game: Game, player, placement, path=None, word: str = "") -> dict:
    """Score a placement for the Submit button: the itemised play, or why not.

    The engine's ``check`` says whether the player may play now (the turn, a pending
    vote, the rack); ``evaluate`` what the play scores."""
    seat = seat_of(game, player)
    if seat is None or game.status != Status.ACTIVE:
        return {"legal": False, "reason": "You are not playing in this game."}
    state = engine_state(game)
    try:
        try:
            move = engine.Move.place(seat, placement, path or ())
        except (TypeError, ValueError):
            move = engine.Move(engine.PLACE, seat)  # unreadable: evaluate says why below
        state.check(move)
        if path:
            play = state.evaluate(placement, path)
        else:
            path, play = find_path(state, placement, word)
    except engine.IllegalPlay as refused:
        return {"legal": False, "reason": seating.sentence(refused.reason)}
    return {"legal": True, "play": play.to_dict(), "path": [list(c) for c in path]}


def replay_frames(*, game: Game) -> list[dict]:
    """The table after each accepted play, for stepping through a game."""
    frames = []
    moves = list(game.moves.order_by("number"))
    state = engine.new_game(game.players, game.seed, lexicon(game), game.game_number, house_vote=game.house_vote)
    for move in moves:
        state = state.apply(engine_move(move))
        frames.append({"number": move.number + 1, "tiles": _tiles(state), "scores": list(state.scores)})
    return frames
