"""Live games: 300 spectators polling one game in progress while its tablet enters turns
(docs/performance.md, "Live games"). Run by loadtest/run_live.sh against gunicorn.

Each spectator does what static/js/game_live.js does: every 3 seconds it asks
``/games/<id>/live.json`` with the ETag it last got (``304`` when nothing changed) and, when
the version changes, fetches the game page once (the reload). The tablet does what
static/js/clock.js does: it presses the clock with a turn (``POST .../action/``) every
``--every`` seconds. Measured: the spectators' answer times, how long after a turn each
spectator saw it, and the tablet's answer times, alone first and then under the spectators.
Standard library only; traffic only to the given host."""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import legal_plays, playable_cards  # noqa: E402  (pure Python, no Django)
from games.engine.game import Game as EngineGame  # noqa: E402


def turns(seed: int, count: int) -> list[str]:
    """The first ``count`` turns of a random game (fixed seed) that lasts that long."""
    for attempt in range(1000):
        rng = random.Random(seed * 1000 + attempt)
        eg = EngineGame()
        texts: list[str] = []
        while eg.outcome is None and len(texts) < count:
            card = rng.choice(playable_cards(eg.state))
            text = rng.choice(legal_plays(eg.state, card)).text
            eg.play(text)
            texts.append(text)
        if len(texts) == count and eg.outcome is None:
            return texts
    raise SystemExit("no game lasts that long")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Tablet:
    def __init__(self, host: str, port: int, path: str) -> None:
        self.conn = http.client.HTTPConnection(host, port, timeout=30)
        self.path = path
        self.conn.request("GET", path)
        response = self.conn.getresponse()
        response.read()
        cookie = response.getheader("Set-Cookie") or ""
        match = re.search(r"csrftoken=([^;]+)", cookie)
        if response.status != 200 or match is None:
            raise SystemExit(f"the tablet's page answered {response.status}")
        self.csrf = match.group(1)
        self.ply = 0

    def post(self, fields: dict[str, str]) -> tuple[float, dict]:
        body = "&".join(f"{k}={v}" for k, v in fields.items())
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": self.csrf,
            "Cookie": f"csrftoken={self.csrf}",
            "Referer": f"http://{self.conn.host}:{self.conn.port}{self.path}",
        }
        started = time.perf_counter()
        try:
            self.conn.request("POST", f"{self.path}action/", body=body, headers=headers)
            response = self.conn.getresponse()
        except (OSError, http.client.HTTPException):  # a kept-alive connection the server closed
            self.conn.close()
            self.conn.request("POST", f"{self.path}action/", body=body, headers=headers)
            response = self.conn.getresponse()
        data = json.loads(response.read() or b"{}")
        elapsed = time.perf_counter() - started
        if response.status != 200:
            raise SystemExit(f"the tablet's press was refused: {response.status} {data}")
        return elapsed, data

    def turn(self, text: str) -> float:
        from urllib.parse import quote

        elapsed, data = self.post({"action": "turn", "text": quote(text), "ply": str(self.ply)})
        self.ply = data["ply"]
        return elapsed


