"""Learn the expert bot's leave values from self-play (``games/engine/data/leaves_*.json``).

    nice python -m scripts.learn_leaves --variant wordgrid --minutes 8 --rounds 2 --jobs 2

How: bots play each other on the real engine. Every time a seat keeps a leave in the
middle of the game (the bag can refill its rack), we note the leave and the points that
seat scores on its next turn. A leave's value is how many points more than average that
next turn brings. Leaves are described by features (``leaves.features``: each tile,
second and third copies, pairs of different tiles, vowel/consonant balance) and the
weights are fitted by ridge regression on the per-leave averages, weighted by how often
each leave was seen, so rare leaves borrow strength from their parts.

Round 1 plays with the club bot's rule of thumb; each later round plays with the table
the round before learned, and every fit uses the samples of all rounds so far.
``--prior`` shrinks the weights toward another table (Wordgame's games are slower, so it
borrows Word Grid's values where its own samples are few) instead of toward 0. A little exploration (sometimes a near-best play instead of
the best) makes the leaves seen more varied. The settings used are stored in the JSON
beside the weights, so a table can be rebuilt. Runs are bounded by ``--minutes`` per
round on a shared 2-core machine; the seeds make the games reproducible but the number
of games played in a time budget depends on the machine.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

from games.engine import crossword_bot, leaves, movegen, selfplay
from games.engine.crossword import variant_named
from games.engine.crossword_game import PASS, PLACE, SWAP, Move
from lexicon.wordlists import compile_lexicon

ROOT = Path(__file__).resolve().parent.parent
EXPLORE = 0.2  # chance of playing one of the next-best plays instead of the best
EXPLORE_FROM = 4
SIMULATIONS_PER_POSITION = 8  # --method simulate: random leaves tried per position


def _policy(table):
    value = table if table is not None else leaves.heuristic_value

    def choose(position, name, rng, frequency=None):
        candidates = crossword_bot.ranked(position, value, EXPLORE_FROM)
        swap = crossword_bot.best_swap(position, value)
        if swap is not None and (not candidates or swap[0] > candidates[0].equity + crossword_bot.SWAP_MARGIN):
            return Move.swap(position.seat, swap[1])
        if not candidates:
            return Move.pass_(position.seat)
        pick = candidates[0]
        if len(candidates) > 1 and rng.random() < EXPLORE:
            pick = rng.choice(candidates[1:])
        return Move.place(position.seat, pick.placement)

    return choose


def _worker(args):
    variant_name, weights, seed, worker, deadline = args
    variant = variant_named(variant_name)
    lexicon = compile_lexicon(variant.default_lexicon, cache_dir=ROOT / "var" / "lexicon")
    table = leaves.LeaveTable(weights) if weights is not None else None
    choose = _policy(table)
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    games = 0
    while time.monotonic() < deadline:
        pending: dict[int, str] = {}

        def on_turn(before, move, after, pending=pending):
            seat = move.seat
            if move.kind not in (PLACE, SWAP, PASS):
                return
            if seat in pending:
                entry = totals[pending.pop(seat)]
                entry[0] += 1
                entry[1] += after.turns[-1].score
            # Only mid-game leaves: the rack refills and the next turn is a normal one.
            if len(after.bag) >= 2 * variant.rack_size and move.kind != PASS:
                # The leave is the rack before drawing: its tiles minus those played.
                used = (
                    "".join("?" if b else letter for _, _, letter, b in move.placement)
                    if move.kind == PLACE
                    else move.tiles
                )
                pending[seat] = crossword_bot.leave_of_tiles(before.racks[seat], used)

        selfplay.play_game(
            variant, lexicon, ("learner", "learner"), f"{seed}/{worker}/{games}", on_turn=on_turn, choose=choose
        )
        games += 1
    return games, dict(totals)


def _simulate_worker(args, paired: bool = False):
    """Leaves valued by simulation: in positions of greedy games, keep random leaves, fill
    the rack from the unseen tiles at random, and note the best score it makes.

    ``paired`` (``--method paired``): note instead that score minus the best score of a
    fresh rack drawn from the same shuffled tiles on the same board. Both racks share
    the board and the draw, which make most of the noise in a single simulated score,
    so each sample speaks about the leave alone; the empty leave is worth 0 by
    construction and the fit has no bias."""
    variant_name, _, seed, worker, deadline = args
    variant = variant_named(variant_name)
    lexicon = compile_lexicon(variant.default_lexicon, cache_dir=ROOT / "var" / "lexicon")
    rng = random.Random(f"{seed}/{worker}/simulate")
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    games = 0
    size = variant.rack_size

    def best_score(board, rack):
        play = movegen.best(board, rack, variant, lexicon)
        return play.score if play else 0

    def on_turn(before, move, after):
        if len(before.bag) < 2 * size:
            return
        rack, pool = before.racks[move.seat], list(before.unseen(move.seat))
        for _ in range(SIMULATIONS_PER_POSITION):
            if paired:
                rng.shuffle(pool)
                kept = "".join(sorted(rng.sample(rack, rng.randrange(1, len(rack)))))
                drawn = pool[: size - len(kept)]
                fresh = best_score(before.board, "".join(pool[:size]))
            else:
                kept = "".join(sorted(rng.sample(rack, rng.randrange(len(rack)))))
                drawn, fresh = rng.sample(pool, size - len(kept)), 0
            entry = totals[kept]
            entry[0] += 1
            entry[1] += best_score(before.board, kept + "".join(drawn)) - fresh

    while time.monotonic() < deadline:
        selfplay.play_game(variant, lexicon, ("greedy", "greedy"), f"{seed}/{worker}/{games}", on_turn=on_turn)
        games += 1
    return games, dict(totals)


def _paired_worker(args):
    return _simulate_worker(args, paired=True)


def best_equity(board, rack: str, variant, lexicon, leave_value, weight: float, can_swap: bool) -> float:
    """The most a rack is worth on ``board`` this turn: its best play's score plus the
    value of the leave it keeps (``weight`` scales the leave as the bag will then stand),
    or the best swap's kept tiles (when ``can_swap``), or passing with the whole rack."""
    value = lambda leave: weight * leave_value(leave)  # noqa: E731
    best = value(rack)  # passing keeps everything
    play = movegen.best(board, rack, variant, lexicon, leave_value=value)
    if play is not None:
        best = max(best, play.equity)
    if can_swap:
        best = max(best, max(value(kept) for kept in crossword_bot._subsets(rack) if len(kept) < len(rack)))
    return best


