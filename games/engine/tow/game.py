"""The game (RULES §5): seats, racks and turns (``games.engine.turns``), plays on the
table, the house vote, and the first player's draw; ``replay`` rebuilds a game from its
moves."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from games.engine.turns import FORFEIT, LEAVING, PASS, PLACE, RESIGN, SWAP, SeatedGame, SeatMoves, deal, shuffled

from .cells import Cell
from .paths import IllegalPlay, normalise_placement
from .play import Play, evaluate
from .table import Table
from .tiles import BAG, CORNER_TILE, PZ_TILE, RACK_SIZE, rack_tile, tile_value

# The moves of turns.py (PLACE, SWAP, PASS, RESIGN, FORFEIT) and the house vote's own.
VOTE, CLOSE_VOTE = "vote", "close_vote"


MOVE_KINDS = (PLACE, SWAP, PASS, RESIGN, FORFEIT, VOTE, CLOSE_VOTE)


# Why a game ended (Game.end_reason), besides turns.WENT_OUT and turns.LAST_SEAT.
PASSES = "everyone passed twice"


MIN_PLAYERS, MAX_PLAYERS = 2, 4


def _coordinate(value: object) -> int:
    """A row or column as given, if it is a whole number (a bool is not one)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalPlay(f"a row or column must be a whole number, not {value!r}")
    return value


@dataclass(frozen=True)
class Move(SeatMoves):
    """One action of one seat. ``accept`` is a vote's answer."""

    kind: str
    seat: int
    placement: tuple[tuple[int, int, str, str], ...] = ()
    path: tuple[Cell, ...] = ()
    tiles: str = ""
    accept: bool | None = None

    @classmethod
    def place(cls, seat: int, placement: Iterable[Sequence], path: Iterable[Sequence]) -> Move:
        """A play of ``placement`` (row, column, letter, kind) naming its main word by ``path``.

        Rows and columns must be whole numbers: ``int()`` would quietly take 7.9 for 7
        or True for 1, placing a tile where the player did not.
        """
        tiles = tuple(
            (_coordinate(r), _coordinate(c), str(letter).lower(), str(kind)) for r, c, letter, kind in placement
        )
        return cls(PLACE, seat, tiles, tuple((_coordinate(r), _coordinate(c)) for r, c in path))

    @classmethod
    def vote(cls, seat: int, accept: bool) -> Move:
        return cls(VOTE, seat, accept=bool(accept))

    @classmethod
    def close_vote(cls, seat: int) -> Move:
        """The vote's time is up: it is decided on the votes cast (``seat``: the player)."""
        return cls(CLOSE_VOTE, seat)

    def to_dict(self) -> dict:
        data = {"kind": self.kind, "seat": self.seat}
        if self.kind == PLACE:
            data["placement"] = [list(t) for t in self.placement]
            data["path"] = [list(c) for c in self.path]
        if self.kind == SWAP:
            data["tiles"] = self.tiles
        if self.kind == VOTE:
            data["accept"] = self.accept
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Move:
        kind, seat = data["kind"], int(data["seat"])
        if kind == PLACE:
            return cls.place(seat, data["placement"], data["path"])
        if kind == SWAP:
            return cls.swap(seat, data["tiles"])
        if kind == VOTE:
            return cls.vote(seat, data["accept"])
        return cls(kind, seat)


@dataclass(frozen=True)
class TurnRecord:
    """What a turn did. A house-vote play carries its ``votes`` ((seat, accept), ...);
    ``accepted`` is False for a play the vote rejected (taken back: the seat moves again)."""

    move: Move
    score: int
    play: Play | None = None
    drawn: int = 0
    votes: tuple[tuple[int, bool], ...] = ()
    accepted: bool = True


@dataclass(frozen=True)
class PendingVote:
    """A house-vote play waiting for the other players' votes."""

    move: Move
    play: Play
    votes: tuple[tuple[int, bool], ...] = ()

    def vote_of(self, seat: int) -> bool | None:
        return dict(self.votes).get(seat)


