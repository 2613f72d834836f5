"""Crossword bots (games.engine.crossword_bot), leave values and self-play, on the real word lists."""

import functools
import io
import json
import random
from dataclasses import replace

import pytest

from games.engine import crossword_bot, leaves, movegen, selfplay
from games.engine.crossword import WORD_GRID, WORDGAME, evaluate
from games.engine.crossword_bot import Position, choose
from games.engine.crossword_game import PASS, PLACE, SWAP, Move, new_game
from lexicon.frequency import zipf


@pytest.fixture(scope="module")
def lexicons():
    from lexicon import wordlists

    return {WORD_GRID: wordlists.compile_lexicon("common"), WORDGAME: wordlists.compile_lexicon("wordgame")}


def check_legal(before, move, after):
    """A bot's move is one the rules accept, checked apart from ``Game.apply``."""
    seat = move.seat
    assert seat == before.to_move
    rack = list(before.racks[seat])
    if move.kind == PLACE:
        play = evaluate(before.board, move.placement, before.variant, before.lexicon)
        assert after.turns[-1].score == play.score
        for _, _, letter, blank in move.placement:
            rack.remove("?" if blank else letter)  # the tiles are on the rack
    elif move.kind == SWAP:
        assert 0 < len(move.tiles) <= len(before.bag)
        for tile in move.tiles:
            rack.remove(tile)
    else:
        assert move.kind == PASS


@pytest.mark.parametrize("variant", [WORD_GRID, WORDGAME], ids=["wordgrid", "wordgame"])
@pytest.mark.parametrize("bots", [("beginner", "expert"), ("casual", "club"), ("greedy", "expert")])
def test_every_bot_move_is_accepted_by_evaluate(lexicons, variant, bots):
    """Whole seeded games between bots of every strength: each move is legal, none errs,
    and each game ends by the rules."""
    for number in range(2):
        result = selfplay.play_game(
            variant, lexicons[variant], bots, f"legal/{number}", frequency=zipf, on_turn=check_legal
        )
        assert result.errors == 0
        assert result.game.is_over


def test_selfplay_times_moves_by_the_clock_it_is_given(lexicons):
    """Each move's time is read from the caller's clock (milliseconds); without a
    clock no time is kept."""
    ticks = iter(range(10_000))
    result = selfplay.play_game(
        WORDGAME, lexicons[WORDGAME], ("greedy", "greedy"), "clock", clock=lambda: next(ticks) / 1000
    )
    assert [ms for seat in result.move_ms for ms in seat] == pytest.approx([1.0] * len(result.game.turns))
    untimed = selfplay.play_game(WORDGAME, lexicons[WORDGAME], ("greedy", "greedy"), "clock")
    assert untimed.move_ms == [[], []] and untimed.scores == result.scores


def test_word_grid_bots_play_three_and_four_seat_games(lexicons):
    """Bots handle more than one opponent (no endgame look-ahead with unknown racks)."""
    result = selfplay.play_game(
        WORD_GRID,
        lexicons[WORD_GRID],
        ("expert", "club", "casual", "beginner"),
        "four",
        frequency=zipf,
        on_turn=check_legal,
    )
    assert result.errors == 0 and result.game.is_over


@pytest.mark.parametrize("strength", crossword_bot.BOT_NAMES)
def test_same_seed_same_move(lexicons, strength):
    """Randomness comes only from the Random passed in: same seed, same move."""
    game = new_game(WORDGAME, 2, "repeat", lexicons[WORDGAME])
    position = Position.of(game)
    first = choose(position, strength, random.Random(3), frequency=zipf)
    assert first == choose(position, strength, random.Random(3), frequency=zipf)


def test_position_shows_only_what_the_seat_may_see(lexicons):
    """The bot's view holds its own rack, the bag's size and the unseen tiles, not the bag."""
    game = new_game(WORD_GRID, 2, "view", lexicons[WORD_GRID])
    position = Position.of(game, 0)
    assert position.rack == game.racks[0]
    assert position.bag_size == len(game.bag)
    assert position.unseen == game.unseen(0)
    assert not hasattr(position, "bag")
    assert position.opponent_rack is None  # tiles still in the bag: not known


def test_unknown_strength_is_refused(lexicons):
    game = new_game(WORD_GRID, 2, "x", lexicons[WORD_GRID])
    with pytest.raises(ValueError):
        choose(Position.of(game), "grandmaster", random.Random(1))


