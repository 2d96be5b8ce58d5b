"""Benchmarks of the rules engine (see docs/performance.md).

    python benchmarks/engine_bench.py [--positions 20000] [--seed 1] [--analyse N]

1. legal_plays: distinct resulting positions per second over random reachable positions.
   Each (position, card) input gets a fresh State built before the clock starts, so nothing
   computed for one input is reused for another; only the legal_plays call is timed.
2. replay: median time to parse, validate and replay a full 72-ply record (including the
   blocked check before every turn).
3. generators compared in one run, over the same positions and all nine cards each:
   the straightforward reference generator (tests/engine/reference.py: copy the board at
   every step, try every source in both orders), legal_plays, and the search's generator
   (games/engine/packed.py) producing the boards and then the complete child nodes (boards,
   hands, piles, ply). Resulting positions per second, best of the passes.
4. with --analyse N: N whole 72-ply games analysed at the default time per ply (200 ms).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import CARDS, State, legal_plays  # noqa: E402
from games.engine.analysis import DEFAULT_MS, analyse_game  # noqa: E402
from games.engine.game import Game  # noqa: E402
from games.engine.packed import Generator, child_node, node_of  # noqa: E402
from games.engine.record import format_record, parse_record  # noqa: E402
from tests.engine.reference import reference_boards  # noqa: E402


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


def bench_generators(positions: list[State], repeat: int) -> dict[str, tuple[int, float]]:
    """Resulting positions and the best time of ``repeat`` passes for each generator; the
    inputs of each pass are built before its clock starts."""
    all_cards = tuple(range(len(CARDS)))
    boards = []
    for s in positions:
        mover = s.to_move
        opponent = "black" if mover == "white" else "white"
        boards.append((s.board(mover), s.board(opponent)))
    nodes = [node_of(s) for s in positions]

    def reference(inputs: list[Any]) -> int:
        total = 0
        for mine, theirs in inputs:
            for card in CARDS:
                total += len(reference_boards(mine, theirs, card))
        return total

    def plays(inputs: list[Any]) -> int:
        total = 0
        for state in inputs:
            for card in CARDS:
                total += len(legal_plays(state, card))
        return total

    def packed_boards(inputs: list[Any]) -> int:
        total = 0
        for node in inputs:
            total += len(Generator(node[0], node[1]).children(all_cards))
        return total

    def packed_nodes(inputs: list[Any]) -> int:
        total = 0
        for node in inputs:
            for ci, m, t, _ in Generator(node[0], node[1]).children(all_cards):
                child_node(node, ci, m, t)
                total += 1
        return total

    cases: list[tuple[str, Callable[[], list[Any]], Callable[[list[Any]], int]]] = [
        ("reference", lambda: list(boards), reference),
        (
            "legal_plays",
            # A fresh State per position: the mover's view is built once per position.
            lambda: [State(white=s.white, black=s.black, to_move=s.to_move) for s in positions],
            plays,
        ),
        ("search generator, boards", lambda: list(nodes), packed_boards),
        ("search generator, child nodes", lambda: list(nodes), packed_nodes),
    ]
    out: dict[str, tuple[int, float]] = {}
    for name, prepare, run in cases:
        best = float("inf")
        total = 0
        for _ in range(repeat):
            inputs = prepare()
            gc.collect()
            gc.disable()
            t0 = time.perf_counter()
            total = run(inputs)
            best = min(best, time.perf_counter() - t0)
            gc.enable()
        out[name] = (total, best)
    return out


def bench_analysis(records: list[str], games: int) -> list[float]:
    times = []
    for text in records[:games]:
        t0 = time.perf_counter()
        analyse_game(text, ms_per_ply=DEFAULT_MS)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="passes over all inputs")
    parser.add_argument(
        "--generators", type=int, default=3000, help="positions for the generator comparison"
    )
    parser.add_argument("--analyse", type=int, default=0, help="72-ply games to analyse")
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
    sample = positions[: args.generators]
    results = bench_generators(sample, args.repeat)
    ref_total, ref_time = results["reference"]
    print(f"generators over {len(sample)} positions x 9 cards, best of {args.repeat} passes:")
    for name, (total, elapsed) in results.items():
        rate = total / elapsed
        print(
            f"  {name}: {total} positions in {elapsed:.3f} s = {rate:,.0f}/s, "
            f"{rate / (ref_total / ref_time):.1f}x the reference"
        )
    if args.analyse:
        times = bench_analysis(records, args.analyse)
        print(
            f"analysis of a 72-ply game at {DEFAULT_MS} ms a ply: "
            + ", ".join(f"{t:.1f} s" for t in times)
        )


if __name__ == "__main__":
    main()
