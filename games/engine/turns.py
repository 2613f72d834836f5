"""Seats, turns, racks and the end of a game: what the turn-based tile games share.

Word Grid and Wordgame (``crossword_game``) and TOW (``tow``) are each an immutable
``Game`` that seats move in turn, drawing racks from a seeded bag; each seat may place
tiles, swap, pass, resign or forfeit; a seat that leaves finishes last and its tiles go
back to the bag; a game ends when a seat plays its last tile with the bag empty, when
its scoreless streak is reached, or when one seat is left, and the tiles left on the
racks then count against their holders (RULES §3, §4, §5). That machinery is written
here once; each game's module keeps what is its own: the board or table, what a
placement scores, its streak and its moves' fields.

A game's ``Game`` is a frozen, keyword-only dataclass built on :class:`SeatedGame`,
which holds the seats' fields; the game adds its own fields and gives:

- the class attributes ``illegal_play`` (its ``IllegalPlay``), ``turn_record`` (its
  ``TurnRecord``) and ``streak_end`` (its ``end_reason`` when the streak ends the game);
- the methods ``tile_value(tile)`` and ``_streak_reached()``.

Its ``Move`` dataclass mixes in :class:`SeatMoves` (fields ``kind``, ``seat``, ``tiles``).
Nothing here reads a clock or the global random generator: every shuffle is a
``random.Random`` seeded from the game's seed, so a game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

PLACE, SWAP, PASS, RESIGN, FORFEIT = "place", "swap", "pass", "resign", "forfeit"
#: Moves by which a seat leaves the game; any seat may make them at any time.
LEAVING = (RESIGN, FORFEIT)

# Why a game ended (Game.end_reason), where the games agree.
WENT_OUT = "went out"
LAST_SEAT = "one player left"


def shuffled(tiles: Iterable[str], seed, salt) -> tuple[str, ...]:
    """``tiles`` in an order decided by the game's seed and ``salt`` alone."""
    tiles = sorted(tiles)
    random.Random(f"{seed}/{salt}").shuffle(tiles)
    return tuple(tiles)


def take(rack: str, tiles: Iterable[str]) -> str | None:
    """The rack without ``tiles``, or None if the rack does not hold them."""
    remaining = list(rack)
    for tile in tiles:
        if tile not in remaining:
            return None
        remaining.remove(tile)
    return "".join(remaining)


