"""The crossword game as a pure state machine (RULES §3 Word Grid, §4 Wordgame).

A ``Game`` is an immutable value. It is a pure function of its variant, player count,
seed, series game number, lexicon and the moves applied so far, so a stored game can be
rebuilt with ``replay`` and compared with ``==``. Nothing here reads a clock or the
global random generator: every shuffle uses ``random.Random`` seeded from the game's
seed and the number of moves played.

API (also importable from ``games.engine.crossword``)::

    game = new_game(WORD_GRID, players=2, seed="table-42", lexicon=lex, game_number=1)
    game.to_move                # seat (0-based) whose turn it is
    game.racks[seat]            # rack as a sorted str, "?" for a blank
    game.bag                    # tiles left, in draw order (don't show it to players)
    game.scores[seat]; game.board; game.is_over; game.turns (TurnRecord per move)

    game = game.apply(Move.place(seat, [(7, 7, "c", False), (7, 8, "a", False)]))
    game = game.apply(Move.swap(seat, "qv?"))     # tiles from the rack, "?" = blank
    game = game.apply(Move.pass_(seat))
    game = game.apply(Move.resign(seat))          # any seat, at any time
    game = game.apply(Move.forfeit(seat))         # the seat to move missed its deadline
    Move.from_dict(move.to_dict()) == move        # JSON-ready form for storage
    # a refused move raises crossword.IllegalPlay with a player-facing .reason

    game.unseen(seat)           # sorted str of tiles that seat cannot see (bag + other racks)
    game.standings()            # ((seat, final score, place), ...) best first
    game.winners()              # seats sharing first place (more than one: a draw)
    replay(WORD_GRID, 2, "table-42", moves, lex) == game
    first_player(variant, players, game_number, seed)

Seats are 0-based. A seat that resigns or forfeits finishes last (later leavers above
earlier ones); its tiles go back to the bag and the game goes on while two or more
seats remain. End of game (RULES §3, §4): the bag is empty and a seat has played its last
tile (that seat gains everyone else's remaining tile values, each of whom loses theirs),
or the variant's streak is reached (Word Grid: every seat in play has had its last two
turns scoreless; Wordgame: three passes in a row), and everyone loses their remaining
tile values. Wordgame deals
again if the first two moves are both passes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from games.engine.crossword import Board, IllegalPlay, Play, Variant, evaluate
from games.engine.turns import (
    FORFEIT,
    LAST_SEAT,
    LEAVING,
    PASS,
    PLACE,
    RESIGN,
    SWAP,
    WENT_OUT,
    SeatedGame,
    SeatMoves,
    deal,
    shuffled,
)

__all__ = [
    "FORFEIT",
    "LAST_SEAT",
    "PASS",
    "PLACE",
    "RESIGN",
    "STREAK",
    "SWAP",
    "WENT_OUT",
    "Game",
    "IllegalPlay",
    "Move",
    "TurnRecord",
    "first_player",
    "new_game",
    "replay",
]

# Why a game ended (Game.end_reason), besides WENT_OUT and LAST_SEAT.
STREAK = "scoreless turns"


@dataclass(frozen=True)
class Move(SeatMoves):
    """One action of one seat: place tiles, swap tiles, pass, resign or forfeit."""

    kind: str
    seat: int
    placement: tuple[tuple[int, int, str, bool], ...] = ()
    tiles: str = ""  # swap: the rack tiles given back

    @classmethod
    def place(cls, seat: int, placement: Iterable[Sequence]) -> Move:
        tiles = tuple((int(r), int(c), str(letter).lower(), bool(blank)) for r, c, letter, blank in placement)
        return cls(PLACE, seat, tiles)

    def to_dict(self) -> dict:
        """A JSON-ready form, for storing a game's moves."""
        data = {"kind": self.kind, "seat": self.seat}
        if self.kind == PLACE:
            data["placement"] = [list(tile) for tile in self.placement]
        if self.kind == SWAP:
            data["tiles"] = self.tiles
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Move:
        """Inverse of ``to_dict``."""
        kind, seat = data["kind"], int(data["seat"])
        if kind == PLACE:
            return cls.place(seat, data["placement"])
        if kind == SWAP:
            return cls.swap(seat, data["tiles"])
        return cls(kind, seat)


@dataclass(frozen=True)
class TurnRecord:
    """What a move did: points gained, the play (for a placement) and tiles drawn."""

    move: Move
    score: int
    play: Play | None = None
    drawn: int = 0
    redeal: bool = False


def first_player(variant: Variant, players: int, game_number: int, seed) -> int:
    """Seat that opens game ``game_number`` (1-based) of a series.

    Word Grid rotates (seat 0 opens game 1, seat 1 game 2, ...); Wordgame draws, here
    from the game's seed.
    """
    if variant.first_player == "rotate":
        return (game_number - 1) % players
    return random.Random(f"{seed}/first-player").randrange(players)


