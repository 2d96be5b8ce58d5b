"""TRF import into the database (export is ``pairing.write_trf`` over ``manager``'s data)."""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from people.models import Person
from people.names import name_key

from .models import Board, Entrant, GameResult, Round, Tournament
from .pairing import PairingError
from .pairing.trf import read_trf_with_header
from .rating.trf_games import round_dates
from .services import tournament_changed

RESULT_BY_CODES = {
    ("1", "0"): ("1-0", "home"),
    ("0", "1"): ("0-1", "home"),
    ("=", "="): ("1/2-1/2", "agreement"),
    ("W", "L"): ("1-0", "home"),
    ("L", "W"): ("0-1", "home"),
    ("D", "D"): ("1/2-1/2", "agreement"),
    ("+", "-"): ("1-0", "forfeit"),
    ("-", "+"): ("0-1", "forfeit"),
    ("-", "-"): ("0-0", "forfeit"),
}


class TrfImportError(Exception):
    pass


def _decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


def _date(text: str, *, short: bool = False) -> date | None:
    """A date as TRF files write it (``2026/05/03``; ``26/05/03`` in line 132; some programs
    ``03.05.2026`` or ``2026-05-03``); None when it is none of these."""
    formats = ("%y/%m/%d",) if short else ("%Y/%m/%d", "%Y-%m-%d", "%d.%m.%Y", "%Y.%m.%d")
    for fmt in formats:
        try:
            return datetime.strptime(text.strip(), fmt).date()
        except ValueError:
            continue
    return None


def known_people() -> dict[str, int]:
    """Name (``people.names.name_key``) -> the person of that name, for the names exactly one
    person has: whom an imported player is taken to be."""
    found: dict[str, set[int]] = {}
    for pk, person_name in Person.objects.filter(merged_into__isnull=True).values_list(
        "pk", "name"
    ):
        found.setdefault(name_key(person_name), set()).add(pk)
    return {key: next(iter(ids)) for key, ids in found.items() if len(ids) == 1}


def import_trf(text: str, *, slug: str, name: str = "") -> Tournament:
    """Create a Swiss from a TRF: entrants by starting number, every round published with its
    results (terminations are not in a TRF: decisive games are recorded as ``home``, draws as
    ``agreement``, ``+``/``-`` as ``forfeit``, ``-``/``-`` as a double forfeit ``0-0``).

    For the club's rating (docs/ratings.md) the event counts like our own: each player is the
    person of the same name when exactly one person has it (else a new person; organisers
    merge the likely duplicates), and each round is dated by line 132 (``YY/MM/DD`` or
    ``YYYY/MM/DD``). The games of a round without a date there are imported unrated, as
    ``ratings_from_trf`` leaves them out; an organiser who knows the day dates the round and
    counts them again."""
    try:
        data, header = read_trf_with_header(text)
    except PairingError as exc:
        raise TrfImportError(str(exc)) from None
    if Tournament.objects.filter(slug=slug).exists():
        raise TrfImportError(
            _("A tournament with the slug %(slug)s exists already.") % {"slug": slug}
        )
    today = timezone.localdate()
    starts_on = _date(header.start) or today
    ends_on = _date(header.end) or starts_on
    federation = header.federation.upper()
    with transaction.atomic():
        t = Tournament.objects.create(
            name=name or data.name or slug,
            slug=slug,
            city=header.city[:100],
            federation=federation if re.fullmatch("[A-Z]{3}", federation) else "",
            chief_arbiter=header.chief_arbiter[:150],
            deputy_arbiters="\n".join(header.deputy_arbiters),
            starts_on=starts_on,
            ends_on=max(ends_on, starts_on),
            registration_open=False,
            rounds=data.total_rounds,
            status=Tournament.Status.RUNNING,
            points_win=_decimal(data.points.win),
            points_draw=_decimal(data.points.draw),
            points_loss=_decimal(data.points.loss),
            points_bye=_decimal(data.points.bye),
        )
        people = known_people()
        entrants = Entrant.objects.bulk_create(
            Entrant(
                tournament=t,
                name=p.name,
                person_id=people.get(name_key(p.name)),
                rating=p.rating or None,
                starting_number=p.number,
                checked_in=True,
            )
            for p in data.players
        )
        line_132 = next((line for line in text.splitlines() if line.startswith("132")), "")
        dated = round_dates(line_132)
        by_number = {e.starting_number: e for e in entrants}
        players = {p.number: p for p in data.players}
        for r in range(1, data.rounds_played + 1):
            rnd = Round.objects.create(
                tournament=t,
                number=r,
                status=Round.Status.PUBLISHED,
                published_at=timezone.now(),
                date=dated.get(r),
            )
            boards: list[Board] = []
            results: dict[int, tuple[str, str]] = {}
            for p in data.players:
                if len(p.rounds) < r:
                    continue
                e = p.rounds[r - 1]
                if e.opponent is None:
                    if e.code in ("U", "H", "F", "Z"):
                        boards.append(
                            Board(round=rnd, number=0, white=by_number[p.number], bye=e.code)
                        )
                    continue
                if e.colour != "w":
                    continue
                other = players[e.opponent].rounds[r - 1]
                board = Board(
                    round=rnd, number=0, white=by_number[p.number], black=by_number[e.opponent]
                )
                results[id(board)] = RESULT_BY_CODES.get((e.code, other.code), ("", ""))
                boards.append(board)
            boards.sort(key=lambda b: b.black_id is None)
            for i, b in enumerate(boards, start=1):
                b.number = i
            Board.objects.bulk_create(boards)
            GameResult.objects.bulk_create(
                GameResult(
                    board=b,
                    number=1,
                    result=results[id(b)][0],
                    termination=results[id(b)][1],
                    source=GameResult.Source.ORGANISER if results[id(b)][0] else "",
                    rated=rnd.date is not None,
                )
                for b in boards
                if b.black_id is not None
            )
        tournament_changed(t.pk)
    return t
