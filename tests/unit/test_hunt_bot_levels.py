"""Hunt bot levels: from a beginner who finds a small share of a board's words to a
master who finds most, rounds between bots replayed exactly from their seeds."""

from __future__ import annotations

import random
import statistics

import pytest

from games.engine import hunt
from games.hunts import bot_profiles
from lexicon import offensive
from lexicon.frequency import zipf
from lexicon.wordlists import compile_lexicon


@pytest.fixture(scope="module")
def boards():
    lexicon = compile_lexicon("en")
    clean = offensive.clean_lexicon(lexicon)
    found = []
    for number in range(12):
        board = hunt.new_board(hunt.CLASSIC_5, f"levels/{number}", lexicon)
        found.append((board, hunt.solve(board, clean, 4), len(hunt.solve(board, lexicon, 4))))
    return found


def test_the_levels_span_a_small_share_of_the_words_to_most_of_them(boards):
    shares = {}
    for level in bot_profiles.STRENGTHS:
        shares[level] = statistics.mean(
            len(bot_profiles.play_round(hunt.CLASSIC_5, board, words, [level], f"levels/{n}", zipf).found[0]) / total
            for n, (board, words, total) in enumerate(boards)
        )
    ordered = [shares[level] for level in bot_profiles.STRENGTHS]
    assert ordered == sorted(ordered)
    assert shares["beginner"] < 0.15
    assert shares["master"] > 0.6


def test_a_round_replays_from_its_seed_and_crosses_off_common_words(boards):
    board, words, _ = boards[0]
    seats = ["medium", "master"]
    first = bot_profiles.play_round(hunt.CLASSIC_5, board, words, seats, "replay", zipf)
    assert first == bot_profiles.play_round(hunt.CLASSIC_5, board, words, seats, "replay", zipf)
    common = set(first.found[0]) & set(first.found[1])
    assert common, "two bots on one board find some of the same words"
    for found, kept in zip(first.found, first.kept, strict=True):
        assert set(kept) == set(found) - common
    assert first.scores == tuple(sum(hunt.classic_points(word) for word in kept) for kept in first.kept)


def test_in_rampage_a_word_goes_to_one_bot_only(boards):
    lexicon = compile_lexicon("en")
    board = hunt.new_board(hunt.RAMPAGE, "rampage-levels", lexicon)
    words = hunt.solve(board, offensive.clean_lexicon(lexicon), 2)
    result = bot_profiles.play_round(hunt.RAMPAGE, board, words, ["master", "master"], "r", zipf)
    assert result.found[0] and result.found[1]
    assert not set(result.found[0]) & set(result.found[1])


def test_a_plan_keeps_only_words_within_reach(boards):
    board, words, _ = boards[1]
    plan = bot_profiles.plan(hunt.CLASSIC_5, board, words, "beginner", random.Random(1), zipf)
    profile = bot_profiles.PROFILES["beginner"]
    assert plan and all(zipf(w) >= profile.min_zipf and len(w) <= profile.max_letters for w in plan)
    between = bot_profiles.between(bot_profiles.PROFILES["easy"], bot_profiles.PROFILES["medium"], 0.5)
    assert bot_profiles.PROFILES["easy"].recall < between.recall < bot_profiles.PROFILES["medium"].recall


def test_the_rating_command_rates_the_ladder_reproducibly():
    """hunt_bot_ratings' calibration: the same seed gives the same entry, the anchor at 1500,
    the levels in order, from results between the ladder's neighbouring steps."""
    from games.hunts.management.commands.hunt_bot_ratings import ANCHOR, calibrate

    entry = calibrate("classic4", 3, "check")
    assert entry == calibrate("classic4", 3, "check")
    ratings = [entry["levels"][level]["rating"] for level in bot_profiles.STRENGTHS]
    assert entry["levels"][ANCHOR]["rating"] == 1500 and ratings == sorted(ratings)
    assert all(0 < entry["levels"][level]["share_of_words"] < 1 for level in bot_profiles.STRENGTHS)
    assert {"beginner", "beginner+1"} <= {name for pair in entry["results"] for name in pair[:2]}
