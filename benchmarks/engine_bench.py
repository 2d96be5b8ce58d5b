"""Benchmarks of the rules engine (see docs/performance.md).

    python benchmarks/engine_bench.py [--positions 20000] [--seed 1]

1. legal_plays: distinct resulting positions per second over random reachable positions.
   Each (position, card) input gets a fresh State built before the clock starts, so nothing
   computed for one input is reused for another; only the legal_plays call is timed.
2. replay: median time to parse, validate and replay a full 72-ply record (including the
   blocked check before every turn).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import CARDS, State, legal_plays  # noqa: E402
from games.engine.game import Game  # noqa: E402
from games.engine.record import format_record, parse_record  # noqa: E402


def random_games(rng: random.Random, min_positions: int) -> tuple[list[State], list[str]]:
    """Play random games; return the distinct positions met and the 72-ply records."""
    seen: dict[tuple[object, ...], State] = {}
    records: list[str] = []
    while len(seen) < min_positions:
        game = Game()
        while game.outcome is None:
            s = game.state
            seen.setdefault((s.white, s.black, s.to_move), s)
            card = rng.choice(game.playable_cards())
            game.play(rng.choice(legal_plays(s, card)).text)
        if game.ply == 72:
            records.append(format_record([("Event", "bench")], game))
    return list(seen.values()), records


def bench_plays(positions: list[State]) -> tuple[int, int, float]:
    """One pass over every (position, card): fresh states, only legal_plays timed."""
    inputs = [
        (State(white=s.white, black=s.black, to_move=s.to_move), card)
        for s in positions
        for card in CARDS
    ]
    gc.collect()
    gc.disable()
    total = 0
    elapsed = 0.0
    clock = time.perf_counter
    for state, card in inputs:
        t0 = clock()
        plays = legal_plays(state, card)
        elapsed += clock() - t0
        total += len(plays)
    gc.enable()
    return len(inputs), total, elapsed


def bench_replay(records: list[str], repeat: int) -> list[float]:
    times = []
    for text in records:
        best = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            parse_record(text)
            best.append(time.perf_counter() - t0)
        times.append(statistics.median(best))
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="passes over all inputs")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    positions, records = random_games(rng, args.positions)
    print(f"{len(positions)} distinct reachable positions, {len(records)} full 72-ply records")
    runs = [bench_plays(positions) for _ in range(args.repeat)]
    n_inputs, total, _ = runs[0]
    rates = sorted(total / elapsed for _, _, elapsed in runs)
    print(
        f"legal_plays: {n_inputs} (position, card) inputs, {total} distinct resulting positions "
        f"per pass; {args.repeat} passes: best {rates[-1]:,.0f}, median "
        f"{statistics.median(rates):,.0f}, worst {rates[0]:,.0f} positions/s "
        f"(best {total / rates[-1] / n_inputs * 1e6:.2f} µs per call)"
    )
    times = bench_replay(records[:200], 5)
    print(
        f"replay of a 72-ply record: median {statistics.median(times) * 1e3:.2f} ms, "
        f"p95 {sorted(times)[int(len(times) * 0.95)] * 1e3:.2f} ms over {len(times)} records"
    )


if __name__ == "__main__":
    main()
