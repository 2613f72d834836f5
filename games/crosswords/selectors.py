"""Reads of crossword games: the engine state, a player's view, lists, previews, replays.

A player's view never holds the bag's order or another player's rack: only counts and
the unseen tiles (bag and opponents' racks together, sorted) from their point of view.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property, lru_cache

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import F
from django.utils import timezone

from games import seating
from games.engine import bot_ratings, crossword, gcg
from games.engine import crossword_game as engine
from games.engine.crossword import IllegalPlay
from games.states import StateCache
from lexicon.loading import get_lexicon

from .analysis_shown import for_viewer
from .models import Analysis, Game, Move, MoveKind, Seat, Status, pool_of

PREMIUM_LABELS = {"3W": "TW", "2W": "DW", "3L": "TL", "2L": "DL"}
END_REASONS = {
    engine.WENT_OUT: "a player went out",
    engine.STREAK: "too many scoreless turns",
    engine.LAST_SEAT: "only one player was left",
}


def engine_move(move: Move) -> engine.Move:
    if move.kind == MoveKind.PLACE:
        return engine.Move.place(move.seat, move.placement)
    if move.kind == MoveKind.SWAP:
        return engine.Move.swap(move.seat, move.tiles)
    return engine.Move(move.kind, move.seat)


def engine_state(game: Game, moves=None, *, rows_from=None) -> engine.Game:
    """The engine's game after the stored moves (all by default), from the seed.

    Each process keeps a game's latest state (``games.states``): a request reads and
    applies only the moves stored since, so it costs the same at move 60 as at move 2.
    ``replay_state`` rebuilds from the seed alone (the audit). ``rows_from`` reads the
    stored moves from a number on (``_moves_from``).
    """
    key = _state_key(game)
    variant = crossword.variant_named(game.variant)

    def new():
        return engine.new_game(variant, game.players, game.seed, lexicon(game), game.game_number)

    def step(state, move):
        return state.apply(engine_move(move))

    if moves is None:
        state = STATES.latest(key, rows_from or _moves_from(game), new=new, step=step, count=game.move_count)
    else:
        state = STATES.state(key, moves, new=new, step=step)
    # A clocked game's overtime penalties count in its final scores and places.
    return seating.penalised(game, state)


def _moves_from(game: Game, read: list | None = None, start: int = 0):
    """``rows_from`` for ``StateCache.latest``: the stored moves numbered ``number`` on.

    ``read`` holds the moves numbered ``start`` on, already read, so that the engine
    state and the history, kept apart, share one query; earlier moves are read again.
    """

    def rows_from(number: int):
        if read is not None and number >= start:
            return [m for m in read if m.number >= number]
        return list(game.moves.filter(number__gte=number).order_by("number"))

    return rows_from


def _state_key(game: Game) -> tuple:
    return (
        "crossword",
        game.pk,
        game.seed,
        game.variant,
        game.players,
        game.game_number,
        game.lexicon_code,
        game.lexicon_version,
    )


def remember_state(game: Game, state: engine.Game, last: Move) -> None:
    """Keep ``state``, the game right after the stored move ``last``, for later requests,
    and the move list with ``last`` in it (the page drawn next reads no stored move)."""
    key = _state_key(game)
    STATES.remember(key, last.number + 1, last.pk, state)
    HISTORY.advance(key, last, last.number, step=_recorded)


def replay_state(game: Game) -> engine.Game:
    """Replay every stored move from the seed, checking each again (no kept state)."""
    return engine.replay(
        crossword.variant_named(game.variant),
        game.players,
        game.seed,
        [engine_move(m) for m in game.moves.order_by("number")],
        lexicon(game),
        game.game_number,
    )


def game_record(game: Game) -> gcg.Record | None:
    """A finished game as a GCG record (racks are private while it is played): None
    before it is over."""
    if game.status != Status.FINISHED:
        return None
    seats = sorted(game.seats.select_related("user"), key=lambda seat: seat.index)
    return gcg.record_of(
        crossword.variant_named(game.variant),
        game.seed,
        [engine_move(m) for m in game.moves.order_by("number")],
        lexicon(game),
        players=[(seat.user.username, seat.user.shown_name) for seat in seats],
        game_number=game.game_number,
        lexicon_name=game.lexicon_code,
        title=str(game),
        game_id=f"wordfall {game.pk}",
        time_penalties=game.clock.penalties(game.clock_left) if game.clock and game.clock_left else (),
    )


def game_gcg(game_id: int) -> tuple[str, str] | None:
    """The finished game ``game_id`` as GCG text and a file name for it; None if there is
    no such finished game."""
    game = Game.objects.filter(pk=game_id).first()
    record = game and game_record(game)
    if record is None:
        return None
    return gcg.write(record), f"{game.variant}-{game.pk}.gcg"


STATES = StateCache()
#: Per game, kept as the states are: a ``History`` of the moves so far.
HISTORY = StateCache()


@dataclass(frozen=True)
class MoveRecord:
    """What the move list shows of one stored move, without the player's name."""

    number: int  # from 1
    seat: int
    kind: str
    text: str
    score: int
    words: tuple
    all_tiles: bool


