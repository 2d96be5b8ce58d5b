"""A spectator's requests timed by a process of their own, beside the load (docs/
performance.md, "The hall"): the round's multiboard feed, a game's ``live.json`` and the
standings' ``version.json``, one after another every ``--every`` seconds on one kept
connection, as a browser on another machine would see them. The load generator's own
figures include the waits of its one event loop serving 1,030 users on the same two cores;
this one's do not (it is idle between its requests).

Usage: python loadtest/probe.py --host http://127.0.0.1:8812 --slug hall --round 5 --seconds 60
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import statistics
import time
from urllib.parse import urlsplit


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="http://127.0.0.1:8812")
    parser.add_argument("--slug", default="hall")
    parser.add_argument("--round", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--every", type=float, default=0.25)
    args = parser.parse_args()
    where = urlsplit(args.host)

    def connect() -> http.client.HTTPConnection:
        return http.client.HTTPConnection(where.hostname, where.port or 80, timeout=10)

    def once(path: str) -> tuple[int, bytes]:
        conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
        response = conn.getresponse()
        body = response.read()
        if response.getheader("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        return response.status, body

    conn = connect()

    def get(path: str) -> tuple[int, bytes]:
        """A GET on the kept connection; if the server had closed it, once more on a new one."""
        nonlocal conn
        try:
            return once(path)
        except (ConnectionError, http.client.HTTPException):
            conn.close()
            conn = connect()
            return once(path)

    feed = f"/t/{args.slug}/round/{args.round}/live.json"
    status, body = get(feed)
    game = next(g["url"] for g in json.loads(body)["games"] if g["url"])
    paths = {
        "multiboard feed": feed,
        "a game's live.json": f"{game}live.json",
        "the standings' version.json": f"/t/{args.slug}/version.json",
    }
    times: dict[str, list[float]] = {name: [] for name in paths}
    errors = 0
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        for name, path in paths.items():
            started = time.perf_counter()
            try:
                status, _ = get(path)
            except (OSError, http.client.HTTPException):
                status = 0
            if status != 200:
                errors += 1
                continue
            times[name].append((time.perf_counter() - started) * 1000)
        time.sleep(args.every)
    print(f"the probe's spectator ({args.seconds:.0f} s, every {args.every} s): {errors} errors")
    for name, values in times.items():
        values.sort()
        if not values:
            continue
        p95, p99 = values[int(0.95 * (len(values) - 1))], values[int(0.99 * (len(values) - 1))]
        print(
            f"  {name}: {len(values)} requests, p50 {statistics.median(values):.1f} ms, "
            f"p95 {p95:.1f} ms, p99 {p99:.1f} ms, max {values[-1]:.1f} ms"
        )


if __name__ == "__main__":
    main()
