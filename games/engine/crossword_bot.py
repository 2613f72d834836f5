"""Computer players for Word Grid and Wordgame: choose a move for a seat.

API::

    position = Position.of(game, seat)          # what that seat can see, nothing more
    move = choose(position, "expert", random.Random(seed), frequency=zipf)
    game = game.apply(move)                     # a crossword_game.Move: place, swap or pass

Strengths (``STRENGTHS``; ``greedy`` is a yardstick for measuring the others):

* ``beginner`` knows common words only (``frequency`` gives a word's Zipf value, as from
  wordfreq) and short ones; it looks at a handful of plays and takes the best of those,
  so it rarely finds the best move.
* ``casual`` looks at a shortlist of the highest-scoring plays, skips the ones with
  words it does not know, and picks one of the best few at random.
* ``club`` takes the play with the best score plus a rule-of-thumb leave value
  (``leaves.heuristic_value``), swaps when its rack is poor, and likes going out.
* ``expert`` ranks every play by equity = score + a leave value learned by self-play
  (``leaves.learned``) and weighs swapping any subset of its rack against its best play.
  While tiles are in the bag it weighs its best few moves against the next player's
  best reply on a few racks drawn from the unseen tiles (so it does not open a premium
  square for a big reply); when the bag is empty and one opponent is left, it knows
  that opponent's rack (the unseen tiles) and looks one reply ahead: it prefers going
  out and blocks big replies.
* ``champion`` simulates: for its best candidates by the expert's equity (and the best
  swap) it plays the game on, round after round, from a seeded shuffle of the unseen
  tiles: the next player's rack and the bag's order. After each candidate (and our
  refill from that bag) the next player answers with their best play by equity (their
  leave counts), then we make our best play by equity from the refilled rack; the
  candidate's value is the spread over those plies plus the leave we end on less the
  leave they end on, averaged over the rounds (Monte Carlo simulation two plies deep, as the strongest crossword
  programs play). Every candidate meets the same rounds, and those clearly behind the
  leader are dropped as rounds come in. Its effort is a count of move searches
  (``CHAMPION_BUDGET``), so a game replays exactly; the worker may also pass
  ``out_of_time`` to stop early. With the bag empty and one opponent left it searches
  the rest of the game (``endgame_search``): both racks are known, so it looks several
  plies ahead with alpha-beta over each turn's best few plays and passing, one ply
  deeper at a time within ``ENDGAME_BUDGET`` move searches; with more opponents it
  plays like the expert.
* ``greedy`` plays the highest score, nothing else.

A bot only reads what its seat may see: the board, its rack, the bag's size and the
unseen tiles (bag and other racks together). Randomness comes only from the
``random.Random`` passed in. No Django, no clock.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations

from games.engine import leaves, movegen
from games.engine.crossword import Board, Play, Variant
from games.engine.crossword_game import Game, Move
from games.engine.tiles import BLANK

STRENGTHS = ("beginner", "casual", "club", "expert", "champion")
BOT_NAMES = (*STRENGTHS, "greedy")

# Zipf values (wordfreq) below which a word is unknown to a bot of that strength.
BEGINNER_MIN_ZIPF = 3.0
CASUAL_MIN_ZIPF = 1.5
BEGINNER_SAMPLE = 40
BEGINNER_LONGEST = 6
CASUAL_SHORTLIST = 20
CASUAL_PICK_FROM = 4
# Swap rather than play when swapping is worth this much more equity.
SWAP_MARGIN = 3.0
# With tiles in the bag the expert weighs its best REPLY_CANDIDATES moves (those within
# REPLY_WITHIN equity of the best) against the next player's best reply by equity on
# REPLY_RACKS racks drawn from the unseen tiles, counted at REPLY_WEIGHT: half, as the
# board a move opens serves our next turn too.
REPLY_CANDIDATES = 4
REPLY_WITHIN = 12.0
REPLY_RACKS = 8
REPLY_WEIGHT = 0.5
# Endgame look-ahead: how many of our plays, and of the opponent's replies, to weigh.
ENDGAME_CANDIDATES = 12
ENDGAME_REPLIES = 8
# The champion simulates its best CHAMPION_CANDIDATES moves within CHAMPION_WITHIN
# equity of the best, CHAMPION_PLIES plies deep (the next player's answer, then our own
# next move), spending at most CHAMPION_BUDGET move searches; after
# CHAMPION_MIN_ROUNDS rounds a candidate whose mean paired difference with the leader
# is below zero by CHAMPION_PRUNE_Z standard errors is dropped. A budget too small to
# give every candidate CHAMPION_ROUNDS_EACH rounds simulates fewer of them.
CHAMPION_CANDIDATES = 10
CHAMPION_WITHIN = 12.0
CHAMPION_PLIES = 2
CHAMPION_BUDGET = 400
CHAMPION_MIN_ROUNDS = 8
CHAMPION_MAX_ROUNDS = 1000
CHAMPION_PRUNE_Z = 2.0
CHAMPION_ROUNDS_EACH = 16
# With the bag empty and one opponent left the champion searches the rest of the game
# (both racks are known): at most ENDGAME_PLIES plies deep, weighing at each turn the
# ENDGAME_WIDTH best plays by score less the tiles they keep (and passing), deepening
# one ply at a time while ENDGAME_BUDGET move searches last.
ENDGAME_PLIES = 8
ENDGAME_WIDTH = 8
ENDGAME_BUDGET = 400


@dataclass(frozen=True)
class Position:
    """A seat's view of a game: everything a bot may use, and nothing hidden from it."""

    variant: Variant
    lexicon: object
    board: Board
    rack: str
    seat: int
    bag_size: int
    unseen: str  # bag + other racks, sorted
    scores: tuple[int, ...]
    seats_in_play: int
    # A pass by this seat now ends the game: the run of scoreless turns (or passes) that
    # ends it is one turn short.
    pass_ends_game: bool = False

    @classmethod
    def of(cls, game: Game, seat: int | None = None) -> Position:
        seat = game.to_move if seat is None else seat
        return cls(
            game.variant,
            game.lexicon,
            game.board,
            game.racks[seat],
            seat,
            len(game.bag),
            game.unseen(seat),
            game.scores,
            sum(game.in_play),
            seat == game.to_move and not game.is_over and game.apply(Move.pass_(seat)).is_over,
        )

    @property
    def opponent_rack(self) -> str | None:
        """The one opponent's rack, known once the bag is empty and two seats are left."""
        return self.unseen if self.bag_size == 0 and self.seats_in_play == 2 else None

    def tiles_value(self, tiles: str) -> int:
        values = self.variant.letter_values
        return sum(values[t] for t in tiles)