@dataclass(frozen=True)
class History:
    """The move list after some moves, the board they built (its blanks show in lower
    case) and the squares of the latest play (marked on the board)."""

    board: crossword.Board
    records: tuple[MoveRecord, ...] = ()
    last_play: frozenset = frozenset()
    rack_size: int = 0


def _recorded(history: History, move: Move) -> History:
    board, last = history.board, history.last_play
    if move.kind == MoveKind.PLACE:
        board = board.with_tiles(move.placement)
        last = frozenset((r, c) for r, c, _, _ in move.placement)
    kind, text = describe_move(move, board)
    record = MoveRecord(
        move.number + 1,
        move.seat,
        kind,
        text,
        move.score,
        tuple(tuple(w) for w in move.words),
        move.kind == MoveKind.PLACE and len(move.placement) == history.rack_size,
    )
    return History(board, history.records + (record,), last, history.rack_size)


def _history(game: Game, rows_from) -> History:
    rack_size = crossword.variant_named(game.variant).rack_size
    return HISTORY.latest(
        _state_key(game),
        rows_from,
        new=lambda: History(crossword.Board.empty(), rack_size=rack_size),
        step=_recorded,
        count=game.move_count,
    )


def lexicon(game: Game):
    """The lexicon version the game started with."""
    return get_lexicon(game.lexicon_code, game.lexicon_version)


def letter_value(game: Game, tile: str) -> int:
    return crossword.variant_named(game.variant).letter_values[tile]


def result_text(game: Game, state: engine.Game, seats: dict[int, Seat]) -> str:
    """ "ann wins (312–280)" or "a draw between …", with why the game ended."""
    return seating.result_text(state, seats, END_REASONS)


# -- lists ------------------------------------------------------------------------


def _awaiting(user):
    return Game.objects.filter(status=Status.ACTIVE, seats__user=user, seats__index=F("to_move"))


def games_awaiting_move_count(*, user) -> int:
    """Games in progress where it is ``user``'s turn (the header badge)."""
    return _awaiting(user).count()


@dataclass
class GameRow:
    game: Game
    seats: list[Seat]
    my_seat: Seat | None
    time_left: float | None = None

    @property
    def opponents(self) -> str:
        names = [s.user.name_and_username if s.user else "open seat" for s in self.seats if s is not self.my_seat]
        return ", ".join(names)


def _row(game: Game, seats: list[Seat], user, now: datetime) -> GameRow:
    mine = next((s for s in seats if s.user_id == user.pk), None)
    left = (game.deadline - now).total_seconds() if game.deadline else None
    return GameRow(game, seats, mine, left)


def _rows(games, user) -> list[GameRow]:
    now = timezone.now()
    return [_row(game, list(game.seats.all()), user, now) for game in games]


