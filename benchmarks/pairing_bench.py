"""Pairing benchmark (see docs/performance.md, "Swiss pairing").

    python benchmarks/pairing_bench.py [--players 300 1000 2000] [--rounds 2 5] [--seed 1]
                                       [--ruleset dutch-2025] [--repeat 1]

Plays a random Swiss of 9 rounds (the stronger player more likely to win, some draws and
forfeits; every round paired by the ruleset measured) and times the pairing of each round
asked for (default: round 2, the largest brackets, and round 5 of 9), through the same entry
point the site uses (``pair_swiss``). Prints a Markdown table of the medians: wall-clock
seconds and the process's CPU seconds (on a shared machine the wall clock also counts the time
other programs hold the cores; the CPU time is what the pairing itself costs).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from championship.pairing import pair_swiss  # noqa: E402
from championship.pairing.simulate import apply_round, new_tournament  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="+", default=[300, 1000, 2000])
    parser.add_argument("--rounds", type=int, nargs="+", default=[2, 5])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--ruleset", default="dutch-2025")
    args = parser.parse_args()
    print(
        f"| entrants | round | boards | wall s ({args.ruleset}, median of {args.repeat}) | CPU s |"
    )
    print("|---|---|---|---|---|")
    for n in args.players:
        rng = random.Random(args.seed)
        data = new_tournament(n, 9, args.seed)
        for number in range(1, max(args.rounds) + 1):
            times = []
            cpu = []
            pairs = []
            for _ in range(args.repeat if number in args.rounds else 1):
                t0, c0 = time.perf_counter(), time.process_time()
                pairs = pair_swiss(data, args.ruleset)
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
            if number in args.rounds:
                print(
                    f"| {n:,} | {number} of 9 | {len(pairs)} | {statistics.median(times):.2f} "
                    f"| {statistics.median(cpu):.2f} |",
                    flush=True,
                )
            apply_round(data, pairs, rng)


if __name__ == "__main__":
    main()
