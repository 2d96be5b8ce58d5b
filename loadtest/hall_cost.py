"""What one request of the hall's load costs the server in CPU time (docs/performance.md, "The
hall"): the multiboard's feed kept and unchanged (304), kept (200), rebuilt after a turn (its
key read again, one game's part replayed), delayed; the multiboard page; a game's live.json and
page; the tablet's turn and its page. Django in this process with the whole middleware stack,
the same database and cache as the server (run by loadtest/run_hall.sh before the load, on the
round it seeded); ``time.process_time``, so other work on the machine does not count.

Usage: python loadtest/hall_cost.py [requests]"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "championship.settings")

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.test import Client  # noqa: E402

from championship.models import Round, Tournament  # noqa: E402
from games import tablet  # noqa: E402
from games.models import Game  # noqa: E402

HOST = {"HTTP_HOST": "127.0.0.1"}
SLUG = os.environ.get("LOAD_HALL_SLUG", "hall")


def cost(label: str, request: Callable[[], object], n: int, warm: int = 20) -> float:
    """Median CPU milliseconds of ``request()`` over ``n`` calls (after ``warm``)."""
    for _ in range(warm):
        request()
    times = []
    for _ in range(n):
        started = time.process_time()
        request()
        times.append(time.process_time() - started)
    value = statistics.median(times) * 1000
    print(f"{label}: {value:.2f} ms CPU (median of {n})")
    return value


class Board:
    """One game at its tablet: a legal turn at a time, as the tablet's page offers them."""

    def __init__(self, game: Game) -> None:
        self.path = tablet.path_for(game.pk)
        self.client = Client(**HOST)
        self.game = game

    def page(self) -> tuple[dict[str, list[dict[str, object]]], int]:
        html = self.client.get(self.path).content.decode()
        found = re.search(
            r'<script id="legal-plays" type="application/json">(.*?)</script>', html, re.S
        )
        ply = re.search(r'data-ply="(\d+)"', html)
        return (json.loads(found.group(1)) if found else {}), int(ply.group(1)) if ply else 0

    def next_turn(self) -> tuple[str, int] | None:
        """A legal turn as the page offers it, and the ply it follows (None: the game is over
        or adjourned — the load may have ended it)."""
        plays, ply = self.page()
        texts = [options[0]["text"] for _, options in sorted(plays.items()) if options]
        return (texts[0], ply) if texts else None

    def press(self, text: str, ply: int) -> None:
        response = self.client.post(
            f"{self.path}action/", {"action": "turn", "text": text, "ply": str(ply)}
        )
        assert response.status_code == 200, response.content[:200]

    def turn(self) -> bool:
        """Enter a turn if the game goes on; True if one was entered."""
        found = self.next_turn()
        if found is not None:
            self.press(*found)
        return found is not None


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    t = Tournament.objects.get(slug=SLUG)
    rnd = Round.objects.filter(tournament=t).order_by("-number").first()
    assert rnd is not None
    games = list(Game.objects.filter(board__round=rnd).order_by("board__number"))
    boards = [Board(g) for g in games]
    feed = f"/t/{SLUG}/round/{rnd.number}/live.json"
    spectator = Client(**HOST)
    gz = {"HTTP_ACCEPT_ENCODING": "gzip"}
    first = spectator.get(feed, **gz)
    tag = first["ETag"]
    print(f"{len(games)} games; the feed: {len(first.content)} bytes gzipped")
    cost(
        "multiboard feed, unchanged (304)",
        lambda: spectator.get(feed, HTTP_IF_NONE_MATCH=tag, **gz),
        n,
    )
    cost("multiboard feed, kept (200, gzip)", lambda: spectator.get(feed, **gz), n)
    cost(
        "multiboard page, kept (gzip)",
        lambda: spectator.get(f"/t/{SLUG}/round/{rnd.number}/live/", **gz),
        n,
    )
    # A game still going on (the load may have ended some): its page offers plays.
    board = next((b for b in boards if b.next_turn() is not None), boards[0])

    times = []
    for i in range(600):
        if len(times) == 40:
            break
        if not boards[i % len(boards)].turn():  # not counted: a turn makes the feed new
            continue
        started = time.process_time()
        spectator.get(feed, **gz)
        times.append(time.process_time() - started)
    print(
        f"multiboard feed after a turn (key and feed rebuilt, one game replayed): {statistics.median(times) * 1000:.2f} ms CPU (median of {len(times)})"
    )

    times = []
    for _ in range(20):
        cache.clear()
        started = time.process_time()
        spectator.get(feed, **gz)
        times.append(time.process_time() - started)
    print(
        f"multiboard feed from an empty cache (every game replayed): {statistics.median(times) * 1000:.2f} ms CPU (median of 20)"
    )

    Tournament.objects.filter(pk=t.pk).update(spectator_delay_minutes=5)
    times = []
    for _ in range(40):
        cache.delete_many([f"mb:key:{SLUG}:{rnd.number}:s"])  # the key's second is over
        started = time.process_time()
        spectator.get(feed, **gz)
        times.append(time.process_time() - started)
    print(
        f"multiboard feed delayed, its key read again (each second): {statistics.median(times) * 1000:.2f} ms CPU (median of 40)"
    )
    Tournament.objects.filter(pk=t.pk).update(spectator_delay_minutes=0)

    live = f"/games/{board.game.pk}/live.json"
    tag = spectator.get(live)["ETag"]
    cost("game live.json, unchanged (304)", lambda: spectator.get(live, HTTP_IF_NONE_MATCH=tag), n)
    cost(
        "game page reload (kept, gzip)", lambda: spectator.get(f"/games/{board.game.pk}/", **gz), n
    )
    cost("tablet's page", lambda: board.client.get(board.path), 50, warm=5)

    times = []
    for i in range(600):
        if len(times) == 60:
            break
        b = boards[i % len(boards)]
        found = b.next_turn()
        if found is None:
            continue
        started = time.process_time()
        b.press(*found)
        times.append(time.process_time() - started)
    print(f"tablet's turn: {statistics.median(times) * 1000:.2f} ms CPU (median of {len(times)})")


if __name__ == "__main__":
    main()