def my_games(*, user) -> dict[str, list[GameRow]]:
    """My turn first (least time left first), then waiting, invitations, finished."""
    mine = Game.objects.filter(seats__user=user).prefetch_related("seats__user").distinct()
    awaiting_ids = set(_awaiting(user).values_list("pk", flat=True))
    active = list(mine.filter(status=Status.ACTIVE).order_by("deadline"))
    waiting_start = list(mine.filter(status=Status.WAITING).order_by("-created_at"))
    finished = list(mine.filter(status=Status.FINISHED).order_by("-finished_at")[:30])
    invitations = [g for g in waiting_start if any(s.user_id == user.pk and not s.accepted for s in g.seats.all())]
    return {
        "my_turn": _rows([g for g in active if g.pk in awaiting_ids], user),
        "their_turn": _rows([g for g in active if g.pk not in awaiting_ids], user),
        "invitations": _rows(invitations, user),
        "starting": _rows([g for g in waiting_start if g not in invitations], user),
        "finished": _rows(finished, user),
    }


def open_seeks(*, user) -> list[GameRow]:
    """Open seeks with a free seat that ``user`` could take."""
    games = (
        Game.objects.filter(status=Status.WAITING, is_open_seek=True, seats__user__isnull=True)
        .exclude(seats__user=user)
        .distinct()
        .prefetch_related("seats__user")
        .order_by("-created_at")[:50]
    )
    return _rows(games, user)


def finished_seats(*, user, limit: int = 10) -> list[tuple[Game, list[Seat]]]:
    """``user``'s latest finished games, each with its seats but not their players: what a
    profile keeps until the next game of theirs finishes (``seated_rows`` reads the names)."""
    games = list(Game.objects.filter(status=Status.FINISHED, seats__user=user).order_by("-finished_at")[:limit])
    seats: dict[int, list[Seat]] = {game.pk: [] for game in games}
    for seat in Seat.objects.filter(game__in=games).order_by("game_id", "index"):
        seats[seat.game_id].append(seat)
    return [(game, seats[game.pk]) for game in games]


def seated_rows(games: list[tuple[Game, list[Seat]]], *, user) -> list[GameRow]:
    """Rows of ``games`` (each with its seats, as ``finished_seats`` gives them) for ``user``,
    each seat's player read now (one query): a new display name shows, and so does a
    deleted account's."""
    users = get_user_model()
    players = users.objects.only(*users.NAME_FIELDS).in_bulk(
        {seat.user_id for _, seats in games for seat in seats if seat.user_id}
    )
    now = timezone.now()
    for _, seats in games:
        for seat in seats:
            if seat.user_id in players:
                seat.user = players[seat.user_id]
    return [_row(game, seats, user, now) for game, seats in games]


# -- one game ---------------------------------------------------------------------


@dataclass
class SeatView:
    index: int
    user: object
    name: str
    score: int
    accepted: bool
    left: str
    place: int | None
    to_move: bool
    is_me: bool
    tiles_on_rack: int = 0
    adjustment: int | None = None
    tiles_left: str = ""  # the rack at the end of a finished game (public by then)
    clock: seating.ClockFace | None = None  # in a clocked game
    bot_rating: int | None = None  # a bot's rating in the game's pool (``bot_ratings``)


@dataclass
class Square:
    row: int
    col: int
    name: str
    premium: str | None
    letter: str = ""
    blank: bool = False
    value: int = 0
    last: bool = False

    @property
    def label(self) -> str:
        """What an empty square shows: the star, its premium (TW DW TL DL) or nothing."""
        if (self.row, self.col) == crossword.CENTRE:
            return "★"
        return PREMIUM_LABELS.get(self.premium, "")


@dataclass
class HistoryLine:
    number: int
    name: str
    kind: str
    text: str
    score: int
    words: list = field(default_factory=list)
    all_tiles: bool = False  # a whole rack placed in one play (the bonus of the variant)