@dataclass(frozen=True, kw_only=True)
class Game(SeatedGame):
    """An immutable snapshot of a crossword game; ``apply`` returns the next one."""

    illegal_play = IllegalPlay
    turn_record = TurnRecord
    streak_end = STREAK

    variant: Variant
    board: Board
    streak: int = 0  # consecutive scoreless turns (or passes)

    # -- reading -------------------------------------------------------------------

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(t.move for t in self.turns)

    def tile_value(self, tile: str) -> int:
        return self.variant.letter_values[tile]

    # -- moving --------------------------------------------------------------------

    def check(self, move: Move) -> None:
        """Raise IllegalPlay if ``move`` may not be made now, before the board is looked at.

        The game must go on, the seat be in play and, except to resign or forfeit, have
        the turn and hold the tiles it places or swaps. ``apply`` checks these first;
        whether a placement makes words is :func:`crossword.evaluate`'s to say.
        """
        self._check_seat(move)
        if move.kind in LEAVING:
            return
        if move.seat != self.to_move:
            raise IllegalPlay("not your turn")
        if move.kind == PLACE:
            tiles = ["?" if blank else letter for _, _, letter, blank in move.placement]
        elif move.kind == SWAP:
            tiles = list(move.tiles)
        else:
            return
        self._check_rack(move.seat, tiles)

    def apply(self, move: Move) -> Game:
        """Return the game after ``move``; raise IllegalPlay if the move is refused."""
        self.check(move)
        if move.kind in LEAVING:
            return self._leave(move)
        if move.kind == PLACE:
            return self._place(move)
        if move.kind == SWAP:
            return self._swap(move)
        if move.kind == PASS:
            return self._after_turn(move, 0, None, self.racks, self.bag, drawn=0)
        raise IllegalPlay(f"unknown move: {move.kind}")

    def _place(self, move: Move) -> Game:
        needed = ["?" if blank else letter for _, _, letter, blank in move.placement]
        play = evaluate(self.board, move.placement, self.variant, self.lexicon)
        # check() made sure the rack holds the tiles.
        racks, bag, drawn = self._drawn_after(move.seat, needed, self.variant.rack_size)
        game = replace(self, board=self.board.with_tiles(play.placement))
        return game._after_turn(move, play.score, play, racks, bag, drawn)

    def _swap(self, move: Move) -> Game:
        racks, bag, drawn = self._swapped(move)
        return self._after_turn(move, 0, None, racks, bag, drawn=drawn)

    def _after_turn(self, move, score, play, racks, bag, drawn) -> Game:
        variant = self.variant
        counts = move.kind == PASS if variant.end_streak_kind == "pass" else score == 0
        game = self._scored(move, score, TurnRecord(move, score, play, drawn), racks, bag)
        game = replace(game, streak=self.streak + 1 if counts else 0)
        if (
            variant.redeal_after_opening_passes
            and len(game.turns) == 2
            and all(t.move.kind == PASS for t in game.turns)
        ):
            game = game._redeal()
        return game._end_or_next(move)

    def _streak_reached(self) -> bool:
        """True when the run of scoreless turns (Word Grid) or passes (Wordgame) ends
        the game.

        Word Grid: every seat still in play has had its last two turns scoreless; with
        no seat gone that is 2 × seats consecutive scoreless turns, and after a resign
        or forfeit the turns of the seat that left no longer count for or against.
        Wordgame: the last three turns were passes.
        """
        variant = self.variant
        if not variant.end_streak_per_player:
            return self.streak >= variant.end_streak
        if variant.end_streak_kind == "pass":
            return self._every_seat_last_turns(variant.end_streak, lambda turn: turn.move.kind == PASS)
        return self._every_seat_last_turns(variant.end_streak, lambda turn: turn.score == 0)

    def _redeal(self) -> Game:
        """Wordgame: both racks go back, the bag is shuffled and both draw again."""
        tiles = self.bag + tuple("".join(self.racks))
        bag = shuffled(tiles, self.seed, f"redeal/{len(self.turns)}")
        racks = []
        for seat in range(self.players):
            size = self.variant.rack_size if self.in_play[seat] else 0
            racks.append("".join(sorted(bag[:size])))
            bag = bag[size:]
        last = replace(self.turns[-1], redeal=True)
        return replace(self, racks=tuple(racks), bag=bag, streak=0, turns=self.turns[:-1] + (last,))


def new_game(variant: Variant, players: int, seed, lexicon, game_number: int = 1) -> Game:
    """A fresh game: the bag shuffled from ``seed``, racks dealt in seat order."""
    if not variant.min_players <= players <= variant.max_players:
        raise ValueError(f"{variant.name} takes {variant.min_players}–{variant.max_players} players")
    racks, bag = deal(shuffled(variant.bag, seed, "bag"), players, variant.rack_size)
    return Game(
        variant=variant,
        players=players,
        seed=seed,
        game_number=game_number,
        board=Board.empty(),
        racks=racks,
        bag=bag,
        scores=(0,) * players,
        to_move=first_player(variant, players, game_number, seed),
        in_play=(True,) * players,
        lexicon=lexicon,
    )


def replay(variant: Variant, players: int, seed, moves: Iterable[Move], lexicon, game_number: int = 1) -> Game:
    """Rebuild a game from its seed and moves (raises IllegalPlay on a bad move)."""
    game = new_game(variant, players, seed, lexicon, game_number)
    for move in moves:
        game = game.apply(move)
    return game