def _equity_worker(args):
    """Leaves valued by what they are worth a turn later, leave included (``--method
    equity``): in positions of games played by equity with the current table, keep a
    random leave, fill the rack from the seat's shuffled unseen tiles and note the best
    *equity* it makes (the score plus the current table's value of the tiles that play
    keeps, or the best swap), less the same for a fresh rack drawn from the same tiles.

    Counting the next leave is what the one-turn ``paired`` score misses: a Q that can
    not be played next turn is still on the rack after it, and only the next leave's
    value says so. Each round starts from the table the round before learned (round 1
    from the club's rule of thumb), as value iteration does, and is fitted on its own
    samples."""
    variant_name, weights, seed, worker, deadline = args
    variant = variant_named(variant_name)
    lexicon = compile_lexicon(variant.default_lexicon, cache_dir=ROOT / "var" / "lexicon")
    table = leaves.LeaveTable(weights) if weights is not None else None
    leave_value = table if table is not None else leaves.heuristic_value
    choose = _policy(table)
    rng = random.Random(f"{seed}/{worker}/equity")
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    games = 0
    size = variant.rack_size

    def on_turn(before, move, after):
        if len(before.bag) < 2 * size:
            return
        rack, pool = before.racks[move.seat], list(before.unseen(move.seat))
        # The bag when the refilled rack moves: about a rack fewer than now.
        later = len(before.bag) - size
        weight = min(1.0, later / size)
        can_swap = later >= size
        for _ in range(SIMULATIONS_PER_POSITION):
            rng.shuffle(pool)
            kept = "".join(sorted(rng.sample(rack, rng.randrange(1, len(rack)))))
            refilled = "".join(sorted(kept + "".join(pool[: size - len(kept)])))
            fresh = "".join(sorted(pool[:size]))
            worth = best_equity(before.board, refilled, variant, lexicon, leave_value, weight, can_swap)
            worth -= best_equity(before.board, fresh, variant, lexicon, leave_value, weight, can_swap)
            entry = totals[kept]
            entry[0] += 1
            entry[1] += worth

    while time.monotonic() < deadline:
        selfplay.play_game(
            variant, lexicon, ("learner", "learner"), f"{seed}/{worker}/{games}", on_turn=on_turn, choose=choose
        )
        games += 1
    return games, dict(totals)