@dataclass
class GameView:
    game: Game
    seats: list[SeatView]
    me: SeatView | None
    started: bool
    board: crossword.Board = field(default_factory=crossword.Board.empty)
    last_play: frozenset = frozenset()  # the squares of the latest play
    rack: list[tuple[str, int]] = field(default_factory=list)
    offered: tuple[str, ...] = ()
    bag_count: int = 0
    unseen: list[tuple[str, int]] = field(default_factory=list)
    unseen_total: int = 0
    history: list[HistoryLine] = field(default_factory=list)
    my_turn: bool = False
    pass_ends_game: bool = False  # a pass now would be the last scoreless turn allowed
    swap_limit: int = 0
    swap_reason: str = ""
    deadline: datetime | None = None
    seconds_left: int | None = None
    clocks: list[seating.ClockFace] = field(default_factory=list)  # a clocked game's, by seat
    result: str = ""
    winners: list[str] = field(default_factory=list)
    rematch: Game | None = None
    invited: bool = False
    can_join: bool = False

    @property
    def is_player(self) -> bool:
        return self.me is not None and self.started and not self.me.left

    @cached_property
    def rows(self) -> list[list[Square]]:
        """The board's squares, row by row (the page draws them from a cache of its own)."""
        return board_squares(self.game.variant, self.board, self.last_play)

    @property
    def finished(self) -> bool:
        return self.game.status == Status.FINISHED

    @property
    def has_adjustments(self) -> bool:
        return any(s.adjustment for s in self.seats)


def move_news(move: Move, name: str, board: crossword.Board | None = None) -> str:
    """One line on what ``name`` just did, for the next player's notification."""
    _, text = describe_move(move, board)
    if move.kind == MoveKind.PLACE:
        return f"{name} played {text} for {move.score}"
    return f"{name} {text}"


def shown_words(placement, words, board: crossword.Board | None) -> list[tuple[str, int]]:
    """A play's words in capitals with its blanks in lower case ("QUiZ"), as players write them.

    ``board`` is the board with the play on it; without it the words are all capitals.
    """
    shown = {}
    if board is not None:
        for row, col, _, _ in placement:
            for across in (True, False):
                cells = crossword.word_through(board, row, col, across=across)
                if len(cells) >= 2:
                    word = "".join(letter for _, _, letter, _ in cells)
                    shown.setdefault(
                        word, "".join(letter if blank else letter.upper() for _, _, letter, blank in cells)
                    )
    return [(shown.get(word, word.upper()), points) for word, points in words]


def describe_move(move: Move, board: crossword.Board | None = None) -> tuple[str, str]:
    """(kind, text) of a move for the history: a play's words and points, or what happened.

    ``board``, the board right after a play, lets blanks show in lower case.
    """
    if move.kind == MoveKind.PLACE:
        words = shown_words(move.placement, move.words, board)
        # One word says it all; with cross words each word's points show how they add up.
        if len(words) == 1:
            text = words[0][0]
        else:
            text = ", ".join(f"{w} {p}" for w, p in words)
        return "Play", text
    if move.kind == MoveKind.SWAP:
        return "Swap", f"swapped {len(move.tiles)} tile{'s' if len(move.tiles) != 1 else ''}"
    if move.kind == MoveKind.PASS:
        return "Pass", "passed" + ("; both racks were dealt again" if move.redeal else "")
    if move.kind == MoveKind.RESIGN:
        return "Resign", "resigned"
    return "Forfeit", f"forfeited ({move.reason})" if move.reason else "forfeited"


