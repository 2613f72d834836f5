"""Lexicon benchmarks: load time, resident memory, lookups and traversal speed.

Run with ``python -m bench.bench_lexicon [code ...]``.  Each figure is the median of
several runs; load time and memory are measured in a fresh process per lexicon, from
the precompiled form on disk (built first if missing).
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time

from lexicon import wordlists

RUNS = 5


def _rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


def measure_load(code: str) -> dict:
    """In this process: load one lexicon from disk and report seconds and RSS delta."""
    before = _rss_bytes()
    start = time.perf_counter()
    lexicon = wordlists.compile_lexicon(code)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "rss_mb": (_rss_bytes() - before) / 1e6, "words": len(lexicon)}


def _load_in_fresh_process(code: str) -> dict:
    script = (
        "import json, lexicon.core, lexicon.wordlists as w, bench.bench_lexicon as b;"
        f"print(json.dumps(b.measure_load({code!r})))"
    )
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def _best_rate(operation, count: int) -> float:
    """Median operations per second of ``operation`` over RUNS runs."""
    rates = []
    for _ in range(RUNS):
        start = time.perf_counter()
        operation()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


def bench(code: str) -> dict:
    """Return the medians for one lexicon code."""
    wordlists.compile_lexicon(code)  # make sure the precompiled form exists
    loads = [_load_in_fresh_process(code) for _ in range(RUNS)]
    lexicon = wordlists.compile_lexicon(code)
    rng = random.Random(7)
    present = rng.sample(list(lexicon), 20_000)
    absent = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(len(w))) for w in present]
    probes = present + absent

    def lookups():
        for word in probes:
            word in lexicon  # noqa: B015 - the membership test is what is measured

    # child() calls on the paths of real words, one per letter, plus a miss per step
    steps = []
    for word in present[:5000]:
        node = lexicon.root
        for letter in word:
            steps.append((node, letter))
            steps.append((node, "q" if letter != "q" else "z"))
            node = lexicon.child(node, letter)
    child = lexicon.child

    def child_calls():
        for node, letter in steps:
            child(node, letter)

    children, is_word = lexicon.children, lexicon.is_word

    def walk_all():
        # Every node once per path from the root: spells every word.
        stack = [lexicon.root]
        pop, push = stack.pop, stack.append
        while stack:
            node = pop()
            is_word(node)
            for _, target in children(node):
                push(target)

    walk_rate = _best_rate(walk_all, len(lexicon))
    return {
        "code": code,
        "words": len(lexicon),
        "nodes": lexicon.node_count,
        "edges": lexicon.edge_count,
        "load_ms": 1000 * statistics.median(load["seconds"] for load in loads),
        "rss_mb": statistics.median(load["rss_mb"] for load in loads),
        "lookups_per_s": _best_rate(lookups, len(probes)),
        "child_calls_per_s": _best_rate(child_calls, len(steps)),
        "words_walked_per_s": walk_rate,
    }


def main(codes: list[str]) -> None:
    print(
        f"{'lexicon':9} {'words':>7} {'nodes':>6} {'edges':>7} {'load ms':>8} {'RSS MB':>7}"
        f" {'lookups/s':>10} {'child()/s':>10} {'walk words/s':>12}"
    )
    for code in codes:
        r = bench(code)
        print(
            f"{r['code']:9} {r['words']:7} {r['nodes']:6} {r['edges']:7} {r['load_ms']:8.1f}"
            f" {r['rss_mb']:7.1f} {r['lookups_per_s']:10,.0f} {r['child_calls_per_s']:10,.0f}"
            f" {r['words_walked_per_s']:12,.0f}"
        )


if __name__ == "__main__":
    main(sys.argv[1:] or list(wordlists.CODES))