class Spectator(threading.Thread):
    def __init__(
        self,
        host: str,
        port: int,
        game: int,
        every: float,
        stop: threading.Event,
        seen: dict[int, float],
        lock: threading.Lock,
    ) -> None:
        super().__init__(daemon=True)
        self.host, self.port, self.game, self.every = host, port, game, every
        self.stop, self.turn_seen, self.lock = stop, seen, lock
        self.times: list[float] = []
        self.delays: list[float] = []
        self.statuses: dict[int, int] = {}
        self.errors = 0

    def run(self) -> None:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        etag = None
        version = None
        time.sleep(random.random() * self.every)  # spread like real visitors
        while not self.stop.is_set():
            started = time.perf_counter()
            headers = {"If-None-Match": etag} if etag else {}
            try:
                try:
                    conn.request("GET", f"/games/{self.game}/live.json", headers=headers)
                    response = conn.getresponse()
                except (OSError, http.client.HTTPException):
                    # The server closed the kept-alive connection meanwhile: a browser opens
                    # another one at once, and so does this.
                    conn.close()
                    conn.request("GET", f"/games/{self.game}/live.json", headers=headers)
                    response = conn.getresponse()
                body = response.read()
            except (OSError, http.client.HTTPException):
                self.errors += 1
                conn.close()
                conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                time.sleep(self.every)
                continue
            now = time.perf_counter()
            self.times.append(now - started)
            self.statuses[response.status] = self.statuses.get(response.status, 0) + 1
            if response.status == 200:
                etag = response.getheader("ETag")
                data = json.loads(body)
                if version is not None and data["version"] != version:
                    with self.lock:
                        entered = self.turn_seen.get(data["ply"])
                    if entered is not None:
                        self.delays.append(now - entered)
                    try:
                        conn.request("GET", f"/games/{self.game}/")  # the page reloads itself
                        conn.getresponse().read()
                    except (OSError, http.client.HTTPException):
                        self.errors += 1
                        conn.close()
                version = data["version"]
            self.stop.wait(max(0.0, self.every - (time.perf_counter() - started)))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="base URL, e.g. http://127.0.0.1:8812")
    parser.add_argument("--game", type=int, required=True)
    parser.add_argument("--tablet", required=True, help="the tablet's path (/tablet/<id>/<token>/)")
    parser.add_argument("--spectators", type=int, default=300)
    parser.add_argument("--poll", type=float, default=3.0, help="seconds between polls")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between turns")
    parser.add_argument("--turns", type=int, default=30)
    args = parser.parse_args()
    parts = urlsplit(args.url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80

    texts = turns(seed=7, count=args.turns + 5)
    tablet = Tablet(host, port, args.tablet)
    tablet.post({"action": "start"})
    alone = [tablet.turn(texts[i]) for i in range(5)]  # the tablet alone, as a baseline

    stop = threading.Event()
    seen: dict[int, float] = {}
    lock = threading.Lock()
    spectators = [
        Spectator(host, port, args.game, args.poll, stop, seen, lock)
        for _ in range(args.spectators)
    ]
    for s in spectators:
        s.start()
    time.sleep(args.poll + 1)  # every spectator is polling
    loaded = []
    for text in texts[5 : 5 + args.turns]:
        with lock:
            seen[tablet.ply + 1] = time.perf_counter()  # from the press of the clock
        elapsed = tablet.turn(text)
        loaded.append(elapsed)
        time.sleep(max(0.0, args.every - elapsed))
    time.sleep(args.poll + 1)  # the last turn reaches everyone
    stop.set()
    for s in spectators:
        s.join(timeout=10)

    polls = [t for s in spectators for t in s.times]
    delays = [d for s in spectators for d in s.delays]
    statuses: dict[int, int] = {}
    for s in spectators:
        for code, n in s.statuses.items():
            statuses[code] = statuses.get(code, 0) + n
    duration = args.turns * args.every + 2 * (args.poll + 1)
    ms = 1000
    print(
        f"spectators: {args.spectators}, polling every {args.poll:g} s; "
        f"{args.turns} turns, one every {args.every:g} s"
    )
    print(
        f"polls: {len(polls)} (~{len(polls) / duration:.0f}/s), statuses {statuses}, "
        f"errors {sum(s.errors for s in spectators)}"
    )
    print(
        f"poll answer: median {statistics.median(polls) * ms:.1f} ms, "
        f"p95 {pct(polls, 95) * ms:.1f} ms, p99 {pct(polls, 99) * ms:.1f} ms, "
        f"max {max(polls) * ms:.1f} ms"
    )
    print(
        f"a turn seen by a spectator after: median {statistics.median(delays):.2f} s, "
        f"p95 {pct(delays, 95):.2f} s, max {max(delays):.2f} s ({len(delays)} sightings)"
    )
    print(
        f"tablet's turn alone: median {statistics.median(alone) * ms:.1f} ms, "
        f"max {max(alone) * ms:.1f} ms"
    )
    print(
        f"tablet's turn under the spectators: median {statistics.median(loaded) * ms:.1f} ms, "
        f"p95 {pct(loaded, 95) * ms:.1f} ms, max {max(loaded) * ms:.1f} ms"
    )


if __name__ == "__main__":
    main()