def game_view(*, game: Game, viewer) -> GameView:
    """Everything the game page shows to ``viewer`` (a player of the game or a watcher),
    built panel by panel: the seats, the invitation, then once the game has started the
    board, the rack and unseen tiles, the move list, and the turn's controls or the result."""
    seats = seating.seats_with_players(game, "user__crossword_bot")
    started = game.status in (Status.ACTIVE, Status.FINISHED)
    state, history = _state_and_history(game) if started else (None, None)
    viewer_id = getattr(viewer, "pk", None)
    views = [_seat_view(game, seat, state, viewer_id) for seat in seats]
    me = next((v for v in views if v.is_me), None)
    panels = _invitation_panel(game, seats, me, viewer_id)
    if state is not None:
        names = {s.index: v.name for s, v in zip(seats, views)}
        rack = _rack_panel(game, state, me)
        panels |= _board_panel(state, history) | rack | _history_panel(history, names) | _clock_panel(game, views)
        if game.status == Status.ACTIVE:
            panels |= _controls_panel(game, state, me, rack["rack"])
        else:
            panels |= _result_panel(game, state, seats, names)
    return GameView(game=game, seats=views, me=me, started=started, **panels)


def _state_and_history(game: Game) -> tuple[engine.Game, History]:
    """The engine state and the move list of a started game, from one query for the moves
    since the kept state and history (usually the last one or two; none when both have
    seen every move), so the page costs the same at move 60 as at move 2."""
    key = _state_key(game)
    kept = min(STATES.kept_count(key), HISTORY.kept_count(key))
    start = max(0, kept - 1)
    # None: read when asked, and never once both kept states have seen every stored move.
    read = list(game.moves.filter(number__gte=start).order_by("number")) if kept != game.move_count else None
    rows_from = _moves_from(game, read, start)
    return engine_state(game, rows_from=rows_from), _history(game, rows_from)


def _seat_view(game: Game, seat: Seat, state: engine.Game | None, viewer_id) -> SeatView:
    """One seat on the scoreboard; a finished game's racks and end adjustments are public."""
    over = state is not None and state.is_over
    return SeatView(
        index=seat.index,
        user=seat.user,
        name=seat.user.name_and_username if seat.user else "Open seat",
        score=seat.score,
        accepted=seat.accepted,
        left=seat.left,
        place=seat.place,
        to_move=game.status == Status.ACTIVE and game.to_move == seat.index,
        is_me=seat.user_id is not None and seat.user_id == viewer_id,
        tiles_on_rack=len(state.racks[seat.index]) if state else 0,
        adjustment=state.adjustments[seat.index] if over and state.adjustments else None,
        tiles_left=state.racks[seat.index] if over else "",
        bot_rating=_bot_rating(seat.user),
    )


def _bot_rating(user) -> int | None:
    """The rating of a bot account in the pool of the variant it plays; None for a person."""
    if user is None or not user.is_bot:
        return None
    bot = getattr(user, "crossword_bot", None)
    return None if bot is None else bot_ratings.rating(pool_of(bot.variant), bot.strength)


def _invitation_panel(game: Game, seats: list[Seat], me: SeatView | None, viewer_id) -> dict:
    """While the game waits for its seats: whether the viewer is invited or may join."""
    waiting = game.status == Status.WAITING
    return {
        "invited": waiting and me is not None and not me.accepted,
        "can_join": (
            waiting
            and me is None
            and game.is_open_seek
            and viewer_id is not None
            and any(s.user_id is None for s in seats)
        ),
    }


def _board_panel(state: engine.Game, history: History) -> dict:
    return {"board": state.board, "last_play": history.last_play}


def _rack_panel(game: Game, state: engine.Game, me: SeatView | None) -> dict:
    """The viewer's rack (a player still in the game), the bag's count and the unseen
    tiles: from a player's seat the bag and the opponents' racks, for a watcher every
    tile not on the board."""
    rack = []
    if me is not None and state.in_play[me.index]:
        rack = [(t, letter_value(game, t)) for t in state.racks[me.index]]
        unseen = state.unseen(me.index)
    else:
        unseen = "".join(sorted(state.bag + tuple("".join(state.racks))))
    counts = Counter(unseen)
    return {
        "rack": rack,
        "bag_count": len(state.bag),
        "unseen": sorted(counts.items(), key=lambda kv: (kv[0] == "?", kv[0])),
        "unseen_total": len(unseen),
    }