def test_beginner_plays_common_words_and_rarely_the_best_move(lexicons):
    """Over many openings the beginner's words are common and its play seldom the top score."""
    lexicon = lexicons[WORD_GRID]
    best_taken = 0
    for number in range(12):
        game = new_game(WORD_GRID, 2, f"beginner/{number}", lexicon)
        position = Position.of(game)
        move = choose(position, "beginner", random.Random(number), frequency=zipf)
        if move.kind != PLACE:
            continue
        play = evaluate(game.board, move.placement, WORD_GRID, lexicon)
        assert all(zipf(word) >= crossword_bot.BEGINNER_MIN_ZIPF for word, _ in play.words)
        best_taken += play.score == movegen.best(game.board, position.rack, WORD_GRID, lexicon).score
    assert best_taken <= 4


def test_club_and_expert_rank_by_equity_not_score(lexicons):
    """Club chooses the play with the best score plus leave value; the expert one of
    its best few by that equity (the next player's reply decides between them)."""
    lexicon = lexicons[WORD_GRID]
    game = new_game(WORD_GRID, 2, "equity/1", lexicon)
    position = Position.of(game)
    for strength, value in (("club", leaves.heuristic_value), ("expert", leaves.learned("wordgrid"))):
        move = choose(position, strength, random.Random(1))
        ranked = crossword_bot.ranked(position, value, crossword_bot.REPLY_CANDIDATES)
        assert ranked[0].equity == ranked[0].score + value(ranked[0].leave)
        assert move.kind == PLACE
        if strength == "club":
            assert sorted(move.placement) == sorted(ranked[0].placement)
        else:
            assert sorted(move.placement) in [sorted(play.placement) for play in ranked]
        static = crossword_bot._by_equity(position, value, look_ahead=False)
        assert sorted(static.placement) == sorted(ranked[0].placement)


def test_expert_swaps_a_hopeless_rack(lexicons):
    """With a rack of duplicates and awkward letters and a full bag, the expert swaps and
    keeps the tiles worth keeping."""
    game = new_game(WORD_GRID, 2, "swap", lexicons[WORD_GRID])
    game = replace(game, racks=("iiuuvvw", game.racks[1]))
    move = choose(Position.of(game), "expert", random.Random(1))
    assert move.kind == SWAP
    assert "v" in move.tiles and "u" in move.tiles


def test_expert_goes_out_when_it_beats_the_top_score(lexicons):
    """Bag empty: greedy plays its 11-point play, the expert goes out for 10 plus twice the
    opponent's tiles (found by replaying seed "end5" with greedy bots for 27 turns)."""
    lexicon = lexicons[WORD_GRID]
    game = new_game(WORD_GRID, 2, "end5", lexicon)
    rng = random.Random(5)
    for _ in range(27):
        game = game.apply(choose(Position.of(game), "greedy", rng))
    position = Position.of(game)
    assert not game.bag and position.opponent_rack == game.racks[1 - game.to_move]
    greedy = choose(position, "greedy", rng)
    expert = choose(position, "expert", rng)
    assert len(greedy.placement) < len(position.rack)
    assert len(expert.placement) == len(position.rack)


def test_endgame_blocks_the_opponents_big_reply(lexicons):
    """Bag empty, seed "block19" after greedy turns: greedy's top play opens a 45-point
    reply; the expert's play nets more once the opponent's best reply is counted."""
    lexicon = lexicons[WORD_GRID]
    game = new_game(WORD_GRID, 2, "block19", lexicon)
    rng = random.Random(19)
    while game.bag:
        game = game.apply(choose(Position.of(game), "greedy", rng))
    position = Position.of(game)
    opponent = position.opponent_rack

    def net(move):
        play = evaluate(game.board, move.placement, WORD_GRID, lexicon)
        reply = movegen.best(game.board.with_tiles(move.placement), opponent, WORD_GRID, lexicon)
        return play.score, reply.score if reply else 0

    greedy_score, greedy_reply = net(choose(position, "greedy", rng))
    expert_score, expert_reply = net(choose(position, "expert", rng))
    assert greedy_reply >= 40 and expert_reply < greedy_reply
    assert expert_score - expert_reply > greedy_score - greedy_reply


# -- leaves ---------------------------------------------------------------------------


