"""Reads of people across tournaments and of the club's rating list: the list at the end of a
month, a person's page (every tournament, game, score and rating change), a person's games
(for the analysis of their play), and the rating columns of a tournament's crosstable.

A bounded number of queries each, whatever the number of events, games or people (tested).
Writes are ``services.ratings`` (the list) and ``people.services`` (merges and splits)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction

from django.db.models import Q, Sum
from django.utils import timezone

from people.models import Person

from . import manager
from .models import (
    Board,
    Entrant,
    GameResult,
    PersonRating,
    RatedGame,
    RatingRun,
    Round,
    Tournament,
)
from .rating import PROVISIONAL_RD, month_index, month_of


@dataclass(frozen=True)
class ListRow:
    """A person on the list at the end of a month."""

    person_id: int
    name: str
    rating: float
    rd: float
    volatility: float
    games: int  # rated games up to the end of the month
    month_games: int  # rated games in the month
    change: float | None  # since the end of the month before (None: new on the list)

    @property
    def provisional(self) -> bool:
        return self.rd >= PROVISIONAL_RD


@dataclass(frozen=True)
class RatingList:
    month: date | None
    established: list[ListRow]
    provisional: list[ListRow]
    months: list[date]
    run: RatingRun | None

    @property
    def month_end(self) -> date | None:
        """The last day of the list's month (the day the list is "as of")."""
        if self.month is None:
            return None
        return month_of(month_index(self.month) + 1) - timedelta(days=1)


def rating_run() -> RatingRun | None:
    """The list in force (None before any rated game was ever computed)."""
    return RatingRun.objects.order_by("-computed_at", "-pk").first()


def rating_months(run: RatingRun | None) -> list[date]:
    """The months of the list, newest first."""
    if run is None or run.first_month is None or run.last_month is None:
        return []
    first, last = month_index(run.first_month), month_index(run.last_month)
    return [month_of(m) for m in range(last, first - 1, -1)]


def rating_list(month: date | None = None) -> RatingList:
    """The list at the end of ``month`` (None: the current list, after the last month with a
    rated game): established players by rating, provisional ones apart. Four queries."""
    run = rating_run()
    months = rating_months(run)
    if not months:
        return RatingList(None, [], [], [], run)
    wanted = months[0] if month is None else month_of(month_index(month))
    if wanted not in months:
        return RatingList(wanted, [], [], months, run)
    previous = month_of(month_index(wanted) - 1)
    before = dict(PersonRating.objects.filter(month=previous).values_list("person_id", "rating"))
    totals = dict(
        PersonRating.objects.filter(month__lte=wanted)
        .values("person_id")
        .annotate(total=Sum("games"))
        .values_list("person_id", "total")
    )
    rows = [
        ListRow(
            person_id=pid,
            name=name,
            rating=rating,
            rd=rd,
            volatility=volatility,
            games=totals.get(pid, 0) or 0,
            month_games=games,
            change=None if pid not in before else rating - before[pid],
        )
        for pid, name, rating, rd, volatility, games in PersonRating.objects.filter(
            month=wanted
        ).values_list("person_id", "person__name", "rating", "rd", "volatility", "games")
    ]
    rows.sort(key=lambda r: (-r.rating, r.name, r.person_id))
    return RatingList(
        wanted,
        [r for r in rows if not r.provisional],
        [r for r in rows if r.provisional],
        months,
        run,
    )


def current_ratings(person_ids: list[int]) -> dict[int, PersonRating]:
    """Each person's rating on the current list (those on it), in one query."""
    run = rating_run()
    if run is None or run.last_month is None:
        return {}
    return {
        r.person_id: r
        for r in PersonRating.objects.filter(person_id__in=person_ids, month=run.last_month)
    }


@dataclass(frozen=True)
class Side:
    """One side of a rated game: rating before the month, after it, RD of each, and the
    game's share of the month's change."""

    before: float
    before_rd: float
    after: float
    after_rd: float
    change: float

    @property
    def before_provisional(self) -> bool:
        return self.before_rd >= PROVISIONAL_RD

    @property
    def after_provisional(self) -> bool:
        return self.after_rd >= PROVISIONAL_RD


def _sides(rated: RatedGame | None) -> tuple[Side | None, Side | None]:
    if rated is None:
        return None, None
    return (
        Side(
            rated.white_before,
            rated.white_before_rd,
            rated.white_after,
            rated.white_after_rd,
            rated.white_change,
        ),
        Side(
            rated.black_before,
            rated.black_before_rd,
            rated.black_after,
            rated.black_after_rd,
            rated.black_change,
        ),
    )


@dataclass
class PersonGame:
    """A game of the person (a bye has no opponent): round, colour, opponent, the person's
    score, how it ended, whether it has a sheet (and analysis), and its ratings."""

    tournament: Tournament
    round: int
    day: date | None
    board_id: int
    number: int  # game 1, or 2 of a two-game pairing
    colour: str  # "w", "b" or "" for a bye
    opponent: Entrant | None
    opponent_person_id: int | None
    result: str  # the person's score as the crosstable writes it (1, ½, 0, +, −, ...)
    termination: str
    has_sheet: bool
    analysed: bool
    rated: Side | None
    bye: str = ""


@dataclass
class PersonEvent:
    tournament: Tournament
    entrant: Entrant
    points: Fraction = Fraction(0)
    games: list[PersonGame] = field(default_factory=list)
    change: float = 0.0  # the sum of the shares of its rated games


@dataclass
class PersonPage:
    person: Person
    events: list[PersonEvent]
    rating: PersonRating | None
    history: list[PersonRating]
    rated_games: int


_SYMBOLS = {"1": "1", "0": "0", "=": "½", "+": "+", "-": "−", "W": "1", "L": "0", "D": "½"}


