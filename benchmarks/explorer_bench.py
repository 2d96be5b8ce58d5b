"""Opening explorer benchmark (issue 24; see docs/performance.md).

    python benchmarks/explorer_bench.py [--games 10000] [--repeat 15]

Creates a throw-away SQLite database with N finished games whose openings follow a few
hundred lines with a long tail (some lines are played far more than others, as in real
events), writes the explorer's rows the way the product does (``games.openings``), then
renders ``/openings/`` through the test client at the root, two plies deep, filtered by a
player, and by a player and a colour. Prints, for each, the median, best and worst wall time
and the median CPU time of the process (``time.process_time``: what the page itself costs,
whatever else the shared machine is doing) over ``--repeat`` requests.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def lines(rng: random.Random, n: int, plies: int) -> list[list[str]]:
    """``n`` distinct opening lines: each ply one of the first few plays of one of the first
    few playable cards, so that lines share their beginnings."""
    from games.engine import legal_plays, playable_cards
    from games.engine.game import Game

    out: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    while len(out) < n:
        eg = Game()
        texts: list[str] = []
        while len(texts) < plies and eg.outcome is None:
            state = eg.state
            cards = playable_cards(state)
            card = cards[min(int(rng.expovariate(0.8)), len(cards) - 1)]
            plays = legal_plays(state, card)
            text = plays[min(int(rng.expovariate(0.7)), len(plays) - 1)].text
            eg.play(text)
            texts.append(text)
        if tuple(texts) not in seen:
            seen.add(tuple(texts))
            out.append(texts)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--lines", type=int, default=400)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "championship.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction
    from django.test import Client

    from games.models import Game, OpeningMove
    from games.openings import OPENING_PLIES, line_key, player_key

    call_command("migrate", verbosity=0)
    rng = random.Random(1)
    t0 = time.perf_counter()
    pool = lines(rng, args.lines, OPENING_PLIES)
    weights = [1 / (i + 1) for i in range(len(pool))]  # a long tail (Zipf)
    names = [f"Player {i:03d}" for i in range(args.players)]
    with transaction.atomic():
        games = Game.objects.bulk_create(
            Game(white_name=rng.choice(names), black_name=rng.choice(names))
            for _ in range(args.games)
        )
        rows = []
        for game in games:
            texts = rng.choices(pool, weights)[0]
            result = rng.choice(["1-0", "1-0", "0-1", "0-1", "1/2-1/2"])
            for i, text in enumerate(texts):
                rows.append(
                    OpeningMove(
                        game=game,
                        ply=i + 1,
                        parent=line_key(texts[:i]),
                        key=line_key(texts[: i + 1]),
                        text=text,
                        white=game.white_name,
                        black=game.black_name,
                        white_key=player_key(game.white_name),
                        black_key=player_key(game.black_name),
                        result=result,
                    )
                )
        OpeningMove.objects.bulk_create(rows, batch_size=5000)
    print(
        f"setup: {args.games} games, {len(rows)} explorer rows, {len(pool)} lines, "
        f"{args.players} players in {time.perf_counter() - t0:.1f} s"
    )
    deep = ",".join(pool[0][:2])
    player = names[7]
    client = Client()
    cases = [
        ("root", {}),
        ("two plies deep", {"line": deep}),
        ("a player", {"player": player}),
        ("a player as White", {"player": player, "colour": "white"}),
        ("a player as White, two plies deep", {"player": player, "colour": "white", "line": deep}),
    ]
    print(f"{'page':38} {'median':>8} {'best':>8} {'worst':>8} {'cpu median':>11}")
    for name, params in cases:
        walls, cpus = [], []
        client.get("/openings/", params)  # warm: the first request imports templates
        for _ in range(args.repeat):
            w0, c0 = time.perf_counter(), time.process_time()
            response = client.get("/openings/", params)
            cpus.append(time.process_time() - c0)
            walls.append(time.perf_counter() - w0)
            assert response.status_code == 200
        print(
            f"{name:38} {statistics.median(walls) * 1000:7.1f}ms {min(walls) * 1000:7.1f}ms "
            f"{max(walls) * 1000:7.1f}ms {statistics.median(cpus) * 1000:10.1f}ms"
        )
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