def choose(
    position: Position,
    strength: str,
    rng: random.Random,
    *,
    frequency: Callable[[str], float] | None = None,
    leave_table: leaves.LeaveTable | None = None,
    budget: int | None = None,
    out_of_time: Callable[[], bool] | None = None,
) -> Move:
    """The move a bot of ``strength`` makes in ``position``.

    ``frequency`` (word -> Zipf value) is needed by beginner and casual; without it every
    word counts as known. ``leave_table`` overrides the learned table of the expert and
    the champion; ``budget`` (move searches) and ``out_of_time`` bound the champion's
    simulation (its endgame search has a budget of its own, ``ENDGAME_BUDGET``, and
    stops when ``out_of_time`` says so too).
    """
    if strength == "greedy":
        return _greedy(position)
    if strength == "beginner":
        return _beginner(position, rng, frequency)
    if strength == "casual":
        return _casual(position, rng, frequency)
    if strength == "club":
        return _by_equity(position, leaves.heuristic_value, look_ahead=False)
    if strength == "expert":
        table = leave_table or leaves.learned(position.variant.name)
        return _by_equity(position, table, look_ahead=True, rng=rng)
    if strength == "champion":
        table = leave_table or leaves.learned(position.variant.name)
        return _champion(position, table, rng, CHAMPION_BUDGET if budget is None else budget, out_of_time)
    raise ValueError(f"unknown bot strength: {strength!r}")