def _draw_rank(tile: str) -> int:
    if tile == PZ_TILE:
        return 0
    if tile == CORNER_TILE:
        return 1
    return 2 + ord(tile) - ord("a")


def first_draw(players: int, seed) -> tuple[tuple[tuple[tuple[int, str], ...], ...], int]:
    """RULES §5 first player: every seat draws a tile; a PZ beats all, then a corner
    tile, then the letter closest to A; tied seats draw again. Returns the rounds of
    draws ((seat, tile), ...) and the seat that opens."""
    contenders = list(range(players))
    rounds = []
    while True:
        bag = shuffled(BAG, seed, f"first-draw/{len(rounds)}")
        draws = tuple((seat, bag[i]) for i, seat in enumerate(contenders))
        rounds.append(draws)
        best = min(_draw_rank(tile) for _, tile in draws)
        contenders = [seat for seat, tile in draws if _draw_rank(tile) == best]
        if len(contenders) == 1:
            return tuple(rounds), contenders[0]


@dataclass(frozen=True, kw_only=True)
class Game(SeatedGame):
    """An immutable TOW game; ``apply`` returns the next state or raises IllegalPlay."""

    illegal_play = IllegalPlay
    turn_record = TurnRecord
    streak_end = PASSES

    house_vote: bool
    table: Table
    draws: tuple = ()  # the first-player draw, round by round
    pending: PendingVote | None = None

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move applied, votes included, in order (what ``replay`` needs)."""
        return self._moves

    @property
    def voters(self) -> tuple[int, ...]:
        """Seats that vote on the pending play: everyone in play but its player."""
        if self.pending is None:
            return ()
        return tuple(s for s in range(self.players) if self.in_play[s] and s != self.pending.move.seat)

    @staticmethod
    def tile_value(tile: str) -> int:
        return tile_value(tile)

    # -- moving ----------------------------------------------------------------------

    def check(self, move: Move) -> None:
        """Raise IllegalPlay if ``move`` may not be made now, before the table is looked at.

        The game must go on and the seat be in play. A vote needs a play waiting for the
        seat's vote; while one waits, nobody takes a turn. A turn needs the turn and the
        tiles it places or swaps on the rack. ``apply`` checks these first; whether a
        placement is well formed and makes words is :func:`evaluate`'s to say.
        """
        self._check_seat(move)
        if move.kind in LEAVING:
            return
        if move.kind in (VOTE, CLOSE_VOTE):
            if self.pending is None:
                raise IllegalPlay("no play is waiting for votes")
            if move.kind == CLOSE_VOTE:
                return
            if move.seat == self.pending.move.seat:
                raise IllegalPlay("you cannot vote on your own play")
            if self.pending.vote_of(move.seat) is not None:
                raise IllegalPlay("you have already voted")
            return
        if self.pending is not None:
            raise IllegalPlay("a play is waiting for the house vote")
        if move.seat != self.to_move:
            raise IllegalPlay("it is not your turn")
        if move.kind == PLACE:
            try:
                tiles = normalise_placement(move.placement)
            except IllegalPlay:
                return  # malformed: evaluate refuses it, saying why
            self._check_rack(move.seat, [rack_tile(letter, kind) for _, _, letter, kind in tiles])
        elif move.kind == SWAP:
            self._check_rack(move.seat, move.tiles)

    def apply(self, move: Move) -> Game:
        self.check(move)
        game = self._apply(move)
        return replace(game, _moves=self._moves + (move,))

    def _apply(self, move: Move) -> Game:
        if move.kind in LEAVING:
            return self._leave(move)
        if move.kind == VOTE:
            pending = replace(self.pending, votes=self.pending.votes + ((move.seat, move.accept),))
            return replace(self, pending=pending)._decide()
        if move.kind == CLOSE_VOTE:
            return self._decide(force=True)
        if move.kind == PLACE:
            return self._place(move)
        if move.kind == SWAP:
            return self._swap(move)
        if move.kind == PASS:
            return self._after_turn(move, 0, None, self.racks, self.bag, 0)
        raise IllegalPlay(f"unknown move: {move.kind}")

    def evaluate(self, placement, path) -> Play:
        """Score a play on this game's table with its lexicon and vote setting."""
        return evaluate(self.table, placement, path, self.lexicon, house_vote=self.house_vote)

    def _place(self, move: Move) -> Game:
        # check() made sure the rack holds the tiles of a well-formed placement.
        play = self.evaluate(move.placement, move.path)
        if play.unknown_words:
            return replace(self, pending=PendingVote(move, play))
        return self._lay(move, play)

    def _lay(self, move: Move, play: Play, votes=()) -> Game:
        used = [rack_tile(letter, kind) for _, _, letter, kind in play.placement]
        racks, bag, drawn = self._drawn_after(move.seat, used, RACK_SIZE)
        number = self.table.play_count
        table = self.table.with_tiles((r, c, letter, kind, number) for r, c, letter, kind in play.placement)
        game = replace(self, table=table, pending=None)
        return game._after_turn(move, play.score, play, racks, bag, drawn, votes)

    def _decide(self, force: bool = False) -> Game:
        """Majority of the voters accepts; a tie rejects. ``force``: decide on the votes
        cast so far (the move time ran out)."""
        pending = self.pending
        voters = self.voters
        votes = {seat: accept for seat, accept in pending.votes if seat in voters}
        yes = sum(votes.values())
        no = len(votes) - yes
        if force:
            accepted = yes > no
        elif yes * 2 > len(voters):
            accepted = True
        elif no * 2 >= len(voters):
            accepted = False
        else:
            return self
        if accepted:
            return self._lay(pending.move, pending.play, pending.votes)
        record = TurnRecord(pending.move, 0, pending.play, votes=pending.votes, accepted=False)
        return replace(self, pending=None, turns=self.turns + (record,))

    def _swap(self, move: Move) -> Game:
        racks, bag, drawn = self._swapped(move)
        return self._after_turn(move, 0, None, racks, bag, drawn)

    def _after_turn(self, move, score, play, racks, bag, drawn, votes=()) -> Game:
        game = self._scored(move, score, TurnRecord(move, score, play, drawn, votes), racks, bag)
        return game._end_or_next(move)

    def _streak_reached(self) -> bool:
        """Every seat still in play passed on each of its last two turns (a play the house
        rejected was no turn)."""
        return self._every_seat_last_turns(2, lambda turn: turn.move.kind == PASS if turn.accepted else None)

    def _seat_left(self, seat: int) -> Game:
        """A leaving seat's play no longer waits for votes, nor does any play once one
        seat is left."""
        if self.pending is not None and (self.pending.move.seat == seat or sum(self.in_play) < 2):
            return replace(self, pending=None)
        return self

    def _settle_after_leaving(self) -> Game | None:
        """One voter fewer may settle the vote."""
        return self._decide() if self.pending is not None else None

    _moves: tuple[Move, ...] = ()


def new_game(players: int, seed, lexicon, game_number: int = 1, house_vote: bool = False) -> Game:
    """A fresh game: the first player drawn, the bag shuffled from ``seed``, racks dealt."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"TOW takes {MIN_PLAYERS}–{MAX_PLAYERS} players")
    draws, opener = first_draw(players, f"{seed}/{game_number}")
    racks, bag = deal(shuffled(BAG, seed, f"bag/{game_number}"), players, RACK_SIZE)
    return Game(
        players=players,
        seed=seed,
        game_number=game_number,
        house_vote=house_vote,
        table=Table.empty(),
        racks=racks,
        bag=bag,
        scores=(0,) * players,
        to_move=opener,
        in_play=(True,) * players,
        draws=draws,
        lexicon=lexicon,
    )


def replay(players: int, seed, moves: Iterable[Move], lexicon, game_number: int = 1, house_vote: bool = False) -> Game:
    """Rebuild a game from its seed and moves (raises IllegalPlay on a bad move)."""
    game = new_game(players, seed, lexicon, game_number, house_vote)
    for move in moves:
        game = game.apply(move)
    return game