def test_leave_features_compose_a_value():
    """A leave's value is the sum of its features' weights; the empty leave is worth 0."""
    assert leaves.features("") == []
    assert leaves.features("ees") == ["e", "e2", "s", "e+s", "v2c1"]
    table = leaves.LeaveTable({"e": 1.0, "e2": -2.0, "s": 5.0, "e+s": 0.5, "v2c1": 0.25})
    assert table.value("ees") == pytest.approx(1.0 - 2.0 + 5.0 + 0.5 + 0.25)
    assert table.value("") == 0.0


@pytest.mark.parametrize("variant", ["wordgrid", "wordgame"])
def test_shipped_tables_were_learned_and_make_sense(variant):
    """The shipped tables record how they were built, and rank leaves as players know:
    a blank is the best tile to keep, V and U are in the worse half, duplicates hurt,
    a Q costs."""
    path = leaves.DATA_DIR / f"leaves_{variant}.json"
    data = json.loads(path.read_text())
    assert data["settings"]["variant"] == variant
    assert data["settings"]["command"].startswith("python -m scripts.learn_leaves")
    assert sum(r["samples"] for r in data["settings"]["history"]) >= 5000
    table = leaves.learned(variant)
    singles = {tile: table.value(tile) for tile in "abcdefghijklmnopqrstuvwxyz?"}
    ranked = sorted(singles, key=singles.get, reverse=True)
    assert ranked.index("?") == 0 and singles["?"] > singles["s"] > singles["v"]
    assert ranked.index("v") >= 13 and ranked.index("u") >= 13
    for vowel in "aiou":
        assert table.value(vowel * 2) < table.value(vowel)
    assert table.value("iii") < table.value("ii")
    # As strong programs' leaves have it: a blank and an S are worth points, the blank
    # most, and more together; a Q costs points; a second copy of a common tile costs.
    # Word Grid's common words have no Q without a U but BURQA: there a Q costs more
    # than a V, and keeping it with an A (no U) costs. (Wordgame's list has QI, QAT,
    # QAID...: a Q hurts less there.)
    assert singles["?"] > 15 and singles["s"] > 4 and table.value("?s") > singles["?"]
    assert singles["q"] < 0 and singles["q"] < singles["e"] - 2
    if variant == "wordgrid":
        assert singles["q"] < singles["v"] and table.value("aq") < table.value("a") - 4
    for tile in "aeinorstu":
        assert table.value(tile * 2) < 2 * table.value(tile)


def test_learning_fits_a_known_linear_rule():
    """The ridge fit recovers feature weights from leaves scored by a known rule."""
    from scripts.learn_leaves import fit

    truth = leaves.LeaveTable({"s": 8.0, "q": -6.0, "e2": -3.0})
    totals = {}
    for leave in ("s", "q", "e", "ee", "qs", "es", "ees", "eq", "eeq", "", "a", "as", "aq"):
        totals[leave] = [100, 100 * (20.0 + truth.value(leave))]
    weights, bias = fit(totals, ridge=0.001)
    learned = leaves.LeaveTable(weights)
    assert bias == pytest.approx(20.0, abs=0.5)
    for leave in ("s", "q", "ees", "eeq"):
        assert learned.value(leave) == pytest.approx(truth.value(leave), abs=0.5)


def test_simulation_samples_leaves_from_real_positions():
    """The simulate method notes, for random leaves of mid-game racks, the best score a
    random refill makes: every leave is shorter than a rack and each sample is a score.
    The paired method notes how much more that scores than a fresh rack drawn from the
    same tiles: every leave keeps a tile, and the differences go both ways."""
    import time as clock

    from scripts.learn_leaves import SIMULATIONS_PER_POSITION, _paired_worker, _simulate_worker

    games, totals = _simulate_worker(("wordgrid", None, "sim-test", 0, clock.monotonic() + 2))
    assert games >= 1
    samples = sum(n for n, _ in totals.values())
    assert samples and samples % SIMULATIONS_PER_POSITION == 0
    assert all(len(leave) < WORD_GRID.rack_size and total >= 0 for leave, (n, total) in totals.items())
    games, totals = _paired_worker(("wordgrid", None, "sim-test", 0, clock.monotonic() + 2))
    assert games >= 1 and sum(n for n, _ in totals.values()) % SIMULATIONS_PER_POSITION == 0
    assert all(0 < len(leave) < WORD_GRID.rack_size for leave in totals)
    assert min(total for _, total in totals.values()) < 0 < max(total for _, total in totals.values())


