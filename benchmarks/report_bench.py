"""The report of a whole game (issue 24; see docs/performance.md).

    python benchmarks/report_bench.py [--ms 200] [--record tests/engine/records/cards_double_hit.nrd]

What the worker does for a finished game, on one core, with the pure engine (no database):
the analysis of every ply at ``--ms`` a ply (``analyse_game``: the best play, the values, the
engine's line after each better play, a played play settled against a proven best value),
the report (``engine.report.game_report``: error rates, verdicts, turning points) and the
exercises (``engine.exercise.exercises_of``: every play of each mistake's position judged).
Prints the wall time and the CPU time of the process for each part; the goal is a 72-ply
game within 30 s at 200 ms a ply.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine.analysis import analyse_game  # noqa: E402
from games.engine.exercise import exercises_of  # noqa: E402
from games.engine.record import parse_record  # noqa: E402
from games.engine.report import game_report  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ms", type=float, default=200)
    parser.add_argument("--record", default=str(ROOT / "tests/engine/records/cards_double_hit.nrd"))
    args = parser.parse_args()
    game = parse_record(Path(args.record).read_text()).game
    print(f"{args.record}: {len(game.turns)} plies, {game.result} {game.termination}")
    w0, c0 = time.perf_counter(), time.process_time()
    plies = analyse_game(game, ms_per_ply=args.ms)
    w1, c1 = time.perf_counter(), time.process_time()
    report = game_report(plies)
    w2, c2 = time.perf_counter(), time.process_time()
    exercises = exercises_of(game, plies, ms=args.ms)
    w3, c3 = time.perf_counter(), time.process_time()
    proven = sum(p.proven for p in plies)
    lines = sum(1 for p in plies if p.line)
    print(
        f"analysis:  {w1 - w0:6.1f} s wall, {c1 - c0:6.1f} s CPU "
        f"({proven} plies proven, {lines} lines after a better play)"
    )
    print(
        f"report:    {w2 - w1:6.3f} s wall, {c2 - c1:6.3f} s CPU "
        f"({len(report.turning_points)} turning points)"
    )
    print(f"exercises: {w3 - w2:6.1f} s wall, {c3 - c2:6.1f} s CPU ({len(exercises)} positions)")
    print(f"total:     {w3 - w0:6.1f} s wall, {c3 - c0:6.1f} s CPU (goal: 30 s)")
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
