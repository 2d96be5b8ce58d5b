"""Demo data: a running Swiss whose every game has a whole sheet played by the engine (for
``seed_demo``, the tests and the benchmarks), and the sheets themselves.

The stronger player races home (the play that brings most checkers home and the fewest pips
left), the weaker one picks a playable card and a play at random; clocks tick by a few
seconds a turn. Organiser terminations are entered part-way through.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from championship import services as championship
from championship.models import Board, Entrant, GameResult, Round, RoundStart, Tournament
from people.models import Person

from . import openings
from .clock import clock_text
from .engine import BLACK, WHITE, legal_plays, playable_cards
from .engine.core import PHASE_PLIES, State
from .engine.game import Game as EngineGame
from .models import Game, Turn
from .selectors import sheet_facts
from .services import clock_start, game_for, termination_side

FIRST = [
    "Анна",
    "Павел",
    "Olga",
    "Dmitri",
    "Мария",
    "Sam",
    "Игорь",
    "Lena",
    "Алексей",
    "Chris",
    "Наталья",
    "Victor",
    "Юлия",
    "Marco",
    "Сергей",
    "Priya",
    "Татьяна",
    "Omar",
    "Ирина",
    "Kevin",
]
LAST = [
    "Иванов",
    "Petrov",
    "Смирнов",
    "Kuznetsov",
    "Волков",
    "Patel",
    "Соколов",
    "Chen",
    "Морозов",
    "Novak",
    "Лебедев",
    "Singh",
    "Козлов",
    "Rossi",
    "Попов",
    "Kim",
    "Федоров",
    "Haddad",
]
CLUBS = [
    "Toronto",
    "Mississauga",
    "North York",
    "Richmond Hill",
    "Markham",
    "Scarborough",
    "Etobicoke",
]

ORGANISER_ENDS = ("time", "resign", "agreement")


def _pips(state: State, side: str) -> int:
    return sum(i * n for i, n in enumerate(state.board(side)))  # type: ignore[arg-type]


def _choose(eg: EngineGame, rng: random.Random, strong: bool) -> str:
    state = eg.state
    cards = playable_cards(state)
    side = state.to_move
    if not strong:
        return rng.choice(legal_plays(state, rng.choice(cards))).text
    best: tuple[float, str] | None = None
    for card in cards:
        for play in legal_plays(state, card):
            after = play.position()
            score = 10 * after.home_count(side) - _pips(after, side) + rng.random()
            if best is None or score > best[0]:
                best = (score, play.text)
    assert best is not None
    return best[1]


def play_game(
    rng: random.Random,
    *,
    strong: str | None,
    termination: str | None = None,
    stop_at: int | None = None,
    phase_seconds: tuple[int, int] = (1800, 1800),
) -> EngineGame:
    """A game's sheet. ``termination``: the one wanted (retried until the moves give it, for
    home/blocked/cards; entered part-way for time/resign/agreement; no turns for forfeit).
    ``stop_at``: stop undecided after that many plies (a game still being played)."""
    loser = BLACK if strong == WHITE else WHITE
    if termination == "forfeit":
        eg = EngineGame()
        eg.terminate("forfeit", loser)
        return eg
    organiser = termination in ORGANISER_ENDS
    for _attempt in range(30):
        eg = EngineGame()
        left = {WHITE: phase_seconds[0], BLACK: phase_seconds[0]}
        limit = stop_at
        if organiser:
            limit = rng.randint(8, 66) if termination != "time" else rng.randint(20, 60)
        while eg.outcome is None and (limit is None or eg.ply < limit):
            side = eg.state.to_move
            text = _choose(eg, rng, strong is not None and side == strong)
            left[side] = max(left[side] - rng.randint(5, 70), 1)
            eg.play(text, clock=clock_text(left[side] * 1000))
            if eg.ply == PHASE_PLIES:
                left = {WHITE: phase_seconds[1], BLACK: phase_seconds[1]}
        if organiser:
            if eg.outcome is not None:
                continue
            if termination == "agreement":
                eg.terminate("agreement")
            elif termination == "resign":
                eg.terminate("resign", loser if strong else eg.state.to_move)
            else:
                eg.terminate("time", eg.state.to_move)
            return eg
        if stop_at is not None:
            if eg.outcome is None:
                return eg
            continue
        if termination is None or eg.termination == termination:
            return eg
    return eg


def game_rows(eg: EngineGame) -> dict[str, Any]:
    """The stored fields of a played game (the turns come from ``eg.turns``)."""
    return {
        "termination": eg.terminated.termination if eg.terminated else "",
        "termination_side": termination_side(eg),
    }


def create_running_swiss(
    *,
    slug: str,
    players: int,
    rounds: int,
    seed: int = 1,
    name: str | None = None,
    unfinished_last: bool = True,
    total_rounds: int | None = None,
    people: list[Person] | None = None,
) -> Tournament:
    """(Re)create a Swiss with ``players`` entrants and ``rounds`` rounds paired by the engine and
    published, with results in which every termination appears; with ``unfinished_last`` the
    last round is still being played (half its results in). ``people``: who the first
    entrants are (the players of earlier events, for the club's rating). One transaction: the
    public pages and the club's rating are renewed once, after it, not after every round."""
    with transaction.atomic():
        rng = random.Random(seed)
        Tournament.objects.filter(slug=slug).delete()
        today = timezone.localdate()
        t = Tournament.objects.create(
            name=name or f"Demo Swiss ({players} players)",
            slug=slug,
            venue="Toronto",
            starts_on=today - timedelta(days=1),
            ends_on=today + timedelta(days=1),
            registration_open=False,
            system=Tournament.System.SWISS,
            rounds=total_rounds or max(rounds + 2, 7),
            status=Tournament.Status.RUNNING,
        )
        known = list(people or [])[:players]
        Entrant.objects.bulk_create(
            Entrant(
                tournament=t,
                name=known[i].name
                if i < len(known)
                else f"{rng.choice(FIRST)} {rng.choice(LAST)} {i + 1}",
                person=known[i] if i < len(known) else None,
                club=rng.choice(CLUBS),
                rating=max(800, int(rng.gauss(1600, 250))),
                checked_in=True,
            )
            for i in range(players)
        )
        # Every termination appears (the first results take one each), then a realistic mix.
        # Every game has its whole sheet, played by the rules engine; the result follows from it.
        forced = ["home", "blocked", "time", "cards", "resign", "agreement", "forfeit"]
        for number in range(1, rounds + 1):
            rnd = championship.round_pair_next(tournament=t)
            championship.round_publish(round=rnd)
            boards = list(rnd.boards.select_related("white", "black").exclude(black=None))
            last = number == rounds and unfinished_last and rounds > 1
            played = []
            for i, b in enumerate(boards):
                if last and i % 2:
                    played.append((b, _game(b, rng, None, stop_at=rng.randint(4, 50))))
                    continue
                played.append((b, _game(b, rng, forced.pop(0) if forced else None)))
            _store(t, played)
            t.refresh_from_db()
    t.refresh_from_db()  # the renewal after the commit may have given it a new version
    return t


def _game(b: Board, rng: random.Random, termination: str | None, stop_at: int | None = None) -> Any:
    if termination is None and stop_at is None:
        roll = rng.random()
        termination = (
            "forfeit"
            if roll < 0.02
            else "resign"
            if roll < 0.1
            else "time"
            if roll < 0.14
            else "agreement"
            if roll < 0.17
            else None
        )
    stronger = b.white if (b.white.rating or 0) >= (b.black.rating or 0) else b.black
    strong = None if rng.random() < 0.15 else ("white" if stronger == b.white else "black")
    return play_game(rng, strong=strong, termination=termination, stop_at=stop_at)


def _store(t: Tournament, played: list[tuple[Board, EngineGame]]) -> None:
    """Games and turns in a few queries; each game's result through the championship's
    write door, as a sheet gives it."""

    with transaction.atomic():
        stored = Game.objects.bulk_create(
            Game(board=b, number=1, event=t.name, **game_rows(eg)) for b, eg in played
        )
        Turn.objects.bulk_create(
            Turn(game=g, ply=turn.ply, text=turn.text, clock=turn.clock or "")
            for g, (_b, eg) in zip(stored, played, strict=True)
            for turn in eg.turns
        )
        openings.games_recorded((g, eg) for g, (_b, eg) in zip(stored, played, strict=True))
        for b, eg in played:
            plies, outcome = sheet_facts(eg)
            championship.game_result_sheet_set(
                board=b, number=1, plies=plies, outcome=outcome, user=None
            )


@transaction.atomic  # one commit: the pages and the rating are renewed once, not per round
def create_past_event(
    *, slug: str, name: str, people: list[Person], rounds: int, day: date, seed: int = 1
) -> Tournament:
    """(Re)create a finished Swiss played on ``day`` (one round a day from it) by ``people``:
    every round paired by the engine, results by the players' strength (no move sheets), so
    that the club's rating list has a history (``seed_demo``)."""
    rng = random.Random(seed)
    Tournament.objects.filter(slug=slug).delete()
    t = Tournament.objects.create(
        name=name,
        slug=slug,
        venue="Toronto",
        starts_on=day,
        ends_on=day + timedelta(days=rounds - 1),
        registration_open=False,
        system=Tournament.System.SWISS,
        rounds=rounds,
        status=Tournament.Status.RUNNING,
    )
    strength = {p.pk: rng.gauss(0, 1) for p in people}
    Entrant.objects.bulk_create(
        Entrant(tournament=t, name=p.name, person=p, club=rng.choice(CLUBS), checked_in=True)
        for p in people
    )
    for number in range(1, rounds + 1):
        rnd = championship.round_pair_next(tournament=t)
        championship.round_publish(round=rnd)
        Round.objects.filter(pk=rnd.pk).update(date=day + timedelta(days=number - 1))
        entries = []
        for b in rnd.boards.select_related("white", "black").exclude(black=None):
            edge = strength[b.white.person_id] - strength[b.black.person_id]
            roll = rng.random()
            win = 1 / (1 + 10 ** (-edge / 1.5))
            if roll < 0.03:
                result, termination = ("1-0" if edge > 0 else "0-1"), "forfeit"
            elif roll < 0.15:
                result, termination = "1/2-1/2", "agreement"
            else:
                white_wins = rng.random() < win
                result = "1-0" if white_wins else "0-1"
                termination = rng.choice(["home", "home", "blocked", "resign", "time"])
            entries.append(championship.ResultEntry(b, 1, result, termination))
        championship.game_result_set(entries=entries, user=None)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    championship.tournament_changed(t.pk)
    return t


def start_the_hall(t: Tournament, *, clocks: int = 4) -> None:
    """The demo's hall (issue 22): a schedule (the last round began 40 minutes ago, one round
    every 100 minutes) and the clocks of a few games still being played running, so that the
    multiboard, the hall and the venue screen have something live to show."""
    now = timezone.now()
    last = t.round_set.order_by("-number").first()
    if last is None:
        return
    for number in range(1, t.rounds + 1):
        RoundStart.objects.update_or_create(
            tournament=t,
            number=number,
            defaults={"starts_at": now + timedelta(minutes=100 * (number - last.number) - 40)},
        )
    undecided = set(
        GameResult.objects.filter(board__round=last, result="").values_list("board_id", "number")
    )
    open_games = [
        g
        for g in Game.objects.filter(board__round=last).order_by("board__number")
        if (g.board_id, g.number) in undecided
    ]
    for game in open_games[:clocks]:
        clock_start(game=game, user=None)


def open_hall_round(t: Tournament) -> Round:
    """Pair and publish ``t``'s next round with a game at a tablet on every board, every clock
    running (the hall's load test: ``loadtest/run.sh``, scenario ``hall``)."""
    rnd = championship.round_pair_next(tournament=t)
    championship.round_publish(round=rnd)
    for board in rnd.boards.exclude(black=None).select_related("round__tournament"):
        for number in range(1, t.games_per_pairing + 1):
            clock_start(game=game_for(board, number), user=None)
    return rnd
