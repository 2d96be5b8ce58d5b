"""What one request of a live game costs the server, in CPU time (docs/performance.md, "Live
games"): the spectators' poll unchanged (304) and changed (200), the page's reload, and the
tablet's turn. Run by loadtest/run_live.sh in the same configuration as the server (Django in
this process, the whole middleware stack, the same database and cache settings). CPU time of
this process (``time.process_time``) is used, not the wall clock: on a machine shared with
other work the wall clock measures the others too.

Usage: python loadtest/live_cost.py <game id> <tablet path> [requests]"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "championship.settings")

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402

from tests.games.helpers import reach  # noqa: E402

HOST = {"HTTP_HOST": "127.0.0.1"}


def cost(label: str, request, n: int) -> float:  # type: ignore[no-untyped-def]
    """Median CPU milliseconds of ``request()`` over ``n`` calls (after 20 to warm up)."""
    for _ in range(20):
        request()
    times = []
    for _ in range(n):
        started = time.process_time()
        request()
        times.append(time.process_time() - started)
    value = statistics.median(times) * 1000
    print(f"{label}: {value:.2f} ms CPU (median of {n})")
    return value


def main() -> None:
    game, path = int(sys.argv[1]), sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 500
    spectator = Client(**HOST)
    tablet = Client(enforce_csrf_checks=False, **HOST)
    assert tablet.get(path).status_code == 200
    tablet.post(f"{path}action/", {"action": "start"})
    texts = reach(lambda eg: eg.ply == 60)
    tablet.post(f"{path}action/", {"action": "turn", "text": texts[0], "ply": "0"})
    first = spectator.get(f"/games/{game}/live.json")
    assert first.status_code == 200, first.status_code
    tag = first["ETag"]
    cost(
        "live.json, unchanged (304)",
        lambda: spectator.get(f"/games/{game}/live.json", HTTP_IF_NONE_MATCH=tag),
        n,
    )
    cost(
        "live.json, changed (200, replay cached)",
        lambda: spectator.get(f"/games/{game}/live.json"),
        n,
    )
    cost(
        "game page reload (cached, gzip)",
        lambda: spectator.get(f"/games/{game}/", HTTP_ACCEPT_ENCODING="gzip"),
        n,
    )
    ply = [1]

    def turn() -> None:
        response = tablet.post(
            f"{path}action/", {"action": "turn", "text": texts[ply[0]], "ply": str(ply[0])}
        )
        assert response.status_code == 200, response.content
        ply[0] += 1

    started = time.process_time()
    for _ in range(40):
        turn()
    print(f"tablet's turn: {(time.process_time() - started) / 40 * 1000:.2f} ms CPU (mean of 40)")


if __name__ == "__main__":
    main()