def test_equity_learning_counts_the_leave_after_the_next_turn(lexicons):
    """The equity method values a refilled rack by its best play's score plus the
    table's value of what that play keeps (or the best swap, or passing): a Q that
    stays on the rack still costs after the next turn. Its samples are paired with a
    fresh rack from the same tiles, so they go both ways, and every leave keeps a tile."""
    import time as clock

    from scripts.learn_leaves import SIMULATIONS_PER_POSITION, _equity_worker, best_equity

    game = _mid_game(lexicons, WORD_GRID, "equity-target")
    lexicon = lexicons[WORD_GRID]
    table = leaves.LeaveTable({"q": -10.0, "s": 6.0, "e2": -3.0})
    for rack in ("aeiqrst", "eeqsuv?", "bcdfghj"):
        plays = movegen.generate(game.board, rack, WORD_GRID, lexicon)
        by_play = max(p.score + 0.5 * table(movegen.leave_of(rack, p.placement)) for p in plays)
        assert best_equity(game.board, rack, WORD_GRID, lexicon, table, 0.5, False) == pytest.approx(
            max(by_play, 0.5 * table(rack))
        )
        swaps = max(0.5 * table(kept) for kept in crossword_bot._subsets(rack) if len(kept) < len(rack))
        assert best_equity(game.board, rack, WORD_GRID, lexicon, table, 0.5, True) == pytest.approx(
            max(by_play, swaps, 0.5 * table(rack))
        )
    games, totals = _equity_worker(("wordgrid", None, "equity-test", 0, clock.monotonic() + 2))
    assert games >= 1 and sum(n for n, _ in totals.values()) % SIMULATIONS_PER_POSITION == 0
    assert all(0 < len(leave) < WORD_GRID.rack_size for leave in totals)
    assert min(total for _, total in totals.values()) < 0 < max(total for _, total in totals.values())


def test_learning_without_a_bias_measures_leaves_against_a_fresh_rack():
    """Targets already measured against a fresh rack: the bias is pinned to 0 and the
    weights carry the whole difference."""
    from scripts.learn_leaves import fit

    truth = leaves.LeaveTable({"s": 8.0, "q": -6.0, "e2": -3.0})
    totals = {leave: [100, 100 * truth.value(leave)] for leave in ("s", "q", "e", "ee", "qs", "es", "ees", "eq")}
    weights, bias = fit(totals, ridge=0.001, with_bias=False)
    assert bias == 0.0
    for leave in ("s", "q", "ees", "qs"):
        assert leaves.LeaveTable(weights).value(leave) == pytest.approx(truth.value(leave), abs=0.5)


def test_learning_shrinks_toward_a_prior_table():
    """With a prior, a feature the samples never show keeps the prior's weight."""
    from scripts.learn_leaves import fit

    totals = {"s": [50, 50 * 28.0], "": [50, 50 * 20.0]}
    weights, _ = fit(totals, ridge=10.0, prior={"q": -6.0, "s": 8.0})
    assert weights["q"] == pytest.approx(-6.0)
    assert 0 < weights["s"]


def test_selfplay_summary_counts_wins_draws_and_times():
    from games.crosswords.management.commands.selfplay import summarise

    games = [
        {
            "seats": ["a", "b"],
            "scores": [300, 250],
            "winners": [0],
            "move_ms": [10.0, 30.0],
            "moves": [10, 10],
            "errors": 0,
            "move_times": [[1.0, 2.0, 7.0], []],  # each move's time, where kept
        },
        {
            "seats": ["b", "a"],
            "scores": [280, 280],
            "winners": [0, 1],
            "move_ms": [20.0, 10.0],
            "moves": [10, 10],
            "errors": 1,
        },
    ]
    summary = summarise(["a", "b"], games)
    assert summary == {
        "games": 2,
        "errors": 1,
        "bots": {
            "a": {
                "wins": 1,
                "draws": 1,
                "avg_score": 290.0,
                "avg_move_ms": 1.0,
                "worst_move_ms": 0.0,
                "median_move_ms": 2.0,
            },
            "b": {
                "wins": 0,
                "draws": 1,
                "avg_score": 265.0,
                "avg_move_ms": 2.5,
                "worst_move_ms": 0.0,
                "median_move_ms": None,
            },
        },
        # a won one game and drew one: 1.5 points of 2, with its 95 % Wilson interval
        "share": {"share": 0.75, "low": 0.1979, "high": 0.9733},
    }