def _gather(variant_name, weights, seed, jobs, minutes, method="selfplay"):
    deadline = time.monotonic() + minutes * 60
    work = [(variant_name, weights, seed, worker, deadline) for worker in range(jobs)]
    run = {"simulate": _simulate_worker, "paired": _paired_worker, "equity": _equity_worker}.get(method, _worker)
    if jobs == 1:
        results = [run(work[0])]
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = pool.map(run, work)
    games = sum(r[0] for r in results)
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for _, part in results:
        for leave, (n, total) in part.items():
            totals[leave][0] += n
            totals[leave][1] += total
    return games, totals


def fit(
    totals, ridge: float, prior: dict[str, float] | None = None, *, with_bias: bool = True
) -> tuple[dict[str, float], float]:
    """Weights minimising sum n_L (mean_L - bias - w.f(L))^2 + ridge |w - prior|^2.

    Without a prior the weights shrink toward 0; with one (another variant's table)
    features seen rarely keep about the prior's weight. ``with_bias=False`` pins the
    bias to 0, for targets already measured against a fresh rack.
    """
    prior = prior or {}
    names = sorted({name for leave in totals for name in leaves.features(leave)} | set(prior))
    index = {name: i + 1 for i, name in enumerate(names)}  # 0 is the bias
    size = len(names) + 1
    a = [[0.0] * size for _ in range(size)]
    b = [0.0] * size
    if not with_bias:
        a[0][0] = 1.0  # the bias's own equation: bias = 0
    for leave, (n, total) in totals.items():
        cols = ([0] if with_bias else []) + [index[name] for name in leaves.features(leave)]
        for i in cols:
            row = a[i]
            for j in cols:
                row[j] += n
            b[i] += total
    for name, i in index.items():
        a[i][i] += ridge
        b[i] += ridge * prior.get(name, 0.0)
    solution = _solve(a, b)
    return {name: solution[index[name]] for name in names}, solution[0]