# -- helpers ---------------------------------------------------------------------------


def leave_of(rack: str, placement) -> str:
    """The rack tiles a placement keeps, sorted ("?" for a blank)."""
    kept = list(rack)
    for _, _, letter, blank in placement:
        kept.remove(BLANK if blank else letter)
    return "".join(kept)


def _place(position: Position, play: Play) -> Move:
    return Move.place(position.seat, play.placement)


def _no_play(position: Position) -> Move:
    """No play found: swap the whole rack if the bag allows, else as much as it can, else pass."""
    count = min(len(position.rack), position.bag_size)
    if count and position.bag_size >= position.variant.rack_size:
        return Move.swap(position.seat, position.rack)
    return Move.pass_(position.seat)


def _known(play: Play, frequency, min_zipf: float) -> bool:
    if frequency is None:
        return True
    return all(frequency(word) >= min_zipf for word, _ in play.words)


# -- strengths -------------------------------------------------------------------------


def _greedy(position: Position) -> Move:
    play = movegen.best(position.board, position.rack, position.variant, position.lexicon)
    return _place(position, play) if play else _no_play(position)


def _beginner(position: Position, rng: random.Random, frequency) -> Move:
    plays = movegen.generate(position.board, position.rack, position.variant, position.lexicon)
    short = [p for p in plays if len(p.placement) <= BEGINNER_LONGEST - 1]
    pool = short or plays
    looked_at = rng.sample(pool, min(BEGINNER_SAMPLE, len(pool)))
    known = [p for p in looked_at if _known(p, frequency, BEGINNER_MIN_ZIPF) and len(p.main_word) <= BEGINNER_LONGEST]
    if known:
        return _place(position, max(known, key=lambda p: (p.score, p.key())))
    if looked_at:
        # Nothing it recognises: it settles for the smallest play it can see.
        return _place(position, min(looked_at, key=lambda p: (p.score, p.key())))
    return _no_play(position)


def _casual(position: Position, rng: random.Random, frequency) -> Move:
    shortlist = movegen.top(position.board, position.rack, position.variant, position.lexicon, CASUAL_SHORTLIST)
    known = [p for p in shortlist if _known(p, frequency, CASUAL_MIN_ZIPF)] or shortlist
    if not known:
        return _no_play(position)
    picks = known[:CASUAL_PICK_FROM]
    return _place(position, rng.choices(picks, weights=[max(p.score, 1) for p in picks])[0])


# -- equity: club and expert -----------------------------------------------------------


def leave_function(position: Position, leave_value) -> Callable[[str], float]:
    """What a leave adds to a play's score at this stage of the game (equity - score)."""
    variant = position.variant
    if position.bag_size == 0:
        # The game ends soon: tiles left on the rack count against us (twice, if the
        # opponent goes out), and going out wins the others' tiles.
        out_bonus = 2 * position.tiles_value(position.unseen) / max(1, position.seats_in_play - 1)

        def endgame(leave: str) -> float:
            return out_bonus if not leave else -2.0 * position.tiles_value(leave)

        return endgame
    # With few tiles left to draw the game is nearly over: the leave counts for less.
    weight = min(1.0, position.bag_size / variant.rack_size)
    if weight == 1.0:
        return leave_value
    return lambda leave: weight * leave_value(leave)


def _subsets(rack: str) -> set[str]:
    return {"".join(kept) for size in range(len(rack) + 1) for kept in combinations(rack, size)}


def ranked(position: Position, leave_value, n: int) -> list[movegen.RankedPlay]:
    """The ``n`` plays with the best equity (score + leave value), best first."""
    value = leave_function(position, leave_value)
    bound = max(value(leave) for leave in _subsets(position.rack))
    return movegen.top(
        position.board, position.rack, position.variant, position.lexicon, n, leave_value=value, leave_bound=bound
    )