def test_selfplay_share_interval_narrows_with_more_games():
    from games.crosswords.management.commands.selfplay import share_interval

    assert share_interval(220, 400) == {"share": 0.55, "low": 0.501, "high": 0.598}
    assert share_interval(0, 3)["low"] == 0.0 and share_interval(3, 3)["high"] == 1.0


def test_selfplay_resumes_a_stopped_run_from_its_results_file(tmp_path):
    """With --results, a run plays only the games the file does not hold yet, and sums up
    all of them: stopped after two games and run again for four, it equals one run of four."""
    from django.core.management import call_command

    def run(games, results=None):
        out, err = io.StringIO(), io.StringIO()
        arguments = ["--variant", "wordgame", "--games", str(games), "--bots", "greedy,club", "--seed", "resume"]
        call_command("selfplay", *arguments, *(["--results", str(results)] if results else []), stdout=out, stderr=err)
        return json.loads(out.getvalue().splitlines()[-1]), err.getvalue()

    def without_times(summary):
        for bot in summary["bots"].values():
            bot.pop("avg_move_ms"), bot.pop("worst_move_ms"), bot.pop("median_move_ms")
        return summary

    path = tmp_path / "games.jsonl"
    first, _ = run(2, path)
    assert first["games"] == 2
    with path.open("a") as stream:
        stream.write('{"run": "cut sh')  # a line a stopped run left half written
    resumed, said = run(4, path)
    assert "2 games already in" in said and "2 to play" in said
    lines = [line for line in path.read_text().splitlines() if not line.startswith('{"run": "cut')]
    assert sorted(json.loads(line)["number"] for line in lines) == [0, 1, 2, 3]
    assert without_times(resumed) == without_times(run(4)[0])
    other, said = run(1, tmp_path / "other.jsonl")  # another file: nothing to resume
    assert other["games"] == 1 and "already" not in said


