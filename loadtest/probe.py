"""A spectator's requests timed by a process of their own, beside the load (docs/
performance.md, "The hall"): the round's multiboard feed, a game's ``live.json`` and the
standings' ``version.json``, one after another every ``--every`` seconds on one kept
connection, as a browser on another machine would see them. The load generator's own
figures include the waits of its one event loop serving 1,030 users on the same two cores;
this one's do not (it is idle between its requests).

Usage: python loadtest/probe.py --host http://127.0.0.1:8812 --slug hall --round 5 --seconds 60

With ``--tablet PATH[,PATH...]`` it is some of the round's tablets instead, a thread each (the
generator leaves their links to it, ``--probed-tablet``): as the others, a legal turn every
3–9 s, the page loaded again after each, every request on a new connection; the turns are
timed.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import random
import re
import statistics
import threading
import time
from urllib.parse import urlencode, urlsplit


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="http://127.0.0.1:8812")
    parser.add_argument("--slug", default="hall")
    parser.add_argument("--round", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--every", type=float, default=0.25)
    parser.add_argument("--tablet", default="", help="a tablet's link: time its turns")
    args = parser.parse_args()
    where = urlsplit(args.host)
    if args.tablet:
        tablets(
            where.hostname or "127.0.0.1", where.port or 80, args.tablet.split(","), args.seconds
        )
        return

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
        report(name, values)


def report(name: str, values: list[float]) -> None:
    values.sort()
    if not values:
        return
    p95, p99 = values[int(0.95 * (len(values) - 1))], values[int(0.99 * (len(values) - 1))]
    print(
        f"  {name}: {len(values)} requests, p50 {statistics.median(values):.1f} ms, "
        f"p95 {p95:.1f} ms, p99 {p99:.1f} ms, max {values[-1]:.1f} ms"
    )


def tablets(host: str, port: int, paths: list[str], seconds: float) -> None:
    """``paths``' tablets at once, a thread each; their turns' times together."""
    times: list[float] = []
    errors: list[int] = []
    threads = [
        threading.Thread(target=tablet, args=(host, port, path, seconds, times, errors))
        for path in paths
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(
        f"the probe's tablets ({len(paths)}, {seconds:.0f} s, a turn every 3-9 s each): "
        f"{len(errors)} errors"
    )
    report("the tablet's turn", times)


def tablet(
    host: str, port: int, path: str, seconds: float, times: list[float], errors: list[int]
) -> None:
    """One tablet as the generator's are (``tablet`` in loadtest/hall_load.mjs), its turns
    timed into ``times``: what a player's press waits for, without the generator's event
    loop."""
    cookies: dict[str, str] = {}

    def request(method: str, url: str, body: str = "") -> tuple[int, str]:
        conn = http.client.HTTPConnection(host, port, timeout=10)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        if body:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://{host}:{port}{path}"
        conn.request(method, url, body=body or None, headers=headers)
        response = conn.getresponse()
        text = response.read().decode()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                cookies[name.strip()] = rest.split(";")[0]
        conn.close()
        return response.status, text

    def page() -> tuple[dict[str, list[dict[str, str]]], int, str]:
        _status, html = request("GET", path)
        found = re.search(
            r'<script id="legal-plays" type="application/json">(.*?)</script>', html, re.S
        )
        ply = re.search(r'data-ply="(\d+)"', html)
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        return (
            json.loads(found.group(1)) if found else {},
            int(ply.group(1)) if ply else 0,
            csrf.group(1) if csrf else "",
        )

    plays, ply, csrf = page()
    end = time.monotonic() + seconds
    while time.monotonic() + 9 < end:
        time.sleep(random.uniform(3, 9))
        if not plays:  # the game is over: the generator's tablets look at its state then
            request("GET", f"{path}state.json")
            continue
        card = random.choice(sorted(plays))
        text = random.choice(plays[card])["text"]
        body = urlencode(
            {"action": "turn", "text": text, "ply": str(ply), "csrfmiddlewaretoken": csrf}
        )
        started = time.perf_counter()
        try:
            status, answer = request("POST", f"{path}action/", body)
        except (OSError, http.client.HTTPException):
            status, answer = 0, ""
        elapsed = (time.perf_counter() - started) * 1000
        if status == 200 or (status == 400 and "flag" in answer):
            times.append(elapsed)
        else:
            errors.append(status)
        plays, ply, csrf = page()


if __name__ == "__main__":
    main()