def best_swap(position: Position, leave_value) -> tuple[float, str] | None:
    """The best swap by leave value: (equity, tiles to give back), or None if not allowed."""
    rack = position.rack
    if position.bag_size < position.variant.rack_size:
        return None
    best = None
    for kept in _subsets(rack):
        if len(kept) == len(rack):
            continue
        value = leave_value(kept)
        if best is None or value > best[0]:
            best = (value, kept)
    value, kept = best
    return value, leave_of_tiles(rack, kept)


def leave_of_tiles(rack: str, kept: str) -> str:
    """The tiles of ``rack`` not in ``kept``."""
    rest = list(rack)
    for tile in kept:
        rest.remove(tile)
    return "".join(rest)


def _by_equity(position: Position, leave_value, *, look_ahead: bool, rng: random.Random | None = None) -> Move:
    opponent = position.opponent_rack
    if look_ahead and opponent:
        return _endgame(position, opponent)
    if look_ahead and rng is not None and position.bag_size > 0:
        return _reply_weighed(position, leave_value, rng)
    candidates = ranked(position, leave_value, 1)
    swap = best_swap(position, leave_value)
    if swap is not None and (not candidates or swap[0] > candidates[0].equity + SWAP_MARGIN):
        return Move.swap(position.seat, swap[1])
    if candidates:
        return _place(position, candidates[0])
    return _no_play(position)


def _reply_weighed(position: Position, leave_value, rng: random.Random) -> Move:
    """Equity less half what the next player's best reply is worth to them, for the
    best few moves.

    The opponent's rack is unknown while tiles are in the bag, so racks are drawn from
    the unseen tiles; every candidate is weighed against the same racks, so the
    comparison is fair. The reply counts by its equity (score + the leave it keeps), as
    the opponent plays, not by its score alone: a reply that dumps a good rack for a few
    points more is not what a move concedes. And it counts half: a board a move opens
    is also ours on the turn after, which a look one ply deep does not see. This keeps
    the expert from opening a premium square for a big reply without making it shut
    every lane.
    """
    candidates = ranked(position, leave_value, REPLY_CANDIDATES)
    swap = best_swap(position, leave_value)
    if not candidates:
        return Move.swap(position.seat, swap[1]) if swap is not None else _no_play(position)
    top = candidates[0].equity
    candidates = [play for play in candidates if play.equity >= top - REPLY_WITHIN]
    unseen = position.unseen
    size = min(position.variant.rack_size, len(unseen))
    racks = ["".join(sorted(rng.sample(unseen, size))) for _ in range(REPLY_RACKS)]
    variant, lexicon = position.variant, position.lexicon

    def conceded(board: Board, tiles_drawn: int) -> float:
        # The opponent's leave counts as the bag will stand after our draw.
        weight = min(1.0, max(0, position.bag_size - tiles_drawn) / variant.rack_size)
        theirs = (lambda leave: weight * leave_value(leave)) if weight else (lambda leave: 0.0)
        total = 0.0
        for rack in racks:
            reply = movegen.best(board, rack, variant, lexicon, leave_value=theirs)
            total += reply.equity if reply else 0.0
        return total / len(racks)

    best_move, best_value = None, None
    for play in candidates:
        value = play.equity - REPLY_WEIGHT * conceded(position.board.with_tiles(play.placement), len(play.placement))
        if best_value is None or value > best_value:
            best_move, best_value = _place(position, play), value
    if swap is not None and swap[0] > top - REPLY_WITHIN:
        value = swap[0] - REPLY_WEIGHT * conceded(position.board, 0)
        if value > best_value + SWAP_MARGIN:
            return Move.swap(position.seat, swap[1])
    return best_move