def _history_panel(history: History, names: dict[int, str]) -> dict:
    lines = [
        HistoryLine(r.number, names[r.seat], r.kind, r.text, r.score, [list(w) for w in r.words], r.all_tiles)
        for r in history.records
    ]
    return {"history": lines}


def _controls_panel(game: Game, state: engine.Game, me: SeatView | None, rack: list) -> dict:
    """A game in play: whose turn, the clock, the squares offered for a first tile, and
    what a pass or a swap would do now."""
    my_turn = me is not None and game.to_move == me.index
    swap_reason = ""
    if not state.bag:
        swap_reason = "The bag is empty: no swaps."
    elif not my_turn:
        swap_reason = "Not your turn."
    return {
        "my_turn": my_turn,
        "pass_ends_game": my_turn and state.to_move == me.index and state.apply(engine.Move.pass_(me.index)).is_over,
        "deadline": game.deadline,
        "seconds_left": max(0, int((game.deadline - timezone.now()).total_seconds())),
        "offered": _offered(state.board),
        "swap_limit": min(len(state.bag), len(rack)),
        "swap_reason": swap_reason,
    }


def _result_panel(game: Game, state: engine.Game, seats: list[Seat], names: dict[int, str]) -> dict:
    return {
        "result": result_text(game, state, {s.index: s for s in seats}),
        "winners": [names[s] for s in state.winners()],
        "rematch": Game.objects.filter(rematch_of=game).first(),
    }


def _clock_panel(game: Game, views: list[SeatView]) -> dict:
    """A clocked game's clocks as of now, by seat; each seat's view holds its own."""
    faces = seating.clock_faces(game, timezone.now())
    for view, face in zip(views, faces):
        view.clock = face
    return {"clocks": faces}


@lru_cache(maxsize=256)
def _offered(board: crossword.Board) -> tuple[str, ...]:
    """The squares offered for a turn's first tile, as "row,col" (kept per board: every
    viewer of a position asks, and the search grows with the tiles on the board)."""
    return tuple(f"{r},{c}" for r, c in sorted(crossword.offered_squares(board, ())))


def board_squares(variant: str, board: crossword.Board, last: frozenset = frozenset()) -> list[list[Square]]:
    """The squares of ``board`` row by row, the squares in ``last`` marked as the latest play."""
    rules = crossword.variant_named(variant)
    rows = []
    for row in range(crossword.SIZE):
        line = []
        for col in range(crossword.SIZE):
            square = Square(row, col, crossword.square_name(row, col), rules.premiums.get((row, col)))
            letter = board.letter(row, col)
            if letter:
                square.letter = letter
                square.blank = board.is_blank(row, col)
                square.value = 0 if square.blank else rules.letter_values[letter]
                square.last = (row, col) in last
            line.append(square)
        rows.append(line)
    return rows


def game_seen_by(game_id: int, player) -> Game | None:
    """The game ``game_id`` with ``player``'s seat index as ``player_seat`` (None when not
    seated), read in one query (a preview is sent on every tile placed); None if no such game.

    The statement is written out: the ORM took about 2.5 ms of CPU to compile the game's
    thirty columns and the seat's subquery, against 0.7 ms for the same row read raw, and
    this is most of a preview's time. ``raw`` still makes the ``Game`` as the ORM does.
    """
    quote = connection.ops.quote_name
    sql = (
        f"SELECT g.*, (SELECT s.{quote('index')} FROM {quote(Seat._meta.db_table)} s "
        f"WHERE s.game_id = g.id AND s.user_id = %s LIMIT 1) AS player_seat "
        f"FROM {quote(Game._meta.db_table)} g WHERE g.id = %s"
    )
    return next(iter(Game.objects.raw(sql, [getattr(player, "pk", None), game_id])), None)


