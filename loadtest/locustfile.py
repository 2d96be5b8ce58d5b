"""Load test: spectators on the public pages, organisers entering results (docs/performance.md).

Run by loadtest/run.sh against gunicorn in production mode with PostgreSQL, Redis and a
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
