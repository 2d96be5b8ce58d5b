"""Load test: spectators on the public pages, organisers entering results (docs/performance.md).

Run by loadtest/run.sh against granian in production mode with PostgreSQL, Redis and a
Celery worker. Scenario selection by the LOAD_SCENARIO environment variable:
mixed (default), healthz (trivial view only), standings (standings page only).

The users are FastHttpUser (geventhttpclient; gzip accepted like a browser): the load generator
shares the machine with the server, and takes a fifth of the CPU the requests-based HttpUser
takes for the same traffic.
"""

from __future__ import annotations

import os
import random
import re

from locust import between, constant, task
from locust.contrib.fasthttp import FastHttpUser

SLUG = os.environ.get("LOAD_SLUG", "load")
ROUNDS = int(os.environ.get("LOAD_ROUNDS", "9"))
SCENARIO = os.environ.get("LOAD_SCENARIO", "mixed")
ORGANISER = os.environ.get("LOAD_ORGANISER", "organiser")
PASSWORD = os.environ.get("LOAD_PASSWORD", "nardy-organiser-2027")


class Spectator(FastHttpUser):
    """Someone refreshing standings, pairings and game pages on a phone."""

    weight = 20
    wait_time = between(0.5, 1.5) if SCENARIO == "mixed" else constant(0)

    @task(5)
    def standings(self) -> None:
        if SCENARIO == "healthz":
            self.client.get("/healthz", name="/healthz")
            return
        self.client.get(f"/t/{SLUG}/standings/", name="/t/[slug]/standings/")

    @task(3)
    def pairings(self) -> None:
        if SCENARIO != "mixed":
            return self.standings()
        self.client.get(
            f"/t/{SLUG}/pairings/{random.randint(1, ROUNDS)}/", name="/t/[slug]/pairings/[n]/"
        )

    @task(1)
    def crosstable(self) -> None:
        if SCENARIO != "mixed":
            return self.standings()
        self.client.get(f"/t/{SLUG}/crosstable/", name="/t/[slug]/crosstable/")

    #: Game pages linked from the crosstable (a pairing's game, which redirects to its page).
    game_links: list[str] = []

    @task(2)
    def game(self) -> None:
        if SCENARIO != "mixed":
            return self.standings()
        if not Spectator.game_links:
            html = self.client.get(f"/t/{SLUG}/crosstable/", name="/t/[slug]/crosstable/").text
            Spectator.game_links = sorted(set(re.findall(r"/games/pairing/\d+/\d+/", html)))
        if Spectator.game_links:
            self.client.get(random.choice(Spectator.game_links), name="/games/[id]/")

    @task(1)
    def overview(self) -> None:
        if SCENARIO != "mixed":
            return self.standings()
        self.client.get(f"/t/{SLUG}/", name="/t/[slug]/")


