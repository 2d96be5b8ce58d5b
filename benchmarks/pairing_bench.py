"""Pairing benchmark (see docs/performance.md).

    python benchmarks/pairing_bench.py [--players 300 1000] [--seed 1] [--repeat 3]

Plays a random Swiss of 9 rounds (stronger player more likely to win, some draws and
forfeits) for rounds 1-4, then times the pairing of round 5 by our wrapper (TRF written,
parsed and paired by the Dutch engine) and prints the median of the repeats.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from championship.pairing import pair_swiss  # noqa: E402
from championship.pairing.simulate import play_swiss  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="+", default=[300, 1000])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for n in args.players:
        data, _ = play_swiss(n, 9, args.seed, upto=4)
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            pairs = pair_swiss(data)
            times.append(time.perf_counter() - t0)
        print(
            f"{n} entrants, round 5 of 9: {len(pairs)} boards, median {statistics.median(times):.2f} s "
            f"(runs: {', '.join(f'{t:.2f}' for t in times)})"
        )


if __name__ == "__main__":
    main()