def _solve(a, b):
    """Gaussian elimination with partial pivoting (the system is symmetric positive definite)."""
    n = len(b)
    rows = [a[i][:] + [b[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col]
        inv = 1.0 / head[col]
        for r in range(col + 1, n):
            factor = rows[r][col] * inv
            if factor:
                row = rows[r]
                rows[r] = [x - factor * y for x, y in zip(row, head)]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        row = rows[i]
        x[i] = (row[n] - sum(row[j] * x[j] for j in range(i + 1, n))) / row[i]
    return x


def _method_settings(method: str) -> dict:
    """How the samples were made, in the words the JSON file keeps."""
    if method == "paired":
        return {
            "positions": "every turn of greedy-against-greedy games with at least two racks in the bag",
            "simulations_per_position": SIMULATIONS_PER_POSITION,
            "target": "best score (movegen) of the leave refilled at random from the seat's "
            "shuffled unseen tiles, minus the best score of a fresh rack drawn from the same "
            "shuffled tiles, on the position's board (a paired difference: the board and the "
            "draw cancel out); no bias",
        }
    if method == "equity":
        return {
            "positions": "every turn of games between equity bots (the round's table, some exploration) "
            "with at least two racks in the bag",
            "simulations_per_position": SIMULATIONS_PER_POSITION,
            "target": "best equity (score + the previous round's value of the leave it keeps, or the "
            "best swap) of the leave refilled at random from the seat's shuffled unseen tiles, minus "
            "the best equity of a fresh rack drawn from the same shuffled tiles, on the position's "
            "board; round 1 values leaves by the club's rule of thumb; no bias",
            "fit": "ridge regression on the samples of the last round only",
        }
    if method == "simulate":
        return {
            "positions": "every turn of greedy-against-greedy games with at least two racks in the bag",
            "simulations_per_position": SIMULATIONS_PER_POSITION,
            "target": "best score (movegen) of the leave refilled at random from the seat's "
            "unseen tiles, on the position's board, minus the fitted mean",
        }
    return {
        "explore": EXPLORE,
        "explore_from": EXPLORE_FROM,
        "first_round_policy": "club (leaves.heuristic_value)",
        "target": "points scored on the seat's next turn, minus the fitted mean",
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("wordgrid", "wordgame"), required=True)
    parser.add_argument("--minutes", type=float, default=8.0, help="self-play time per round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", default="leaves-1")
    parser.add_argument("--ridge", type=float, default=30.0)
    parser.add_argument(
        "--method",
        choices=("selfplay", "simulate", "paired", "equity"),
        default="selfplay",
        help="selfplay: the next turn's points in bot games; simulate: "
        "random leaves filled from the unseen tiles in greedy games; paired: the same, "
        "less a fresh rack filled from the same tiles; equity: as paired, but the next "
        "turn's best equity (its leave valued by the previous round's table)",
    )
    parser.add_argument(
        "--prior", type=Path, help="a table (JSON) to shrink toward instead of 0, e.g. the other variant's"
    )
    parser.add_argument(
        "--start", type=Path, help="equity: a table (JSON) to value round 1's leaves with instead of the club's rule"
    )
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    prior = leaves.LeaveTable.from_json(args.prior).weights if args.prior else None
    out = args.out or ROOT / "games" / "engine" / "data" / f"leaves_{args.variant}.json"
    weights, history = None, []
    if args.start:
        weights = leaves.LeaveTable.from_json(args.start).weights
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for round_number in range(1, args.rounds + 1):
        started = time.monotonic()
        games, found = _gather(
            args.variant, weights, f"{args.seed}/{round_number}", args.jobs, args.minutes, args.method
        )
        if args.method == "equity":
            # Each round's targets count the previous table's leaves: only its own
            # samples measure the table it is learning.
            totals = defaultdict(lambda: [0, 0.0])
        # Every round's samples count: later rounds add leaves the better policy keeps.
        for leave, (n, total) in found.items():
            totals[leave][0] += n
            totals[leave][1] += total
        samples = sum(n for n, _ in found.values())
        weights, bias = fit(totals, args.ridge, prior, with_bias=args.method not in ("paired", "equity"))
        history.append(
            {
                "round": round_number,
                "games": games,
                "samples": int(samples),
                "distinct_leaves": len(totals),
                "bias": round(bias, 2),
                "seconds": round(time.monotonic() - started),
            }
        )
        print(json.dumps(history[-1]), file=sys.stderr)
    settings = {
        "variant": args.variant,
        "seed": args.seed,
        "rounds": args.rounds,
        "minutes_per_round": args.minutes,
        "jobs": args.jobs,
        "ridge": args.ridge,
        "prior": str(args.prior) if args.prior else None,
        **({"start": str(args.start)} if args.start else {}),
        "method": args.method,
        "fit": "ridge regression on the samples of all rounds together",
        **_method_settings(args.method),
        "command": "python -m scripts.learn_leaves " + " ".join(argv or sys.argv[1:]),
        "history": history,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(leaves.LeaveTable(weights, settings).to_json())
    table = leaves.LeaveTable(weights)
    for leave in ("?", "s", "e", "q", "qu", "v", "vv", "iii", "ers", "aeinst", "uuu"):
        print(f"{leave:8} {table.value(leave):+.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
