"""Reads for the public and organiser pages: a constant number of queries whatever the field
size. Nothing here caches: ``tables`` keeps the expensive results under the tournament's
version."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cached_property
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Count, Q
from django.utils import timezone

from . import labels, manager, schedule
from .models import Board, Entrant, GameResult, Round, Tournament
from .pairing import Row, TournamentData, standings


class TournamentKey(NamedTuple):
    pk: int
    version: int


def tournament_key(slug: str) -> TournamentKey | None:
    """A tournament's id and version: what a kept page's key needs. Read by one indexed query
    written out, into a plain tuple, because it runs on every spectator's request and the ORM's
    query building and model instance cost more than the query itself."""
    table = connection.ops.quote_name(Tournament._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, version FROM {table} WHERE slug = %s", [slug])  # noqa: S608
        row = cursor.fetchone()
    return None if row is None else TournamentKey(row[0], row[1])


def published_data(t: Tournament) -> TournamentData:
    """The tournament as plain data, published rounds only."""
    return manager.tournament_data(t, published_only=True)


@dataclass(frozen=True)
class Participant:
    """One player in the tournament as the public pages list them (names and clubs only)."""

    name: str
    club: str
    number: int | None = None
    #: The entrant's id (its page), None for a registration not yet among the entrants.
    entrant: int | None = None
    #: After which round they withdrew (0: before round 1), None if they play.
    withdrawn_after: int | None = None
    rating: int | None = None


@dataclass(frozen=True)
class Field:
    """Who is in the tournament: the one answer the count and the list of every public page
    take (``tournament_field``)."""

    players: list[Participant]
    #: Entered registrations not listed because their e-mail is not confirmed yet (and the
    #: organisers have not made them entrants): they hold a place but are not shown.
    unconfirmed: int = 0

    @property
    def count(self) -> int:
        """Players in the tournament: those listed who have not withdrawn."""
        return sum(1 for p in self.players if p.withdrawn_after is None)


@dataclass(frozen=True)
class Registered:
    """A tournament's registrations not (yet) among its entrants, as the registrations app
    tells them (names and clubs only)."""

    #: (name, club) of the entered registrations whose e-mail is confirmed.
    confirmed: list[tuple[str, str]] = field(default_factory=list)
    #: Entered registrations whose e-mail is not confirmed: they hold a place, unnamed.
    unconfirmed: int = 0
    #: Registrations on the waiting list.
    waiting: int = 0


#: The registrations app is a layer above the championship, which imports nothing of it: it
#: installs its reader of a tournament's registrations when it is ready
#: (``registered_reader_install``), as it installs the door of withdrawals.
_REGISTERED: list[Callable[[Tournament], Registered]] = []


def registered_reader_install(reader: Callable[[Tournament], Registered]) -> None:
    _REGISTERED[:] = [reader]


def registered_not_entered(t: Tournament) -> Registered:
    """The tournament's registrations not among its entrants (one query; none without the
    registrations app)."""
    return _REGISTERED[0](t) if _REGISTERED else Registered()


def tournament_field(t: Tournament) -> Field:
    """Who is in the tournament (two queries, whatever the field's size):

    - once round 1 is paired, the entrants with a starting number (those who withdrew
      marked, their results stand);
    - before, every entrant — a walk-in added by the organisers, or a registration they
      made an entrant, confirmed e-mail or not: they vouch for them — and every entered
      registration not among the entrants yet whose e-mail is confirmed (an address nobody
      confirmed puts no name on a public page); those withdrawn before round 1 are left out.
    """
    started = t.status != Tournament.Status.REGISTRATION
    entrants = t.entrants.all()
    if started:
        entrants = entrants.exclude(starting_number=None)
    else:
        entrants = entrants.exclude(withdrawn_after=0)
    players = [
        Participant(name, club, number, pk, withdrawn, rating)
        for pk, name, club, number, withdrawn, rating in entrants.values_list(
            "pk", "name", "club", "starting_number", "withdrawn_after", "rating"
        )
    ]
    unconfirmed = 0
    if not started:
        registered = registered_not_entered(t)
        players += [Participant(name, club) for name, club in registered.confirmed]
        unconfirmed = registered.unconfirmed
    if started:
        players.sort(key=lambda p: p.number or 0)
    else:
        players.sort(key=lambda p: (p.number is None, p.number or 0, p.name.casefold()))
    return Field(players, unconfirmed)


def round_dates(t: Tournament) -> dict[int, date]:
    """Published round number → the day it is played (its date, else the day published)."""
    out: dict[int, date] = {}
    rows = t.round_set.filter(status=Round.Status.PUBLISHED).values_list(
        "number", "date", "published_at"
    )
    for number, day, published in rows:
        if day is not None:
            out[number] = day
        elif published is not None:
            out[number] = timezone.localdate(published)
    return out


def round_starts(t: Tournament) -> dict[int, datetime]:
    """Round number → its scheduled start (aware; show it in ``t.time_zone``), for the rounds
    that have one (``RoundStart``), paired or not. One query."""
    return dict(t.round_starts.values_list("number", "starts_at"))


def round_start(t: Tournament, number: int) -> datetime | None:
    """The scheduled start of round ``number``, or None when the schedule has no time for it."""
    return t.round_starts.filter(number=number).values_list("starts_at", flat=True).first()


@dataclass(frozen=True)
class ScheduleRow:
    """One round of the schedule as the pages show it."""

    number: int
    starts_at: datetime | None
    #: "published" (its pairings are public), "draft" (paired, not yet published) or "".
    status: str


def schedule_rows(t: Tournament, *, total: int | None = None) -> list[ScheduleRow]:
    """Rounds 1 to the last (``total``, else the tournament's rounds; a round robin's follow
    from its field) with their scheduled starts and whether they are paired (two queries, three
    for a round robin without ``total``).

    The one rule of a finished tournament's schedule, read by every page that shows one: it
    is the rounds that were played. The rounds never paired are not to come any more (no
    countdown, no "next round"); ``rounds_not_played`` counts them."""
    starts = round_starts(t)
    status = dict(t.round_set.values_list("number", "status"))
    if t.is_finished:
        return [ScheduleRow(n, starts.get(n), status[n]) for n in sorted(status)]
    if total is None:
        total = _schedule_total(t)
    last = max([total, *status])
    return [ScheduleRow(n, starts.get(n), status.get(n, "")) for n in range(1, last + 1)]


def rounds_not_played(t: Tournament) -> list[int]:
    """The rounds of the schedule that were never paired: after the tournament is finished,
    rounds that will not be played (the finish page warns of them first)."""
    played = set(t.round_set.values_list("number", flat=True))
    return [n for n in range(1, _schedule_total(t) + 1) if n not in played]


def _schedule_total(t: Tournament) -> int:
    """The rounds the schedule has (a round robin's follow from its field: one query)."""
    field = 0 if t.system == Tournament.System.SWISS else t.entrants.count()
    return manager.total_rounds(t, field)


def check_in_window(
    t: Tournament, *, now: datetime, rows: list[ScheduleRow] | None = None
) -> schedule.Window:
    """The players' own check-in at ``now`` (``rows``: the schedule if read already)."""
    if rows is None:
        first = round_start(t, 1)
        published = t.round_set.filter(number=1, status=Round.Status.PUBLISHED).exists()
    else:
        first = rows[0].starts_at if rows else None
        published = bool(rows) and rows[0].status == Round.Status.PUBLISHED
    return schedule.check_in_window(
        enabled=t.self_check_in,
        round_one=first,
        opens_minutes=t.check_in_opens_minutes,
        closes_minutes=t.check_in_closes_minutes,
        round_one_published=published,
        now=now,
    )


def check_in_times(t: Tournament, rows: list[ScheduleRow]) -> tuple[datetime, datetime] | None:
    """When the players' own check-in opens and closes (the cut-off), from round 1's start
    (None: round 1 has no time or is published, or the organisers check everyone in). No
    "now" in it: the public pages that show it are kept whole."""
    first = rows[0].starts_at if rows else None
    if first is None or not t.self_check_in or rows[0].status == Round.Status.PUBLISHED:
        return None
    return (
        schedule.after(first, -t.check_in_opens_minutes),
        schedule.after(first, -t.check_in_closes_minutes),
    )


def next_start(
    rows: list[ScheduleRow], now: datetime, done: Collection[int] = ()
) -> ScheduleRow | None:
    """The first round of the schedule that starts after ``now``, leaving out the rounds
    ``done`` (played to the last result ahead of their time: they are not next)."""
    return next(
        (r for r in rows if r.starts_at is not None and r.starts_at > now and r.number not in done),
        None,
    )


def rounds_done(t: Tournament) -> set[int]:
    """The published rounds of ``t`` whose every game has its result (one query)."""
    return set(
        Round.objects.filter(tournament=t, status=Round.Status.PUBLISHED)
        .annotate(open=Count("boards__results", filter=Q(boards__results__result="")))
        .filter(open=0)
        .values_list("number", flat=True)
    )


def published_rounds(t: Tournament) -> list[int]:
    return list(
        t.round_set.filter(status=Round.Status.PUBLISHED)
        .order_by("number")
        .values_list("number", flat=True)
    )


def standings_rows(data: TournamentData, t: Tournament, upto: int | None = None) -> list[Row]:
    """Standings after round ``upto`` (None: with every result entered so far)."""
    last = data.rounds_played if upto is None else min(upto, data.rounds_played)
    return standings(data, upto=last, order=t.tiebreak_order)


@dataclass
class CrossRow:
    row: Row
    cells: list[dict[str, Any]] = field(default_factory=list)


#: How a player's TRF code for a round is shown (crosstable, player page): each distinct.
RESULT_SYMBOLS = labels.RESULT_SYMBOLS


@dataclass
class Marks:
    """What the public tables show beside the numbers: each player's page (entrant id by
    starting number), who withdrew (after which round), and which (round, starting number)
    results are provisional (entered, not yet confirmed, with two-person confirmation on)."""

    entrants: dict[int, int] = field(default_factory=dict)
    withdrawn: dict[int, int] = field(default_factory=dict)
    provisional: set[tuple[int, int]] = field(default_factory=set)

    def provisional_points(self, number: int | None, upto: int | None = None) -> bool:
        """Do the points of starting number ``number`` after round ``upto`` (None: all
        rounds so far) include a provisional result? The one rule of the † beside points,
        wherever points are shown (standings, crosstable, overview, a player's page, the
        pairings' points before a round)."""
        first = self.first_provisional.get(number) if number is not None else None
        return first is not None and (upto is None or first <= upto)

    @cached_property
    def first_provisional(self) -> dict[int, int]:
        """Starting number → the first round with a provisional result of theirs."""
        first: dict[int, int] = {}
        for rnd, sno in self.provisional:
            first[sno] = min(rnd, first.get(sno, rnd))
        return first


def marks(t: Tournament) -> Marks:
    """Two queries at most, whatever the field size."""
    out = Marks()
    for pk, number, withdrawn in t.entrants.exclude(starting_number=None).values_list(
        "pk", "starting_number", "withdrawn_after"
    ):
        if number is None:
            continue
        out.entrants[number] = pk
        if withdrawn is not None:
            out.withdrawn[number] = withdrawn
    if t.two_person_confirmation:
        rows = (
            GameResult.objects.filter(
                board__round__tournament=t,
                board__round__status=Round.Status.PUBLISHED,
                confirmed=False,
            )
            .exclude(result="")
            .values_list(
                "board__round__number",
                "board__white__starting_number",
                "board__black__starting_number",
            )
        )
        for number, white, black in rows:
            for sno in (white, black):
                if sno is not None:
                    out.provisional.add((number, sno))
    return out


def crosstable(data: TournamentData, rows: list[Row]) -> list[CrossRow]:
    """Per player and round: opponent's rank, colour and result, like chess-results."""
    rank_of = {r.number: r.rank for r in rows}
    by = {p.number: p for p in data.players}
    return [
        CrossRow(
            row,
            [
                {
                    "opponent": rank_of.get(e.opponent) if e.opponent else None,
                    "colour": e.colour or "",
                    "result": RESULT_SYMBOLS.get(e.code, e.code),
                    "code": e.code,
                }
                for e in by[row.number].rounds
            ],
        )
        for row in rows
    ]


def entrant_games(t: Tournament, entrant: Entrant) -> list[Board]:
    return list(
        Board.objects.filter(round__tournament=t, round__status=Round.Status.PUBLISHED)
        .filter(Q(white=entrant) | Q(black=entrant))
        .select_related("round", "white", "black")
        .order_by("round__number")
    )


def sheet_links(t: Tournament) -> dict[tuple[int, int], int]:
    """(round number, starting number) → the board whose game 1 has a move sheet, for both
    players of every such published pairing (the crosstable links to the game's page)."""
    rows = GameResult.objects.filter(
        board__round__tournament=t,
        board__round__status=Round.Status.PUBLISHED,
        number=1,
        has_sheet=True,
    ).values_list(
        "board_id",
        "board__round__number",
        "board__white__starting_number",
        "board__black__starting_number",
    )
    links: dict[tuple[int, int], int] = {}
    for board_id, number, white, black in rows:
        for sno in (white, black):
            if sno is not None:
                links[(number, sno)] = board_id
    return links


def board_results(boards: list[Board]) -> dict[int, list[GameResult]]:
    """Board id → its game results, game 1 first (one query)."""
    out: dict[int, list[GameResult]] = {}
    for game in GameResult.objects.filter(board__in=boards).order_by("board_id", "number"):
        out.setdefault(game.board_id, []).append(game)
    return out


def unconfirmed_boards(round: Round) -> list[int]:
    """The numbers of the boards of ``round`` with a result still awaiting a second
    organiser's confirmation (two-person confirmation), in order."""
    return sorted(
        set(
            GameResult.objects.filter(board__round=round, confirmed=False)
            .exclude(result="")
            .values_list("board__number", flat=True)
        )
    )


def is_provisional(game: GameResult) -> bool:
    """Is this result provisional: entered, but not yet confirmed by a second organiser?"""
    return bool(game.result) and not game.confirmed


def provisional_boards(t: Tournament) -> set[tuple[int, int]]:
    """(round number, board number) of every published board with a provisional result (one
    query): what the public pages mark while two-person confirmation is pending."""
    if not t.two_person_confirmation:
        return set()
    rows = (
        GameResult.objects.filter(
            board__round__tournament=t,
            board__round__status=Round.Status.PUBLISHED,
            confirmed=False,
        )
        .exclude(result="")
        .values_list("board__round__number", "board__number")
    )
    return set(rows)


@dataclass(frozen=True)
class PairingSide:
    pk: int
    number: int | None
    name: str
    rating: int | None


@dataclass(frozen=True)
class PairingGame:
    number: int
    result: str
    termination: str
    confirmed: bool
    has_sheet: bool = False


@dataclass(frozen=True)
class PairingRow:
    """One board of a published round, as the public pairings show it (plain values)."""

    number: int
    white: PairingSide
    black: PairingSide | None
    bye: str
    games: tuple[PairingGame, ...]
    board_id: int = 0


def pairing_rows(t: Tournament, number: int) -> list[PairingRow]:
    """The boards of published round ``number`` with their games' results, in board order (two
    queries of plain values, whatever the round's size)."""
    boards = (
        Board.objects.filter(
            round__tournament=t, round__number=number, round__status=Round.Status.PUBLISHED
        )
        .order_by("number")
        .values_list(
            "pk",
            "number",
            "bye",
            "white_id",
            "white__starting_number",
            "white__name",
            "white__rating",
            "black_id",
            "black__starting_number",
            "black__name",
            "black__rating",
        )
    )
    games: dict[int, list[PairingGame]] = {}
    found = (
        GameResult.objects.filter(
            board__round__tournament=t,
            board__round__number=number,
            board__round__status=Round.Status.PUBLISHED,
        )
        .order_by("board_id", "number")
        .values_list("board_id", "number", "result", "termination", "confirmed", "has_sheet")
    )
    for board_id, game, result, termination, confirmed, sheet in found:
        games.setdefault(board_id, []).append(
            PairingGame(game, result, termination, confirmed, sheet)
        )
    return [
        PairingRow(
            number=n,
            white=PairingSide(w, w_no, w_name, w_rating),
            black=None if b is None else PairingSide(b, b_no, b_name, b_rating),
            bye=bye or "",
            games=tuple(games.get(pk, ())),
            board_id=pk,
        )
        for pk, n, bye, w, w_no, w_name, w_rating, b, b_no, b_name, b_rating in boards
    ]