def replace_at(values: tuple, index: int, value) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def deal(bag: tuple[str, ...], players: int, rack_size: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Racks dealt in seat order from the top of ``bag``; returns (racks, the bag left)."""
    racks = []
    for _ in range(players):
        racks.append("".join(sorted(bag[:rack_size])))
        bag = bag[rack_size:]
    return tuple(racks), bag


class SeatMoves:
    """The moves that carry no placement, made the same way in every game."""

    @classmethod
    def swap(cls, seat: int, tiles: str):
        return cls(SWAP, seat, tiles="".join(sorted(tiles.lower())))

    @classmethod
    def pass_(cls, seat: int):
        return cls(PASS, seat)

    @classmethod
    def resign(cls, seat: int):
        return cls(RESIGN, seat)

    @classmethod
    def forfeit(cls, seat: int):
        """The seat to move missed its deadline."""
        return cls(FORFEIT, seat)


@dataclass(frozen=True, kw_only=True)
class SeatedGame:
    """Seats, turns and the end of a game (see the module's doc); immutable."""

    players: int
    seed: object
    game_number: int
    racks: tuple[str, ...]
    bag: tuple[str, ...]  # in draw order (don't show it to players)
    scores: tuple[int, ...]
    to_move: int
    in_play: tuple[bool, ...]  # False once a seat resigned or forfeited
    left_order: tuple[int, ...] = ()  # seats that resigned or forfeited, in order
    turns: tuple = ()  # a TurnRecord per move
    is_over: bool = False
    end_reason: str | None = None
    went_out: int | None = None
    adjustments: tuple[int, ...] = ()  # end-of-game changes already in ``scores``
    time_penalties: tuple[int, ...] = ()  # a clocked game's overtime points, already in ``scores``
    lexicon: object = field(default=None, compare=False, repr=False)

    # -- reading ---------------------------------------------------------------------

    def unseen(self, seat: int) -> str:
        """Tiles ``seat`` cannot see: the bag and the other seats' racks, sorted."""
        tiles = list(self.bag)
        for other, rack in enumerate(self.racks):
            if other != seat:
                tiles.extend(rack)
        return "".join(sorted(tiles))

    def standings(self) -> tuple[tuple[int, int, int], ...]:
        """((seat, score, place), ...) best first; equal scores share a place.

        Seats still in play rank by score; seats that left rank below them, the latest
        to leave highest.
        """
        staying = sorted((s for s in range(self.players) if self.in_play[s]), key=lambda s: -self.scores[s])
        order = staying + list(reversed(self.left_order))
        result = []
        for index, seat in enumerate(order):
            if (
                index
                and self.in_play[seat]
                and self.in_play[order[index - 1]]
                and self.scores[seat] == self.scores[order[index - 1]]
            ):
                place = result[-1][2]
            else:
                place = index + 1
            result.append((seat, self.scores[seat], place))
        return tuple(result)

    def winners(self) -> tuple[int, ...]:
        """Seats in first place; two or more means a draw."""
        return tuple(seat for seat, _, place in self.standings() if place == 1)

    def rack_value(self, rack: str) -> int:
        return sum(self.tile_value(tile) for tile in rack)

    # -- checks ----------------------------------------------------------------------

    def _check_seat(self, move) -> None:
        """The game goes on and the move's seat is still in it."""
        if self.is_over:
            raise self.illegal_play("the game is over")
        if not 0 <= move.seat < self.players or not self.in_play[move.seat]:
            raise self.illegal_play("that seat is not in the game")

    def _check_rack(self, seat: int, tiles: Iterable[str]) -> None:
        if take(self.racks[seat], tiles) is None:
            raise self.illegal_play("those tiles are not on your rack")

    # -- turns -----------------------------------------------------------------------

    def _drawn_after(self, seat: int, used: Iterable[str], rack_size: int):
        """``seat`` plays ``used`` from its rack and draws up to ``rack_size``:
        returns (racks, bag, tiles drawn)."""
        remaining = take(self.racks[seat], used)
        drawn = min(rack_size - len(remaining), len(self.bag))
        rack = "".join(sorted(remaining + "".join(self.bag[:drawn])))
        return replace_at(self.racks, seat, rack), self.bag[drawn:], drawn

    def _swapped(self, move):
        """The racks and bag after ``move`` swaps its tiles: they go into the bag, which is
        shuffled, and as many are drawn. Returns (racks, bag, tiles drawn)."""
        if not move.tiles:
            raise self.illegal_play("choose the tiles to swap")
        if len(move.tiles) > len(self.bag):
            raise self.illegal_play(f"the bag holds only {len(self.bag)} tiles")
        remaining = take(self.racks[move.seat], move.tiles)
        if remaining is None:
            raise self.illegal_play("those tiles are not on your rack")
        bag = shuffled(self.bag + tuple(move.tiles), self.seed, len(self.turns))
        count = len(move.tiles)
        rack = "".join(sorted(remaining + "".join(bag[:count])))
        return replace_at(self.racks, move.seat, rack), bag[count:], count

    def _scored(self, move, score: int, record, racks, bag):
        """The game once ``move``'s turn is recorded, before the end is looked at."""
        scores = replace_at(self.scores, move.seat, self.scores[move.seat] + score)
        return replace(self, racks=racks, bag=bag, scores=scores, turns=self.turns + (record,))

    def _end_or_next(self, move):
        """After a turn: the game ends if ``move`` went out or the streak is reached;
        otherwise the next seat in play moves."""
        if move.kind == PLACE and not self.racks[move.seat] and not self.bag:
            return self._finish(WENT_OUT, move.seat)
        if self._streak_reached():
            return self._finish(self.streak_end, None)
        return replace(self, to_move=self._next_seat(move.seat))

    def _every_seat_last_turns(self, count: int, qualifies: Callable[[object], bool | None]) -> bool:
        """True when every seat still in play has had its last ``count`` turns qualify.

        ``qualifies(turn)`` says whether a turn counts towards the streak (True), breaks
        it (False) or is not a turn of the streak at all (None). The turns of seats that
        left no longer count for or against.
        """
        needed = {seat: count for seat in range(self.players) if self.in_play[seat]}
        for turn in reversed(self.turns):
            seat = turn.move.seat
            if turn.move.kind in LEAVING or not needed.get(seat):
                continue
            verdict = qualifies(turn)
            if verdict is None:
                continue
            if not verdict:
                return False
            needed[seat] -= 1
            if not any(needed.values()):
                return True
        return False

    def _next_seat(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.in_play[candidate]:
                return candidate
        return seat

    # -- leaving and the end ---------------------------------------------------------

    def _leave(self, move):
        """``move`` resigns or forfeits its seat: it finishes last, its tiles go back to
        the bag, and the game goes on while two or more seats remain."""
        seat = move.seat
        bag = self.bag
        if self.racks[seat]:
            bag = shuffled(bag + tuple(self.racks[seat]), self.seed, len(self.turns))
        in_play = replace_at(self.in_play, seat, False)
        game = replace(
            self,
            racks=replace_at(self.racks, seat, ""),
            bag=bag,
            in_play=in_play,
            left_order=self.left_order + (seat,),
            turns=self.turns + (self.turn_record(move, 0),),
        )._seat_left(seat)
        if sum(in_play) < 2:
            return replace(game, is_over=True, end_reason=LAST_SEAT, adjustments=(0,) * self.players)
        settled = game._settle_after_leaving()
        if settled is not None:
            return settled
        # With one seat fewer, the streak already played may now end the game.
        if game._streak_reached():
            return game._finish(self.streak_end, None)
        if self.to_move == seat:
            game = replace(game, to_move=game._next_seat(seat))
        return game

    def _seat_left(self, seat: int):
        """What else a leaving seat takes with it (nothing, unless a game says so)."""
        return self

    def _settle_after_leaving(self):
        """A game that a seat's leaving decides otherwise than by the streak, or None."""
        return None

    def with_time_penalties(self, penalties: tuple[int, ...]):
        """The finished game with each seat's overtime ``penalties`` (``clock.penalties``)
        taken off its score, replacing any taken before, so the places follow the
        penalised scores; an unfinished game, or no penalty, stays as it is."""
        if not self.is_over or tuple(penalties) == (self.time_penalties or (0,) * self.players):
            return self
        before = self.time_penalties or (0,) * self.players
        scores = tuple(s + old - new for s, old, new in zip(self.scores, before, penalties))
        return replace(self, scores=scores, time_penalties=tuple(penalties))

    def _finish(self, reason: str, went_out: int | None):
        """End-of-game adjustments: remaining tiles count against their holders, and a
        seat that went out gains them all."""
        values = [self.rack_value(rack) if self.in_play[s] else 0 for s, rack in enumerate(self.racks)]
        adjustments = [-v for v in values]
        if went_out is not None:
            adjustments[went_out] = sum(values)
        scores = tuple(s + a for s, a in zip(self.scores, adjustments))
        return replace(
            self, scores=scores, is_over=True, end_reason=reason, went_out=went_out, adjustments=tuple(adjustments)
        )
