"""Standings page benchmark (see docs/performance.md).

    python benchmarks/standings_bench.py [--players 500] [--rounds 9] [--repeat 5]

Creates a throw-away SQLite database, a Swiss of N entrants with R rounds paired by the engine
and realistic results (games.demo), then renders /t/<slug>/standings/ through the test
client with the cache cleared before every request (uncached: database reads, standings with
all eight tie-breaks, template), and prints the median, best and worst.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "championship.settings")
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client

    from games.demo import create_running_swiss

    call_command("migrate", verbosity=0)
    t0 = time.perf_counter()
    t = create_running_swiss(
        slug="bench",
        players=args.players,
        rounds=args.rounds,
        total_rounds=args.rounds,
        unfinished_last=False,
    )
    print(
        f"setup: {args.players} entrants, {args.rounds} rounds in {time.perf_counter() - t0:.1f} s"
    )
    client = Client()
    url = f"/t/{t.slug}/standings/"
    times = []
    for _ in range(args.repeat):
        cache.clear()
        t0 = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - t0)
        assert response.status_code == 200
    cached = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        client.get(url)
        cached.append(time.perf_counter() - t0)
    ms = sorted(x * 1000 for x in times)
    print(
        f"standings page, uncached: median {statistics.median(ms):.0f} ms, best {ms[0]:.0f} ms, "
        f"worst {ms[-1]:.0f} ms; cached: median {statistics.median(cached) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