def _score(code: str | None) -> str:
    return _SYMBOLS.get(code or "", code or "")


def _boards(person: Person) -> tuple[list[Board], dict[int, list[GameResult]]]:
    """The person's boards in published rounds (with tournament, round and both sides) and
    their games' results with their ratings: two queries."""
    boards = list(
        Board.objects.filter(round__status=Round.Status.PUBLISHED)
        .filter(Q(white__person=person) | Q(black__person=person))
        .select_related("round__tournament", "white", "black")
        .order_by("round__tournament__starts_on", "round__tournament_id", "round__number")
    )
    results: dict[int, list[GameResult]] = defaultdict(list)
    for g in (
        GameResult.objects.filter(board__in=[b.pk for b in boards])
        .select_related("rating")
        .order_by("board_id", "number")
    ):
        results[g.board_id].append(g)
    return boards, results


def _games_of_board(person: Person, b: Board, played: list[GameResult]) -> list[PersonGame]:
    t = b.round.tournament
    published = b.round.published_at
    day = b.round.date or (timezone.localdate(published) if published else None)
    mine_white = b.white.person_id == person.pk
    if b.black is None:
        bye = b.bye or "U"
        return [
            PersonGame(
                t,
                b.round.number,
                day,
                b.pk,
                1,
                "",
                None,
                None,
                _score(bye),
                "",
                False,
                False,
                None,
                bye=bye,
            )
        ]
    opponent = b.black if mine_white else b.white
    out = []
    for g in played:
        white = mine_white if g.number == 1 else not mine_white
        codes = (
            manager.codes(b.black_id, "", [(g.result, g.termination)]) if g.result else ("*", "*")
        )
        code = codes[0] if white else codes[1]
        out.append(
            PersonGame(
                tournament=t,
                round=b.round.number,
                day=day,
                board_id=b.pk,
                number=g.number,
                colour="w" if white else "b",
                opponent=opponent,
                opponent_person_id=opponent.person_id,
                result="" if code in ("*", None) else _score(code),
                termination=g.termination,
                has_sheet=g.has_sheet,
                analysed=g.analysis_counts("white" if white else "black") is not None,
                rated=_sides(getattr(g, "rating", None))[0 if white else 1],
            )
        )
    return out


def person_games(person: Person) -> list[PersonGame]:
    """Every game (and bye) of the person in published rounds, oldest first: two queries
    whatever their number. For the person's page, and for whoever needs a person's play
    across events (e.g. an analysis of their games)."""
    boards, results = _boards(person)
    return [g for b in boards for g in _games_of_board(person, b, results.get(b.pk, []))]


def person_page(person: Person) -> PersonPage:
    """Everything the public page of a person shows: each tournament they played (newest
    first) with its games, their score (the tournament's points) and the change of rating
    in it, and their rating now and at the end of each month. Five queries, whatever the
    number of events and games; no personal data (contacts stay on the registrations)."""
    entrants = list(
        Entrant.objects.filter(person=person)
        .select_related("tournament")
        .order_by("-tournament__starts_on", "-tournament_id")
    )
    events = {e.tournament_id: PersonEvent(e.tournament, e) for e in entrants}
    boards, results = _boards(person)
    for b in boards:
        event = events.get(b.round.tournament_id)
        if event is None:
            continue
        played = results.get(b.pk, [])
        t = event.tournament
        codes = manager.codes(
            b.black_id,
            b.bye,
            [(g.result, g.termination) for g in played],
            t.games_per_pairing == 2,
        )
        code = codes[0] if b.white.person_id == person.pk else codes[1]
        event.points += manager.points_system(t).table.get(code or "*", Fraction(0))
        games = _games_of_board(person, b, played)
        event.games += games
        event.change += sum(g.rated.change for g in games if g.rated is not None)
    history = list(PersonRating.objects.filter(person=person).order_by("-month"))
    run = rating_run()
    current = next((h for h in history if run is not None and h.month == run.last_month), None)
    return PersonPage(
        person=person,
        events=list(events.values()),
        rating=current,
        history=history,
        rated_games=sum(h.games for h in history),
    )


@dataclass
class TournamentRatings:
    """The club's rating in a tournament's crosstable: per entrant id, (rating before its
    first rated game's month, its RD, rating after its last one's month, its RD, the sum of
    its games' shares); per (round, entrant id), the share of that round's game(s)."""

    rows: dict[int, tuple[float, float, float, float, float]] = field(default_factory=dict)
    cells: dict[tuple[int, int], float] = field(default_factory=dict)


def tournament_ratings(t: Tournament) -> TournamentRatings:
    """One query, whatever the tournament's size."""
    found = (
        RatedGame.objects.filter(game_result__board__round__tournament=t)
        .order_by("month", "game_result__board__round__number", "game_result__number")
        .values_list(
            "game_result__board__round__number",
            "game_result__number",
            "game_result__board__white_id",
            "game_result__board__black_id",
            *RatedGame.SIDE_COLUMNS,
        )
    )
    out = TournamentRatings()
    for row in found:
        number, game, white, black = row[:4]
        sides = ((white, row[4:9]), (black, row[9:14]))
        if game == 2:  # the board's black has White in game 2
            sides = ((white, row[9:14]), (black, row[4:9]))
        for entrant, (before, before_rd, after, after_rd, change) in sides:
            known = out.rows.get(entrant)
            if known is None:
                out.rows[entrant] = (before, before_rd, after, after_rd, change)
            else:
                out.rows[entrant] = (known[0], known[1], after, after_rd, known[4] + change)
            out.cells[(number, entrant)] = out.cells.get((number, entrant), 0.0) + change
    return out
