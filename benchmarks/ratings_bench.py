"""The club's rating recomputed from every game (see docs/performance.md, docs/ratings.md).

    python benchmarks/ratings_bench.py [--games 10000] [--players 500] [--months 36] [--repeat 5]

1. The Glicko-2 periods alone (championship.rating.rate_history): the games as plain data,
   month by month, best and median of ``--repeat`` runs.
2. The whole recomputation from the database (services.ratings_recompute(force=True)) in a
   throw-away SQLite database: one tournament a month among the players, rounds of random
   pairings, results (wins, draws, losses, a few forfeits); reading the rated games, rating
   them, and writing every month's list and every game's ratings.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def schedule(
    games: int, players: int, months: int, seed: int = 1
) -> list[tuple[int, int, int, str]]:
    """(month, white, black, result) for ``games`` games spread evenly over the months."""
    rng = random.Random(seed)
    out = []
    for k in range(games):
        month = k * months // games
        white, black = rng.sample(range(players), 2)
        result = rng.choices(["1-0", "0-1", "1/2-1/2", "forfeit"], [45, 40, 13, 2])[0]
        out.append((month, white, black, result))
    return out


def timed(fn, repeat: int) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--months", type=int, default=36)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="profile one recomputation")
    parser.add_argument(
        "--database-url",
        default="",
        help="an empty database to fill (e.g. postgres://...); default a throw-away SQLite",
    )
    args = parser.parse_args()
    plan = schedule(args.games, args.players, args.months)

    from championship.rating import Game, rate_history

    score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    plain = [Game(m, w, b, score[r], i) for i, (m, w, b, r) in enumerate(plan) if r in score]
    times = timed(lambda: rate_history(plain), args.repeat)
    print(
        f"rate_history: {len(plain)} games, {args.players} players, {args.months} months: "
        f"best {min(times):.3f} s, median {statistics.median(times):.3f} s"
    )

    db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "championship.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.utils import timezone

    from championship.models import Board, Entrant, GameResult, Round, Tournament
    from championship.services import ratings, ratings_recompute
    from people.models import Person

    started = time.perf_counter()
    ratings._recomputing.set(True)  # no recomputation after each commit while filling
    people = Person.objects.bulk_create(Person(name=f"Player {i}") for i in range(args.players))
    now = timezone.now()
    for month in range(args.months):
        day = date(2024 + month // 12, month % 12 + 1, 5)
        t = Tournament.objects.create(
            name=f"Monthly {month}", slug=f"m{month}", starts_on=day, ends_on=day, status="finished"
        )
        entrants = Entrant.objects.bulk_create(
            Entrant(tournament=t, name=p.name, person=p, starting_number=i + 1)
            for i, p in enumerate(people)
        )
        these = [g for g in plan if g[0] == month]
        for number, start in enumerate(range(0, len(these), args.players // 2), start=1):
            rnd = Round.objects.create(
                tournament=t, number=number, status="published", published_at=now, date=day
            )
            chunk = these[start : start + args.players // 2]
            boards = Board.objects.bulk_create(
                Board(round=rnd, number=i + 1, white=entrants[w], black=entrants[b])
                for i, (_m, w, b, _r) in enumerate(chunk)
            )
            GameResult.objects.bulk_create(
                GameResult(
                    board=board,
                    number=1,
                    result="1-0" if r == "forfeit" else r,
                    termination="forfeit"
                    if r == "forfeit"
                    else "agreement"
                    if r == "1/2-1/2"
                    else "home",
                    source="organiser",
                )
                for board, (_m, _w, _b, r) in zip(boards, chunk, strict=True)
            )
    print(f"database filled in {time.perf_counter() - started:.1f} s")
    if args.profile:
        import cProfile
        import pstats

        cProfile.runctx("ratings_recompute(force=True)", globals(), locals(), "/tmp/ratings.prof")
        pstats.Stats("/tmp/ratings.prof").sort_stats("cumtime").print_stats(25)
    times = timed(lambda: ratings_recompute(force=True), max(1, args.repeat // 2 + 1))
    print(
        f"ratings_recompute (read, rate, write): best {min(times):.3f} s, "
        f"median {statistics.median(times):.3f} s"
    )
    from championship.models import PersonRating, RatedGame

    print(
        f"stored: {PersonRating.objects.count()} monthly ratings, {RatedGame.objects.count()} rated games"
    )


if __name__ == "__main__":
    main()
