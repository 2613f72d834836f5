"""How each strength of hunt bot plays, and rounds between bots played without a database.

A profile says a bot's pace, the words within its reach (how common and how long), the
share of those it ever sees (``recall``), whether it prefers common words or high
scores, and how soon after the board shows it starts. ``plan`` orders a board's words
the way a bot of that strength would find them; the site's bots (``services.bots``)
and the simulated rounds here (``play_round``, used to measure the strengths and to
rate them, ``manage.py hunt_bot_ratings``) play the same plan at the same pace. Pure:
no Django, no clock, randomness only from seeds.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from games.engine import hunt


@dataclass(frozen=True)
class BotProfile:
    pace: tuple[float, float]  # seconds between submissions, low and high
    min_zipf: float  # words rarer than this are beyond the bot
    max_letters: int
    weight_points: float  # 0: most common first; 1: most points first
    first_turn: float  # seconds after the board shows
    recall: float  # the share of the words within its reach that it ever sees


#: From a beginner who finds a few common short words to a master who finds nearly all.
#: Measured shares of the words and ratings: docs/bots.md, ``games/engine/data/bot_ratings.json``.
PROFILES = {
    "beginner": BotProfile(
        pace=(10.0, 18.0), min_zipf=4.0, max_letters=5, weight_points=0.0, first_turn=8.0, recall=0.5
    ),
    "easy": BotProfile(pace=(7.0, 12.0), min_zipf=3.3, max_letters=5, weight_points=0.0, first_turn=5.0, recall=0.7),
    "medium": BotProfile(pace=(4.5, 8.0), min_zipf=2.5, max_letters=7, weight_points=0.3, first_turn=3.0, recall=0.8),
    "hard": BotProfile(pace=(2.8, 5.5), min_zipf=1.5, max_letters=9, weight_points=0.6, first_turn=2.0, recall=0.9),
    "master": BotProfile(pace=(1.8, 4.0), min_zipf=0.0, max_letters=16, weight_points=1.0, first_turn=1.5, recall=1.0),
}

#: The strengths from weakest to strongest.
STRENGTHS = tuple(PROFILES)

#: A bot has good rounds and bad ones, as people do: each round it plays at a *form*
#: drawn from a log-normal spread of this width (1.0 is its usual self), which divides
#: its pauses and multiplies its recall. Without it a stronger level would beat a weaker
#: one in every round, and nobody could beat a bot a little above them now and then.
FORM_SPREAD = 0.3


def form(seed: str, bot: object) -> float:
    """How well ``bot`` plays the round of ``seed`` (seeded: the same round, the same form)."""
    return math.exp(random.Random(f"{seed}:{bot}:form").gauss(0.0, FORM_SPREAD))


def first_turn_delay(strength: str) -> float:
    return PROFILES[strength].first_turn


def between(weaker: BotProfile, stronger: BotProfile, share: float) -> BotProfile:
    """A profile ``share`` of the way from ``weaker`` to ``stronger`` (each setting in proportion):
    the rungs between two levels that rating them needs (``manage.py hunt_bot_ratings``)."""

    def mix(a: float, b: float) -> float:
        return a + (b - a) * share

    return BotProfile(
        pace=(mix(weaker.pace[0], stronger.pace[0]), mix(weaker.pace[1], stronger.pace[1])),
        min_zipf=mix(weaker.min_zipf, stronger.min_zipf),
        max_letters=round(mix(weaker.max_letters, stronger.max_letters)),
        weight_points=mix(weaker.weight_points, stronger.weight_points),
        first_turn=mix(weaker.first_turn, stronger.first_turn),
        recall=mix(weaker.recall, stronger.recall),
    )


def _profile(strength: str | BotProfile) -> BotProfile:
    return strength if isinstance(strength, BotProfile) else PROFILES[strength]


def plan(
    rules: hunt.HuntRules,
    board: hunt.Board,
    on_board: Mapping[str, hunt.Path],
    strength: str | BotProfile,
    rng: random.Random,
    frequency: Callable[[str], float],
    form: float = 1.0,
) -> tuple[str, ...]:
    """The words of ``on_board`` (word -> path) a bot of ``strength`` (a name or a profile)
    will go for in a round it plays at ``form``, in the order it goes for them."""
    profile = _profile(strength)
    recall = min(1.0, profile.recall * form)
    scored = []
    for word in sorted(on_board):
        # Both draws are made for every word, so a word's fate does not hang on the others'.
        seen, noise = rng.random(), rng.uniform(0, 1.5)
        zipf = frequency(word)
        if zipf < profile.min_zipf or len(word) > profile.max_letters or seen >= recall:
            continue
        points = hunt.word_points(rules, board, word, on_board[word])
        # Blend commonness (0–8 Zipf) and points, plus noise so bots differ.
        key = (1 - profile.weight_points) * zipf + profile.weight_points * points + noise
        scored.append((-key, word))
    scored.sort()
    return tuple(word for _, word in scored)


def pause(strength: str | BotProfile, seed: str, bot: object, found: int) -> float:
    """Seconds a bot waits after a turn, drawn from its pace at its form (seeded by the
    round, the bot and how many words are taken, as the site draws it)."""
    return random.Random(f"{seed}:{bot}:{found}").uniform(*_profile(strength).pace) / form(seed, bot)


@dataclass(frozen=True)
class RoundResult:
    scores: tuple[int, ...]
    found: tuple[tuple[str, ...], ...]  # each bot's words in the order submitted
    kept: tuple[tuple[str, ...], ...]  # each bot's words that scored (Classic: not crossed off)
    total_words: int


def play_round(
    rules: hunt.HuntRules,
    board: hunt.Board,
    on_board: Mapping[str, hunt.Path],
    strengths: Sequence[str | BotProfile],
    seed: str,
    frequency: Callable[[str], float],
    *,
    total_words: int | None = None,
) -> RoundResult:
    """A round between bots of ``strengths`` (seat order) on ``board``, as the site plays it.

    Each bot's turns come at its first-turn delay and then at its pace; a turn submits
    the next word of its plan not taken yet (in Rampage a word goes to whoever submits
    it first; in Classic each keeps its own list, and words on two lists are crossed off
    at the end). A bot stops when its next turn would come after the deadline.
    """
    plans = [
        plan(rules, board, on_board, strength, random.Random(f"{seed}:{seat}"), frequency, form(seed, seat))
        for seat, strength in enumerate(strengths)
    ]
    lists: list[list[str]] = [[] for _ in strengths]
    taken: set[str] = set()
    positions = [0] * len(strengths)
    turns = [(_profile(strength).first_turn, seat) for seat, strength in enumerate(strengths)]
    heapq.heapify(turns)
    classic = rules.game == "classic"
    while turns:
        now, seat = heapq.heappop(turns)
        mine = set(lists[seat]) if classic else taken
        words = plans[seat]
        while positions[seat] < len(words) and words[positions[seat]] in mine:
            positions[seat] += 1
        if positions[seat] >= len(words):
            continue
        word = words[positions[seat]]
        wait = pause(strengths[seat], seed, seat, len(mine))
        lists[seat].append(word)
        taken.add(word)
        if rules.round_seconds - now > wait:
            heapq.heappush(turns, (now + wait, seat))
    if classic:
        left, _ = hunt.cross_off({seat: words for seat, words in enumerate(lists)})
        kept = [tuple(word for word in words if word in left[seat]) for seat, words in enumerate(lists)]
    else:
        kept = [tuple(words) for words in lists]
    scores = tuple(
        sum(hunt.word_points(rules, board, word, hunt.find_path(board, word)) for word in words) for words in kept
    )
    return RoundResult(
        scores,
        tuple(tuple(words) for words in lists),
        tuple(kept),
        len(on_board) if total_words is None else total_words,
    )