def test_selfplay_pairs_games_on_one_deal_with_the_seats_swapped(tmp_path, lexicons):
    """With --paired, games 2k and 2k + 1 are played from the same seed, the bots in
    each other's seats: the file's games are those two games played directly."""
    from django.core.management import call_command

    path = tmp_path / "paired.jsonl"
    arguments = ["--variant", "wordgame", "--games", "2", "--bots", "greedy,club", "--seed", "pair", "--paired"]
    call_command("selfplay", *arguments, "--results", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    games = sorted((json.loads(line) for line in path.read_text().splitlines()), key=lambda game: game["number"])
    assert [game["seats"] for game in games] == [["greedy", "club"], ["club", "greedy"]]
    for game in games:
        direct = selfplay.play_game(WORDGAME, lexicons[WORDGAME], game["seats"], "pair/0", frequency=zipf)
        assert list(direct.scores) == game["scores"]


def _mid_game(lexicons, variant, seed, turns=6):
    game = new_game(variant, 2, seed, lexicons[variant])
    for _ in range(turns):
        game = game.apply(choose(Position.of(game), "greedy", random.Random(0)))
    return game


@pytest.mark.parametrize("variant", [WORD_GRID, WORDGAME], ids=["wordgrid", "wordgame"])
def test_champion_plays_whole_games_legally(lexicons, variant):
    """Seeded games of a champion (on a small budget) against the expert: every move is
    legal and the game ends by the rules."""
    small = functools.partial(crossword_bot.choose, budget=40)
    result = selfplay.play_game(
        variant, lexicons[variant], ("champion", "expert"), "champion", on_turn=check_legal, choose=small
    )
    assert result.errors == 0 and result.game.is_over


def test_champion_spends_no_more_than_its_budget(lexicons):
    """The simulation stops before a round would pass the budget (two move searches a
    candidate a round); each candidate still in contention met every round, and those
    dropped met fewer."""
    position = Position.of(_mid_game(lexicons, WORDGAME, "budget"))
    table = leaves.learned("wordgame")
    pool = crossword_bot.champion_candidates(position, table)
    assert len(pool) > 2
    plies = crossword_bot.CHAMPION_PLIES
    # Fewer rounds than CHAMPION_MIN_ROUNDS: nothing is dropped, the budget ends it.
    spent = crossword_bot.simulate(position, pool, table, random.Random(3), budget=40)
    assert 40 - plies * len(pool) < spent <= 40
    assert plies * sum(len(candidate.values) for candidate in pool) == spent
    assert {len(candidate.values) for candidate in pool} == {40 // (plies * len(pool))}
    # More: a candidate clearly behind is dropped and meets no more rounds; the
    # simulation ends when one is left or the next round would pass the budget.
    pool = crossword_bot.champion_candidates(position, table)
    spent = crossword_bot.simulate(position, pool, table, random.Random(3), budget=400)
    alive = [candidate for candidate in pool if not candidate.dropped]
    assert len(alive) < len(pool) and spent <= 400
    assert len(alive) == 1 or 400 - plies * len(alive) < spent
    assert plies * sum(len(candidate.values) for candidate in pool) == spent
    most = max(len(candidate.values) for candidate in pool)
    assert all(len(candidate.values) == most for candidate in alive)
    assert all(crossword_bot.CHAMPION_MIN_ROUNDS <= len(c.values) <= most for c in pool if c.dropped)


def test_a_small_budget_simulates_fewer_candidates(lexicons):
    """Each candidate is to meet CHAMPION_ROUNDS_EACH rounds: a budget too small for all
    the plays within reach of the best takes fewer (two at least), the worker's takes all."""
    position = Position.of(_mid_game(lexicons, WORDGAME, "few"))
    table = leaves.learned("wordgame")

    def plays(budget):
        return [c for c in crossword_bot.champion_candidates(position, table, budget) if c.move.kind == PLACE]

    within = plays(None)
    assert len(within) > 3
    assert len(plays(3000)) == len(within)
    assert len(plays(128)) == 128 // (crossword_bot.CHAMPION_PLIES * crossword_bot.CHAMPION_ROUNDS_EACH) - 1 == 3
    assert len(plays(100)) == 2 and len(plays(10)) == 2


def test_champion_stops_when_out_of_time(lexicons):
    """``out_of_time`` is asked before each rack: answering yes at once means no search."""
    position = Position.of(_mid_game(lexicons, WORDGAME, "time"))
    table = leaves.learned("wordgame")
    pool = crossword_bot.champion_candidates(position, table)
    asked = []
    spent = crossword_bot.simulate(position, pool, table, random.Random(3), 400, lambda: asked.append(1) or True)
    assert spent == 0 and asked == [1]
    move = choose(position, "champion", random.Random(3), out_of_time=lambda: True)
    assert move == pool[0].move  # no sample: the best static equity


def test_a_candidate_clearly_behind_the_leader_is_dropped():
    """Paired differences: a candidate behind the leader on every rack goes, one whose
    difference is within the noise stays."""
    from games.engine.crossword import Board

    def candidate(values):
        return crossword_bot.Candidate(Move.pass_(0), 0.0, Board.empty(), list(values))

    leader = candidate([30, 10, 25, 5, 40, 20])
    behind = candidate([v - 6 for v in leader.values])
    close = candidate([31, 4, 29, 0, 44, 19])
    assert crossword_bot._still_in_contention([behind, leader, close]) == [leader, close]


def test_champion_plays_no_candidate_it_dropped(lexicons, monkeypatch):
    """A dropped candidate's mean is over its first rounds only: however high, it is
    not compared with the means of the candidates that met every round."""
    position = Position.of(_mid_game(lexicons, WORDGAME, "dropped"))
    table = leaves.learned("wordgame")
    pool = crossword_bot.champion_candidates(position, table)[:3]

    def simulate(position, pool, *args):
        pool[0].values, pool[0].dropped = [50.0] * 8, True  # lucky early rounds, then dropped
        pool[1].values = [30.0] * 20
        pool[2].values = [20.0] * 20

    monkeypatch.setattr(crossword_bot, "champion_candidates", lambda *args: pool)
    monkeypatch.setattr(crossword_bot, "simulate", simulate)
    assert choose(position, "champion", random.Random(1)) == pool[1].move


def test_a_swap_goes_back_into_the_bag_before_the_draw():
    """The rules shuffle a swap's tiles into the bag before the new ones are drawn:
    the simulation puts each at a random place (so they may be drawn again at once),
    keeps the order of the tiles already there, and is seeded."""
    bag = list("abcdefghijklmnoprstu")
    drawn_again = 0
    for seed in range(400):
        mixed = list(bag)
        crossword_bot.shuffle_back(mixed, "qvv", random.Random(seed))
        assert sorted(mixed) == sorted(bag + list("qvv"))
        assert [tile for tile in mixed if tile not in "qv"] == bag
        drawn_again += sum(tile in "qv" for tile in mixed[:7])
    assert 0.8 < drawn_again / 400 / (3 * 7 / 23) < 1.2  # 7 draws of 23 tiles, 3 of them ours
    once, twice = list(bag), list(bag)
    crossword_bot.shuffle_back(once, "qvv", random.Random(9))
    crossword_bot.shuffle_back(twice, "qvv", random.Random(9))
    assert once == twice


def test_champion_values_a_candidate_over_two_plies(lexicons, monkeypatch):
    """A round's value is the candidate's score, less the next player's best answer by
    equity (their leave counts) on the rack drawn, plus our best play by equity from the
    leave refilled from the bag's order, plus the value of the tiles that play keeps,
    less the value of the tiles their answer kept."""
    monkeypatch.setattr(crossword_bot, "CHAMPION_MIN_ROUNDS", 100)  # both see all 3 rounds
    position = Position.of(_mid_game(lexicons, WORDGAME, "concede"))
    variant, lexicon = position.variant, position.lexicon
    assert position.bag_size > 3 * variant.rack_size  # leaves count fully on both plies
    table = leaves.learned("wordgame")
    pool = [c for c in crossword_bot.champion_candidates(position, table) if c.move.kind == PLACE][:2]
    crossword_bot.simulate(position, pool, table, random.Random(5), budget=12)
    rounds = random.Random(5)
    unseen, size = position.unseen, variant.rack_size
    expected = {id(candidate): [] for candidate in pool}
    for _ in range(3):
        order = rounds.sample(unseen, len(unseen))
        rack, bag = "".join(sorted(order[:size])), order[size:]
        for candidate in pool:
            drawn = size - len(candidate.kept)
            ours = "".join(sorted(candidate.kept + "".join(bag[:drawn])))
            reply = movegen.best(candidate.board, rack, variant, lexicon, leave_value=table)
            assert reply.equity == pytest.approx(reply.score + table(reply.leave))
            mine = movegen.best(candidate.board.with_tiles(reply.placement), ours, variant, lexicon, leave_value=table)
            expected[id(candidate)].append(
                candidate.score - reply.score + mine.score + table(mine.leave) - table(reply.leave)
            )
    for candidate in pool:
        assert candidate.values == pytest.approx(expected[id(candidate)])


def test_move_from_bot_round_trips_for_storage(lexicons):
    """A bot's move is a plain engine Move: it stores and loads like a person's."""
    game = new_game(WORD_GRID, 2, "store", lexicons[WORD_GRID])
    move = choose(Position.of(game), "expert", random.Random(1))
    assert Move.from_dict(move.to_dict()) == move


# -- the champion's endgame -----------------------------------------------------------


def _bag_emptied(lexicons, variant, seed):
    """A game the expert played on until the bag ran out (seeded: the same game each time)."""
    game = new_game(variant, 2, seed, lexicons[variant])
    rng = random.Random(seed)
    while game.bag and not game.is_over:
        game = game.apply(choose(Position.of(game), "expert", rng))
    assert not game.is_over
    return game


def _played_out(game, searcher: int | None, rng: random.Random):
    """The game to its end: the seat ``searcher`` by the champion's endgame search,
    the other seat (or both) by the expert."""
    while not game.is_over:
        position = Position.of(game)
        if game.to_move == searcher:
            move = crossword_bot.endgame_search(position, position.opponent_rack, 400).move
        else:
            move = choose(position, "expert", rng)
        game = game.apply(move)
    return game


def test_endgame_search_prunes_to_the_value_of_a_full_search(lexicons, monkeypatch):
    """Alpha-beta changes how much is searched, never the value: at each depth the best
    root move's value is what the same plays give searched without pruning."""
    monkeypatch.setattr(crossword_bot, "ENDGAME_PLIES", 3)
    game = _bag_emptied(lexicons, WORD_GRID, "endgame/1")
    position = Position.of(game)
    opponent = position.opponent_rack
    tiles = position.tiles_value
    plays = crossword_bot._Endgame(position, opponent, 10**6, None).plays  # the same plays, unbounded

    def full(board, made, mover, other, plies, passed):
        if plies == 0:
            return tiles(other) - tiles(mover)
        values = [
            play.score + 2 * tiles(other)
            if not play.leave
            else play.score
            - full(board.with_tiles(play.placement), made | {play.placement}, other, play.leave, plies - 1, False)
            for play in plays(board, made, mover, other)
        ]
        values.append(tiles(other) - tiles(mover) if passed else -full(board, made, other, mover, plies - 1, True))
        return max(values)

    for depth in (1, 2, 3):
        monkeypatch.setattr(crossword_bot, "ENDGAME_PLIES", depth)
        line = crossword_bot.endgame_search(position, opponent, 10**6)
        assert line.plies == depth
        assert line.value == full(position.board, frozenset(), position.rack, opponent, depth, False)


def test_endgame_search_is_bounded_and_replays(lexicons):
    """The search spends at most its budget of move searches (the root's plays are
    always found, so a move is always made) and gives the same move every time; out
    of time at once, it still looks one ply ahead, which needs no search beyond the
    root's plays: the play (or pass) worth most once the tiles left on both racks count."""
    position = Position.of(_bag_emptied(lexicons, WORDGAME, "endgame/2"))
    opponent = position.opponent_rack
    first = crossword_bot.endgame_search(position, opponent, 60)
    assert first.searches <= 60 and first.plies >= 1
    assert crossword_bot.endgame_search(position, opponent, 60) == first
    deeper = crossword_bot.endgame_search(position, opponent, 400)
    assert deeper.plies >= first.plies and deeper.searches <= 400
    hurried = crossword_bot.endgame_search(position, opponent, 400, out_of_time=lambda: True)
    assert hurried.searches == 1 and hurried.plies == 1
    root = crossword_bot._Endgame(position, opponent, 1, None).plays(
        position.board, frozenset(), position.rack, opponent
    )
    tiles = position.tiles_value
    one_ply = {
        Move.place(position.seat, play.placement): play.score
        + (2 * tiles(opponent) if not play.leave else tiles(opponent) - tiles(play.leave))
        for play in root
    }
    one_ply.setdefault(Move.pass_(position.seat), tiles(opponent) - tiles(position.rack))
    assert one_ply[hurried.move] == hurried.value == max(one_ply.values())


def test_champion_searches_the_endgame_and_the_expert_does_not(lexicons):
    """With the bag empty and one opponent, the champion's move is the search's."""
    position = Position.of(_bag_emptied(lexicons, WORD_GRID, "endgame/1"))
    line = crossword_bot.endgame_search(position, position.opponent_rack, crossword_bot.ENDGAME_BUDGET)
    assert choose(position, "champion", random.Random(1)) == line.move


def test_endgame_search_wins_an_ending_the_expert_loses(lexicons):
    """A seeded Word Grid game with the bag empty: played out by the expert on both
    sides, the side to move loses by 28; with the search playing that side against the
    expert it wins by 11."""
    game = _bag_emptied(lexicons, WORD_GRID, "endgame/1")
    seat, other = game.to_move, 1 - game.to_move
    by_expert = _played_out(game, None, random.Random(0)).scores
    by_search = _played_out(game, seat, random.Random(0)).scores
    assert by_expert[seat] - by_expert[other] == -28
    assert by_search[seat] - by_search[other] == 11


def test_a_pass_that_ends_the_game_is_valued_as_the_end(lexicons):
    """Wordgame ends after three passes in a row: after two, the seat to move knows its
    pass ends the game, and the search values that pass as the end (each side loses
    the tiles it holds), not as a turn the opponent answers."""
    game = _bag_emptied(lexicons, WORDGAME, "endgame/2")
    assert not Position.of(game).pass_ends_game
    game = game.apply(Move.pass_(game.to_move)).apply(Move.pass_(1 - game.to_move))
    position = Position.of(game)
    assert position.pass_ends_game
    assert game.apply(Move.pass_(game.to_move)).is_over
    opponent = position.opponent_rack
    search = crossword_bot._Endgame(position, opponent, 10**6, None)
    plays = search.plays(position.board, frozenset(), position.rack, opponent)
    valued = dict((play, value) for value, play in search.root(2, [*plays, None]))
    assert valued[None] == position.tiles_value(opponent) - position.tiles_value(position.rack)