def _endgame(position: Position, opponent: str) -> Move:
    """Bag empty, one opponent: weigh each good play against the opponent's best reply.

    A play that goes out ends the game and wins twice the opponent's tiles. Otherwise
    the opponent replies with the play worth most to them (going out if they can), and
    the tiles we still hold count against us.
    """
    candidates = ranked(position, lambda leave: 0.0, ENDGAME_CANDIDATES)
    if not candidates:
        return Move.pass_(position.seat)
    opponent_value = position.tiles_value(opponent)
    variant, lexicon = position.variant, position.lexicon

    def reply_value(board: Board, our_leave: str) -> float:
        replies = movegen.top(board, opponent, variant, lexicon, ENDGAME_REPLIES)
        best = 0.0
        for reply in replies:
            value = reply.score
            if len(reply.placement) == len(opponent):
                value += 2 * position.tiles_value(our_leave)
            best = max(best, value)
        return best

    best_move, best_value = None, None
    for play in candidates:
        leave = play.leave
        if not leave:
            value = play.score + 2 * opponent_value
        else:
            after = position.board.with_tiles(play.placement)
            value = play.score - reply_value(after, leave) - position.tiles_value(leave)
        if best_value is None or value > best_value:
            best_move, best_value = _place(position, play), value
    # Passing keeps our tiles while the opponent moves on the board as it is, unless it
    # ends the game: then each side loses the tiles it holds.
    if position.pass_ends_game:
        pass_value = opponent_value - position.tiles_value(position.rack)
    else:
        pass_value = -reply_value(position.board, position.rack) - position.tiles_value(position.rack)
    if pass_value > best_value:
        return Move.pass_(position.seat)
    return best_move


# -- the champion: simulation -----------------------------------------------------------


@dataclass
class Candidate:
    """A move the champion simulates: its static equity and what each round gave it.

    ``score`` is the points the move makes, ``kept`` the rack tiles it keeps and
    ``given`` the tiles a swap puts back in the bag. ``dropped`` is set when the
    simulation stops giving it rounds (clearly behind the leader): its mean is over
    fewer rounds than the others' and no longer compares with theirs.
    """

    move: Move
    static: float  # score + our leave's value
    board: Board
    values: list[float] = field(default_factory=list)
    score: int = 0
    kept: str = ""
    given: str = ""
    dropped: bool = False

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else self.static


