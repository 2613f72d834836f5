"""Reads of crossword games: the engine state, a player's view, lists, previews, replays.

A player's view never holds the bag's order or another player's rack: only counts and
the unseen tiles (bag and opponents' racks together, sorted) from their point of view.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property, lru_cache

from django.db.models import F
from django.utils import timezone

from games.engine import crossword
from games.engine import crossword_game as engine
from games.engine.crossword import IllegalPlay
from games.states import StateCache
from lexicon.services import get_lexicon

from .models import Analysis, Game, Move, MoveKind, Seat, Status

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
        return STATES.latest(key, rows_from or _moves_from(game), new=new, step=step)
    return STATES.state(key, moves, new=new, step=step)


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
    """Keep ``state``, the game right after the stored move ``last``, for later requests."""
    STATES.remember(_state_key(game), last.number + 1, last.pk, state)


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
        _state_key(game), rows_from, new=lambda: History(crossword.Board.empty(), rack_size=rack_size), step=_recorded
    )


def lexicon(game: Game):
    """The lexicon version the game started with."""
    return get_lexicon(game.lexicon_code, game.lexicon_version)


def letter_value(game: Game, tile: str) -> int:
    return crossword.variant_named(game.variant).letter_values[tile]


def result_text(game: Game, state: engine.Game, seats: dict[int, Seat]) -> str:
    """ "ann wins (312–280)" or "a draw between …", with why the game ended.

    Scores are listed in the order of the places, so a winner who is behind on points
    because the others left is not shown with the leader's score.
    """
    winners = state.winners()
    names = [seats[s].user.shown_name for s in winners]
    line = "–".join(str(score) for _, score, _ in state.standings())
    why = END_REASONS.get(state.end_reason, state.end_reason or "")
    gone = [f"{seats[s].user.shown_name} {seats[s].left}" for s in state.left_order if seats[s].user and seats[s].left]
    if state.end_reason == engine.LAST_SEAT and gone:
        why = " and ".join(gone)
    if len(winners) > 1:
        text = f"a draw between {' and '.join(names)} ({line})"
    else:
        text = f"{names[0]} wins ({line})"
    return f"{text}; the game ended because {why}." if why else text + "."


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
        names = [s.user.shown_name if s.user else "open seat" for s in self.seats if s is not self.my_seat]
        return ", ".join(names)


def _rows(games, user) -> list[GameRow]:
    now = timezone.now()
    rows = []
    for game in games:
        seats = list(game.seats.all())
        mine = next((s for s in seats if s.user_id == user.pk), None)
        left = (game.deadline - now).total_seconds() if game.deadline else None
        rows.append(GameRow(game, seats, mine, left))
    return rows


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


def finished_games(*, user, limit: int = 10) -> list[GameRow]:
    """``user``'s latest finished games (their profile)."""
    games = (
        Game.objects.filter(status=Status.FINISHED, seats__user=user)
        .prefetch_related("seats__user")
        .order_by("-finished_at")[:limit]
    )
    return _rows(games, user)


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
    """Everything the game page shows to ``viewer`` (a player of the game or a watcher)."""
    seats = list(game.seats.select_related("user").order_by("index"))
    started = game.status in (Status.ACTIVE, Status.FINISHED)
    state = history = None
    if started:
        # One query for the moves since the kept state and history (usually the last one
        # or two), so the page costs the same at move 60 as at move 2.
        key = _state_key(game)
        start = max(0, min(STATES.kept_count(key), HISTORY.kept_count(key)) - 1)
        read = list(game.moves.filter(number__gte=start).order_by("number"))
        rows_from = _moves_from(game, read, start)
        state = engine_state(game, rows_from=rows_from)
        history = _history(game, rows_from)
    viewer_id = getattr(viewer, "pk", None)
    views = []
    for seat in seats:
        views.append(
            SeatView(
                index=seat.index,
                user=seat.user,
                name=seat.user.shown_name if seat.user else "Open seat",
                score=seat.score,
                accepted=seat.accepted,
                left=seat.left,
                place=seat.place,
                to_move=game.status == Status.ACTIVE and game.to_move == seat.index,
                is_me=seat.user_id is not None and seat.user_id == viewer_id,
                tiles_on_rack=len(state.racks[seat.index]) if state else 0,
                adjustment=(state.adjustments[seat.index] if state and state.is_over and state.adjustments else None),
                tiles_left=(state.racks[seat.index] if state and state.is_over else ""),
            )
        )
    me = next((v for v in views if v.is_me), None)
    view = GameView(game=game, seats=views, me=me, started=started)
    view.invited = game.status == Status.WAITING and me is not None and not me.accepted
    view.can_join = (
        game.status == Status.WAITING
        and me is None
        and game.is_open_seek
        and viewer_id is not None
        and any(s.user_id is None for s in seats)
    )
    if state is None:
        return view
    view.board, view.last_play = state.board, history.last_play
    view.bag_count = len(state.bag)
    if me is not None and state.in_play[me.index]:
        view.rack = [(t, letter_value(game, t)) for t in state.racks[me.index]]
        unseen = state.unseen(me.index)
    else:
        unseen = "".join(sorted(state.bag + tuple("".join(state.racks))))
    counts = Counter(unseen)
    view.unseen = sorted(counts.items(), key=lambda kv: (kv[0] == "?", kv[0]))
    view.unseen_total = len(unseen)
    names = {s.index: v.name for s, v in zip(seats, views)}
    view.history = [
        HistoryLine(r.number, names[r.seat], r.kind, r.text, r.score, [list(w) for w in r.words], r.all_tiles)
        for r in history.records
    ]
    if game.status == Status.ACTIVE:
        view.my_turn = me is not None and game.to_move == me.index
        if view.my_turn and state.to_move == me.index:
            view.pass_ends_game = state.apply(engine.Move.pass_(me.index)).is_over
        view.deadline = game.deadline
        view.seconds_left = max(0, int((game.deadline - timezone.now()).total_seconds()))
        view.offered = _offered(state.board)
        view.swap_limit = min(len(state.bag), len(view.rack))
        if not state.bag:
            view.swap_reason = "The bag is empty: no swaps."
        elif not view.my_turn:
            view.swap_reason = "Not your turn."
    else:
        view.result = result_text(game, state, {s.index: s for s in seats})
        view.winners = [names[s] for s in state.winners()]
        view.rematch = Game.objects.filter(rematch_of=game).first()
    return view


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


def preview(*, game: Game, player, placement, move_count: int | None = None) -> dict:
    """What Submit would do with ``placement``: the score and words, or why not.

    Also returns the squares offered for the next tile (RULES §3). Read-only.
    """
    if game.status != Status.ACTIVE:
        return {"legal": False, "reason": "This game is not in progress.", "offered": []}
    seat = game.seats.filter(user=player).values_list("index", flat=True).first()
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
        name = seats[move.seat].user.shown_name if seats[move.seat].user else "?"
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
            from .services.analysis import for_viewer

            for row in for_viewer(analysis.moves, analysis.summary, viewer)[0]:
                frames[row["number"] + 1]["analysis"] = row
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
    from .services.analysis import for_viewer

    analysis = Analysis.objects.filter(game=game).first()
    if analysis is None:
        return None
    seats = {s.index: s for s in game.seats.select_related("user")}
    return [
        AnalysisSummary(
            name=seats[row["seat"]].user.shown_name if seats[row["seat"]].user else "?",
            moves=row["moves"],
            average_equity_loss=row["average_equity_loss"],
            best_missed=row["best_missed"],
        )
        for row in for_viewer(analysis.moves, analysis.summary, viewer)[1]
    ]