def preview(*, game: Game, placement, move_count: int | None = None) -> dict:
    """What Submit would do with ``placement``: the score and words, or why not.

    Also returns the squares offered for the next tile (RULES §3). Read-only. ``game``
    comes from ``game_seen_by``, which brings the player's seat with it in the same query.
    """
    if game.status != Status.ACTIVE:
        return {"legal": False, "reason": "This game is not in progress.", "offered": []}
    seat = game.player_seat
    if seat is None:
        return {"legal": False, "reason": "You are not playing in this game.", "offered": []}
    if move_count is not None and move_count != game.move_count:
        return {"legal": False, "stale": True, "offered": [], "reason": "The game has moved on; reloading the board."}
    state = engine_state(game)
    offered = [[r, c] for r, c in sorted(crossword.offered_squares(state.board, placement))]
    result = {"legal": False, "offered": offered, "score": None, "words": []}
    if not placement:
        result["reason"] = "Place tiles on the board."
    else:
        try:
            state.check(engine.Move.place(seat, placement))
            play = crossword.evaluate(state.board, placement, state.variant, state.lexicon)
        except IllegalPlay as refused:
            result["reason"] = refused.reason[:1].upper() + refused.reason[1:] + "."
        else:
            words = shown_words(placement, play.words, state.board.with_tiles(placement))
            result.update(
                legal=True,
                score=play.score,
                reason="",
                words=[[w, p] for w, p in words],
                bonus=crossword.all_tiles_points(state.variant, len(placement)),
            )
    return result


def replay_frames(*, game: Game, viewer=None) -> list[dict]:
    """The board after each move, for stepping through a game (public information only);
    a finished game's frames carry the analysis as ``viewer`` may see it."""
    moves = list(game.moves.order_by("number"))
    seats = {s.index: s for s in game.seats.select_related("user")}
    board = crossword.Board.empty()
    scores = [0] * game.players
    frames = [{"tiles": [], "last": [], "scores": list(scores), "text": "Start of the game"}]
    for move in moves:
        if move.kind == MoveKind.PLACE:
            board = board.with_tiles(move.placement)
        scores[move.seat] += move.score
        name = seats[move.seat].user.name_and_username if seats[move.seat].user else "?"
        _, text = describe_move(move, board)
        frames.append(
            {
                "tiles": [[r, c, ch, b, 0 if b else letter_value(game, ch)] for r, c, ch, b in board.tiles()],
                "last": [[r, c] for r, c, _, _ in move.placement] if move.kind == MoveKind.PLACE else [],
                "scores": list(scores),
                "text": f"{move.number + 1}. {name}: {text}" + (f" (+{move.score})" if move.score else ""),
            }
        )
    if game.status == Status.FINISHED and frames:
        frames[-1]["scores"] = [seats[i].score for i in range(game.players)]
        frames[-1]["text"] += " — final scores after end adjustments"
        analysis = Analysis.objects.filter(game=game).first()
        if analysis is not None:
            for row in for_viewer(analysis.moves, analysis.summary, viewer)[0]:
                # Each alternative's tiles with their values, to be drawn on the board.
                best = [
                    {
                        **alt,
                        "placement": [
                            [r, c, ch, b, 0 if b else letter_value(game, ch)] for r, c, ch, b in alt["placement"]
                        ],
                    }
                    for alt in row["best"]
                ]
                frames[row["number"] + 1]["analysis"] = {**row, "best": best}
    return frames


@dataclass
class AnalysisSummary:
    name: str
    moves: int
    average_equity_loss: float
    best_missed: dict | None


def analysis_summary(*, game: Game, viewer=None) -> list[AnalysisSummary] | None:
    """Per player: moves analysed, average equity loss, best move missed (as ``viewer``
    may see it); None until the analysis of a finished game is written."""
    analysis = Analysis.objects.filter(game=game).first()
    if analysis is None:
        return None
    seats = {s.index: s for s in game.seats.select_related("user")}
    return [
        AnalysisSummary(
            name=seats[row["seat"]].user.name_and_username if seats[row["seat"]].user else "?",
            moves=row["moves"],
            average_equity_loss=row["average_equity_loss"],
            best_missed=row["best_missed"],
        )
        for row in for_viewer(analysis.moves, analysis.summary, viewer)[1]
    ]