def champion_candidates(position: Position, leave_value, budget: int | None = None) -> list[Candidate]:
    """The plays, and the best swap, worth simulating: best static equity first.

    A small ``budget`` takes fewer plays, so that each still meets CHAMPION_ROUNDS_EACH
    rounds: more candidates on too few rounds would pick by the draws' noise.
    """
    count = CHAMPION_CANDIDATES
    if budget is not None:
        count = max(2, min(count, budget // (CHAMPION_PLIES * CHAMPION_ROUNDS_EACH) - 1))
    plays = ranked(position, leave_value, count)
    found = []
    if plays:
        top = plays[0].equity
        found = [
            Candidate(
                _place(position, play),
                play.equity,
                position.board.with_tiles(play.placement),
                score=play.score,
                kept=play.leave,
            )
            for play in plays
            if play.equity >= top - CHAMPION_WITHIN
        ]
    swap = best_swap(position, leave_function(position, leave_value))
    if swap is not None and (not found or swap[0] >= found[0].static - CHAMPION_WITHIN):
        value, given = swap
        kept = leave_of_tiles(position.rack, given)
        found.append(Candidate(Move.swap(position.seat, given), value, position.board, kept=kept, given=given))
    return found


def _champion(position: Position, leave_value, rng: random.Random, budget: int, out_of_time) -> Move:
    if position.bag_size == 0:
        opponent = position.opponent_rack
        if opponent is None:
            # Several racks still hidden from us: the expert's look at the next reply.
            return _by_equity(position, leave_value, look_ahead=True, rng=rng)
        return endgame_search(position, opponent, ENDGAME_BUDGET, out_of_time).move
    pool = champion_candidates(position, leave_value, budget)
    if not pool:
        return _no_play(position)
    if len(pool) > 1:
        simulate(position, pool, leave_value, rng, budget, out_of_time)
    # Only candidates that met every round compare fairly: a dropped one's mean is over
    # its first rounds alone, and later rounds may go worse (or better) for everyone.
    contenders = [candidate for candidate in pool if not candidate.dropped]
    return max(contenders, key=lambda candidate: (candidate.mean, candidate.static)).move


def simulate(position: Position, pool: list[Candidate], leave_value, rng: random.Random, budget: int, out_of_time=None):
    """Play each candidate on two plies, round after round, and note what it came to.

    A round shuffles the unseen tiles (seeded): the next player's rack is the first
    rack's worth, the rest is the bag in drawing order. Every candidate meets the same
    round (``continuation``). Rounds go on until ``budget`` move searches are spent
    (``CHAMPION_PLIES`` a candidate a round), one candidate is left, or
    ``out_of_time()`` says so (asked between rounds); a candidate clearly behind the
    leader is marked ``dropped`` and meets no more rounds. Returns the searches spent.
    """
    unseen = position.unseen
    size = min(position.variant.rack_size, len(unseen))
    alive, spent = list(pool), 0
    for rounds in range(1, CHAMPION_MAX_ROUNDS + 1):
        if len(alive) < 2 or spent + CHAMPION_PLIES * len(alive) > budget:
            break
        if out_of_time is not None and out_of_time():
            break
        order = rng.sample(unseen, len(unseen))
        rack, bag = "".join(sorted(order[:size])), order[size:]
        # Where a swap's tiles land when they go back into the bag: the round's own
        # seeded draw, made only when a swap is among the candidates.
        mix = random.Random(rng.getrandbits(64)) if any(candidate.given for candidate in alive) else None
        for candidate in alive:
            candidate.values.append(continuation(position, candidate, rack, bag, leave_value, mix))
        spent += CHAMPION_PLIES * len(alive)
        if rounds >= CHAMPION_MIN_ROUNDS:
            contending = _still_in_contention(alive)
            still = {id(candidate) for candidate in contending}
            for candidate in alive:
                candidate.dropped = id(candidate) not in still
            alive = contending
    return spent


def continuation(
    position: Position, candidate: Candidate, rack: str, bag: list[str], leave_value, mix: random.Random | None = None
) -> float:
    """What ``candidate`` comes to when the next player holds ``rack`` and the bag
    draws in the order ``bag``: the spread over the next plies plus the leave we end on.

    We play the candidate and refill from the bag (a swap's tiles first go back into
    it, each at a place ``mix`` draws: the rules shuffle them in before the draw, so
    we may draw them again); the next player answers with their best play by equity
    (score + their leave's value, as the bag then stands) and refills; then we play
    our best by equity from our refilled rack (with ``CHAMPION_PLIES`` = 2). The value
    is our points less theirs, plus the value of the tiles we keep from our last play
    less the value of those they keep from theirs. A play that goes out with the bag
    empty ends the game: the player going out gains the other's tiles and the other
    loses them.
    """
    variant, lexicon = position.variant, position.lexicon
    bag = list(bag)
    if candidate.given:
        shuffle_back(bag, candidate.given, mix or random.Random(f"{rack}/{''.join(bag)}"))
    ours = _refill(candidate.kept, bag, variant.rack_size)
    board, theirs, spread = candidate.board, rack, float(candidate.score)
    # What each side keeps from its last play in the round: its next turn starts from it.
    our_leave, their_leave = ours, theirs
    for ply in range(CHAMPION_PLIES):
        their_turn = ply % 2 == 0
        mover, other = (theirs, ours) if their_turn else (ours, theirs)
        value = _simulated_leave(position, leave_value, len(bag), other)
        play = movegen.best(board, mover, variant, lexicon, leave_value=value)
        sign = -1.0 if their_turn else 1.0
        if play is None:
            continue  # a pass: the whole rack is kept, as it stands
        spread += sign * play.score
        board = board.with_tiles(play.placement)
        if not play.leave and not bag:
            return spread + sign * 2 * position.tiles_value(other)
        refilled = _refill(play.leave, bag, variant.rack_size)
        if their_turn:
            their_leave, theirs = play.leave, refilled
        else:
            our_leave, ours = play.leave, refilled
    # Both sides' leaves count, as the plays were chosen by them: a reply that keeps good
    # tiles for fewer points now is not a gain for us.
    ours_value = _simulated_leave(position, leave_value, len(bag), theirs)
    theirs_value = _simulated_leave(position, leave_value, len(bag), ours)
    return spread + ours_value(our_leave) - theirs_value(their_leave)


def shuffle_back(bag: list[str], tiles: str, mix: random.Random) -> None:
    """Put a swap's ``tiles`` back into ``bag`` (a list in drawing order), each at a
    place ``mix`` draws. The bag is already in random order, so this is as good as the
    game's shuffle, and the tiles already there keep their order: the plays of the
    same round draw nearly the same tiles."""
    for tile in tiles:
        bag.insert(mix.randrange(len(bag) + 1), tile)


def _refill(kept: str, bag: list[str], rack_size: int) -> str:
    """``kept`` and tiles drawn from the front of ``bag`` (taken out of it) up to a rack."""
    count = min(rack_size - len(kept), len(bag))
    drawn = bag[:count]
    del bag[:count]
    return "".join(sorted(kept + "".join(drawn)))


def _simulated_leave(position: Position, leave_value, bag_size: int, other: str) -> Callable[[str], float]:
    """A leave's worth in a simulated position with ``bag_size`` tiles to draw and the
    other player holding ``other``: as ``leave_function`` weighs it in a real one."""
    if bag_size == 0:
        out_bonus = 2 * position.tiles_value(other)

        def endgame(leave: str) -> float:
            return out_bonus if not leave else -2.0 * position.tiles_value(leave)

        return endgame
    weight = min(1.0, bag_size / position.variant.rack_size)
    if weight == 1.0:
        return leave_value
    return lambda leave: weight * leave_value(leave)


def _still_in_contention(alive: list[Candidate]) -> list[Candidate]:
    """The leader, and every candidate not clearly behind it on the same rounds."""
    leader = max(alive, key=lambda candidate: candidate.mean)
    kept = []
    for candidate in alive:
        differences = [mine - theirs for mine, theirs in zip(candidate.values, leader.values)]
        n = len(differences)
        mean = sum(differences) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1))
        if candidate is leader or mean + CHAMPION_PRUNE_Z * spread / math.sqrt(n) >= 0:
            kept.append(candidate)
    return kept