class Organiser(FastHttpUser):
    """An organiser at the hall entering the results of the running round."""

    weight = 1 if SCENARIO == "mixed" else 0
    wait_time = between(2, 4)
    #: Games whose result the organisers entered by hand (those they may correct).
    entered: list[str] = []

    def on_start(self) -> None:
        page = self.client.get("/accounts/login/", name="login")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        self.client.post(
            "/accounts/login/",
            {
                "username": ORGANISER,
                "password": PASSWORD,
                "csrfmiddlewaretoken": token.group(1) if token else "",
            },
            headers={"Referer": self.host + "/accounts/login/"},
            name="login",
        )

    @task
    def enter_a_result(self) -> None:
        url = f"/t/{SLUG}/manage/round/{ROUNDS}/"
        page = self.client.get(url, name="/t/[slug]/manage/round/[n]/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        versions = dict(re.findall(r'name="version-(\d+)" value="(\d+)"', page.text))
        # The games still without a result (what an organiser enters in the hall): their
        # result box has no option selected. Every game has a move sheet, so the result is one
        # the sheet allows: a resignation or a draw agreed. Once every game has its result,
        # organisers correct one entered by hand (a resignation the other way round): every
        # save changes what the public pages show, all through the run.
        chosen = {
            (kind, game): (found.group(1) if found else "")
            for kind, game, options in re.findall(
                r'name="(result|termination)-(\d+)"[^>]*>(.*?)</select>', page.text, re.S
            )
            for found in [re.search(r'value="([^"]+)"[^>]*selected', options)]
        }
        games = sorted({game for _kind, game in chosen})
        open_games = [g for g in games if not chosen[("result", g)]]
        resigned = [g for g in Organiser.entered if chosen.get(("termination", g)) == "resign"]
        if not token or not (open_games or resigned):
            return
        if open_games:
            board = random.choice(open_games)
            result, termination = random.choice(
                [("1-0", "resign"), ("0-1", "resign"), ("1/2-1/2", "agreement")]
            )
        else:
            board = random.choice(resigned)
            result = "0-1" if chosen[("result", board)] == "1-0" else "1-0"
            termination = "resign"
        version = versions[board]
        with self.client.post(
            url,
            {
                "csrfmiddlewaretoken": token.group(1),
                "action": "results",
                f"result-{board}": result,
                f"termination-{board}": termination,
                f"version-{board}": version,
            },
            headers={"Referer": self.host + url},
            name="/t/[slug]/manage/round/[n]/ (save)",
            catch_response=True,
        ) as response:
            if response.status_code < 400:
                Organiser.entered.append(board)
            if response.status_code == 409:
                # Another organiser entered this game's result a moment before: the page says
                # so and shows it (what the application is to do, not a failure).
                response.success()


# --- The hall (issue 22): the multiboard, live games and standings while tablets play ------
# LOAD_SCENARIO=hall, run by loadtest/run_hall.sh: a round of LOAD_HALL_BOARDS boards at
# tablets (seed_demo --hall), every clock running. Each tablet enters a legal turn every 3-9 s
# (ten times a real round's pace) and reloads its page, as static/js/clock.js does; the
# spectators do what their pages' scripts do: the multiboard polls its feed every 2 s, a game's
# page polls live.json every 2 s and reloads on a new version, the standings poll the
# tournament's version every 20 s. When a spectator first sees a turn, the time since the
# tablet's press was answered is recorded as a request named "turn seen (...)".

import itertools  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
import urllib.request  # noqa: E402
from http.cookiejar import CookieJar  # noqa: E402

from gevent.lock import Semaphore  # noqa: E402
from locust import events  # noqa: E402

HALL = SCENARIO == "hall"
HALL_SLUG = os.environ.get("LOAD_HALL_SLUG", "hall")
HALL_ROUND = int(os.environ.get("LOAD_HALL_ROUND", "5"))
SPECTATORS = int(os.environ.get("LOAD_SPECTATORS", "1000"))
#: When each turn's press was answered: (game id, ply) -> time.time().
TURNS: dict[tuple[int, int], float] = {}
_links: list[str] = []
_links_lock = Semaphore()


def tablet_links(host: str) -> list[str]:
    """The tablets' links of the round, as the organiser's printed sheet has them (read once,
    logged in as the organiser, with the standard library: no user's session is spent)."""
    with _links_lock:
        if _links:
            return _links
        jar = CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        login = opener.open(f"{host}/accounts/login/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login)
        data = urllib.parse.urlencode(
            {
                "username": ORGANISER,
                "password": PASSWORD,
                "csrfmiddlewaretoken": token.group(1) if token else "",
            }
        ).encode()
        request = urllib.request.Request(
            f"{host}/accounts/login/", data=data, headers={"Referer": f"{host}/accounts/login/"}
        )
        opener.open(request).read()
        sheet = opener.open(f"{host}/t/{HALL_SLUG}/round/{HALL_ROUND}/tablets/").read().decode()
        _links.extend(sorted(set(re.findall(r'href="https?://[^/"]+(/tablet/\d+/[^"]+/)"', sheet))))
        return _links


def _game_of(path: str) -> int:
    return int(path.split("/")[2])


def turn_seen(kind: str, game: int, ply: int) -> None:
    pressed = TURNS.get((game, ply))
    if pressed is None:
        return
    events.request.fire(
        request_type="SEEN",
        name=f"turn seen ({kind})",
        response_time=(time.time() - pressed) * 1000,
        response_length=0,
        exception=None,
        context={},
    )


class Tablet(FastHttpUser):
    """The tablet at a board: a legal turn every few seconds, then its page again."""

    fixed_count = 30 if HALL else 0
    weight = 0
    wait_time = between(3, 9)
    _taken = itertools.count()

    def on_start(self) -> None:
        links = tablet_links(self.host)
        self.path = links[next(Tablet._taken) % len(links)]
        self.game = _game_of(self.path)
        self.load()

    #: The tablet waits seconds before its next press: long enough for a server to close an
    #: idle connection, and the client does not send a POST again on a connection the server
    #: closed meanwhile (a browser does). So the page's connection is not kept.
    CLOSE = {"Connection": "close"}

    def load(self) -> None:
        page = self.client.get(self.path, headers=self.CLOSE, name="/tablet/[id]/ (page)")
        html = page.text or ""
        found = re.search(
            r'<script id="legal-plays" type="application/json">(.*?)</script>', html, re.S
        )
        self.plays = json.loads(found.group(1)) if found else {}
        ply = re.search(r'data-ply="(\d+)"', html)
        self.ply = int(ply.group(1)) if ply else 0
        self.over = 'data-over="1"' in html or page.status_code != 200
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        self.csrf = token.group(1) if token else ""

    @task
    def turn(self) -> None:
        if self.over or not self.plays:
            self.client.get(
                self.path + "state.json", headers=self.CLOSE, name="/tablet/[id]/state.json"
            )
            return
        card = random.choice(sorted(self.plays))
        text = random.choice(self.plays[card])["text"]
        with self.client.post(
            self.path + "action/",
            {
                "action": "turn",
                "text": text,
                "ply": str(self.ply),
                "csrfmiddlewaretoken": self.csrf,
            },
            headers={"Referer": self.host + self.path},
            name="/tablet/[id]/action/ (turn)",
            catch_response=True,
        ) as response:
            if response.status_code == 200:
                TURNS[(self.game, self.ply + 1)] = time.time()
            elif response.status_code == 400 and "flag" in (response.text or ""):
                response.success()  # the game ended on time: the application's answer
        self.load()


class MultiboardWatcher(FastHttpUser):
    """A spectator on the round's multiboard (static/js/multiboard.js)."""

    fixed_count = SPECTATORS * 6 // 10 if HALL else 0
    weight = 0
    wait_time = constant(2)

    def on_start(self) -> None:
        self.url = f"/t/{HALL_SLUG}/round/{HALL_ROUND}/live.json"
        self.client.get(
            f"/t/{HALL_SLUG}/round/{HALL_ROUND}/live/", name="/t/[slug]/round/[n]/live/"
        )
        self.etag = ""
        self.plies: dict[int, int] | None = None

    @task
    def poll(self) -> None:
        headers = {"If-None-Match": self.etag} if self.etag else {}
        response = self.client.get(self.url, headers=headers, name="/t/[slug]/round/[n]/live.json")
        if response.status_code != 200:
            return
        self.etag = response.headers.get("ETag", "")
        plies = {
            int(g["url"].split("/")[2]): g["ply"] for g in response.json()["games"] if g["url"]
        }
        if self.plies is not None:
            for game, ply in plies.items():
                if ply > self.plies.get(game, ply):
                    turn_seen("multiboard", game, ply)
        self.plies = plies


class GameWatcher(FastHttpUser):
    """A spectator following one game's page (static/js/game_live.js)."""

    fixed_count = SPECTATORS * 3 // 10 if HALL else 0
    weight = 0
    wait_time = constant(2)
    _taken = itertools.count()

    def on_start(self) -> None:
        links = tablet_links(self.host)
        self.game = _game_of(links[next(GameWatcher._taken) % len(links)])
        self.etag = ""
        self.version = ""
        self.client.get(f"/games/{self.game}/", name="/games/[id]/ (live)")

    @task
    def poll(self) -> None:
        headers = {"If-None-Match": self.etag} if self.etag else {}
        response = self.client.get(
            f"/games/{self.game}/live.json", headers=headers, name="/games/[id]/live.json"
        )
        if response.status_code != 200:
            return
        self.etag = response.headers.get("ETag", "")
        data = response.json()
        version = str(data["version"])
        if self.version and version != self.version:
            self.client.get(f"/games/{self.game}/", name="/games/[id]/ (live)")  # the reload
            turn_seen("game page", self.game, data["ply"])
        self.version = version


class StandingsWatcher(FastHttpUser):
    """A spectator on the standings (static/js/live.js: the version every 20 s)."""

    fixed_count = SPECTATORS - SPECTATORS * 6 // 10 - SPECTATORS * 3 // 10 if HALL else 0
    weight = 0
    wait_time = constant(20)

    def on_start(self) -> None:
        self.client.get(f"/t/{HALL_SLUG}/standings/", name="/t/[slug]/standings/")
        self.version = ""

    @task
    def poll(self) -> None:
        response = self.client.get(f"/t/{HALL_SLUG}/version.json", name="/t/[slug]/version.json")
        if response.status_code != 200:
            return
        version = str(response.json()["version"])
        if self.version and version != self.version:
            self.client.get(f"/t/{HALL_SLUG}/standings/", name="/t/[slug]/standings/")
        self.version = version