# -- the champion's endgame: a search to the end of the game ----------------------------


class _OutOfSearches(Exception):
    """The endgame search's budget ran out in the middle of a depth."""


@dataclass(frozen=True)
class EndgameLine:
    """What the endgame search settled on: the move, the spread it expects from here
    to the end (ours less the opponent's, the tiles left on the racks counted), the
    plies it looked ahead, and the move searches it spent."""

    move: Move
    value: float
    plies: int
    searches: int


class _Endgame:
    """Negamax with alpha-beta over the rest of a two-player game with the bag empty.

    Both racks are known, so nothing is drawn or guessed: a line ends when a side goes
    out (it gains twice the other's tiles, as the rules count them for the spread), when
    a pass is answered by a pass (the position then repeats, so the search ends the game
    there, each side losing its own tiles; a pass at the root ends it at once when the
    game's run of scoreless turns says so), or at the depth reached, where each side's
    tiles count against it. The plays weighed at a turn are the best few by score less
    the tiles kept (going out counting twice the other's tiles): those that matter in an
    endgame. A board is named by the set of plays made on it since the root, so the
    plays of a board met again in another order or at the next depth are not generated
    again.
    """

    def __init__(self, position: Position, opponent: str, budget: int, out_of_time):
        self.position = position
        self.opponent = opponent
        self.budget = budget
        self.out_of_time = out_of_time
        self.searches = 0
        self.cut_short = False  # a line of the last depth searched stopped before the end
        self.found: dict[tuple[frozenset, str], list] = {}

    def tiles(self, rack: str) -> int:
        return self.position.tiles_value(rack)

    def plays(self, board: Board, made: frozenset, mover: str, other: str) -> list:
        key = (made, mover)
        plays = self.found.get(key)
        if plays is None:
            # The first search, the root's plays, is always made: without it there is no move.
            if self.searches and (
                self.searches >= self.budget or (self.out_of_time is not None and self.out_of_time())
            ):
                raise _OutOfSearches
            self.searches += 1
            position = self.position
            out_bonus = 2 * self.tiles(other)

            def kept(leave: str) -> float:
                return out_bonus if not leave else -float(self.tiles(leave))

            plays = movegen.top(
                board, mover, position.variant, position.lexicon, ENDGAME_WIDTH, leave_value=kept, leave_bound=out_bonus
            )
            self.found[key] = plays
        return plays

    def stopped(self, mover: str, other: str) -> float:
        """The spread to the side holding ``mover`` when play stops here: each side's
        tiles count against it."""
        return self.tiles(other) - self.tiles(mover)

    def after_play(self, board, made, play, other, plies, alpha, beta) -> float:
        """What ``play`` is worth to the side making it: going out ends the game, else
        its score less what the other side then makes of the rest."""
        if not play.leave:
            return play.score + 2 * self.tiles(other)
        score = play.score
        return score - self.value(
            board.with_tiles(play.placement),
            made | {play.placement},
            other,
            play.leave,
            plies - 1,
            False,
            score - beta,
            score - alpha,
        )

    def value(self, board, made, mover, other, plies, passed, alpha, beta) -> float:
        """The spread the side to move (holding ``mover``) gains from here, both sides
        playing their best, looking ``plies`` ahead."""
        if plies == 0:
            self.cut_short = True
            return self.stopped(mover, other)
        best = -math.inf
        for play in self.plays(board, made, mover, other):
            value = self.after_play(board, made, play, other, plies, max(alpha, best), beta)
            if value > best:
                best = value
                if best >= beta:
                    return best
        if passed:
            value = self.stopped(mover, other)
        else:
            value = -self.value(board, made, other, mover, plies - 1, True, -beta, -max(alpha, best))
        return max(best, value)

    def root(self, plies: int, order: list) -> list[tuple[float, object]]:
        """Each root move (a play, or None for a pass) with its value at ``plies``;
        exact for the best, an upper bound for those it beats."""
        position = self.position
        board, mover, other = position.board, position.rack, self.opponent
        valued, best = [], -math.inf
        self.cut_short = False
        for play in order:
            if play is None and position.pass_ends_game:
                value = self.stopped(mover, other)
            elif play is None:
                value = -self.value(board, frozenset(), other, mover, plies - 1, True, -math.inf, -best)
            else:
                value = self.after_play(board, frozenset(), play, other, plies, best, math.inf)
            valued.append((value, play))
            best = max(best, value)
        return valued


def endgame_search(position: Position, opponent: str, budget: int, out_of_time=None) -> EndgameLine:
    """The champion's move with the bag empty and one opponent holding ``opponent``:
    the search one ply deeper each time, while ``budget`` move searches last (and
    ``out_of_time()`` says no), keeping the best move of the deepest search finished.
    Every search is counted, so the same position gives the same move."""
    search = _Endgame(position, opponent, budget, out_of_time)
    plays = search.plays(position.board, frozenset(), position.rack, opponent)
    order: list = [*plays, None]
    # One ply needs no search beyond the root's plays, so it always finishes: ``chosen``
    # is set by the first pass of the loop.
    chosen = None
    for plies in range(1, ENDGAME_PLIES + 1):
        try:
            valued = search.root(plies, order)
        except _OutOfSearches:
            break
        # Best first, ties kept in the order they were weighed: the next depth weighs
        # the moves in this order, and its best is exact whatever the others' bounds.
        ranked_moves = sorted(range(len(valued)), key=lambda index: -valued[index][0])
        order = [valued[index][1] for index in ranked_moves]
        value, play = valued[ranked_moves[0]]
        move = Move.pass_(position.seat) if play is None else _place(position, play)
        chosen = EndgameLine(move, value, plies, search.searches)
        if not search.cut_short:
            break  # every line ended the game: looking deeper finds nothing more
    return chosen
