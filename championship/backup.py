"""Export one tournament (with its schedule, entrants, registrations, rounds, boards, game results and
their history, master-class sessions, and whatever other apps attach to its boards — the move
sheets) to a JSON file, and restore it into a database that does not have it. Re-exporting a
restored tournament gives the same bytes: rows are written in a fixed order, with references by
natural keys (slug, starting number, e-mail), never by database ids.

Other apps add their part of a board through ``register_board_section`` (the games app adds
its sheets): this app knows nothing of them."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, transaction

from registrations.models import MasterClassSession, MasterClassSignup, Registration

from .models import (
    Board,
    Entrant,
    ForbiddenPair,
    GameResult,
    RequestedBye,
    ResultChange,
    Round,
    RoundStart,
    Tournament,
)

FORMAT = "modern-nardy-tournament/2"
#: Read too: boards carried their results (``result``, ``result2``, ...) before game results.
OLD_FORMATS = ("modern-nardy-tournament/1",)
TOURNAMENT_FIELDS = [
    "name",
    "name_ru",
    "slug",
    "venue",
    "city",
    "federation",
    "chief_arbiter",
    "deputy_arbiters",
    "starts_on",
    "ends_on",
    "entry_cap",
    "registration_open",
    "registration_opens_on",
    "registration_closes_on",
    "description",
    "description_ru",
    "system",
    "ruleset",
    "rounds",
    "phase1_minutes",
    "phase2_minutes",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "tiebreaks",
    "max_half_point_byes",
    "games_per_pairing",
    "status",
    "finished_at",
    "forbid_same_club",
    "two_person_confirmation",
    "time_zone",
    "round_minutes",
    "self_check_in",
    "check_in_opens_minutes",
    "check_in_closes_minutes",
    "version",
]
REGISTRATION_FIELDS = [
    "name",
    "email",
    "phone",
    "club",
    "experience",
    "language",
    "consent_at",
    "status",
    "email_confirmed_at",
    "created_at",
    "withdrawn_at",
    "checked_in_at",
    "anonymised_at",
]
ENTRANT_FIELDS = [
    "name",
    "club",
    "rating",
    "starting_number",
    "checked_in",
    "checked_in_by",
    "checked_in_at",
    "joined_round",
    "withdrawn_after",
]
BOARD_FIELDS = ["number", "bye", "explanation"]
RESULT_FIELDS = [
    "number",
    "result",
    "termination",
    "source",
    "confirmed",
    "version",
    "has_sheet",
    "sheet_plies",
    "sheet_result",
    "sheet_termination",
]


@dataclass(frozen=True)
class BoardSection:
    """Another app's data of each board: ``export(tournament)`` gives board id → data (only
    for boards that have some); ``restore(board, data, users)`` puts one board's back."""

    key: str
    export: Callable[[Tournament], dict[int, Any]]
    restore: Callable[[Board, Any, dict[str, Any]], None]


BOARD_SECTIONS: list[BoardSection] = []


def register_board_section(section: BoardSection) -> None:
    if all(s.key != section.key for s in BOARD_SECTIONS):
        BOARD_SECTIONS.append(section)


def _results(board: Board) -> list[dict[str, Any]]:
    return [
        {
            **row_of(g, RESULT_FIELDS),
            "changes": [
                {
                    "user": c.user.get_username() if c.user else None,
                    "at": _value(c.at),
                    "action": c.action,
                    "source": c.source,
                    "old": c.old,
                    "new": c.new,
                }
                for c in sorted(g.changes.all(), key=lambda c: (c.at, c.pk))
            ],
        }
        for g in sorted(board.results.all(), key=lambda g: g.number)
    ]


class BackupError(Exception):
    pass


def _value(v: Any) -> Any:
    if v is None or isinstance(v, bool | int | str | dict | list):
        return v
    if isinstance(v, Decimal):
        return str(v)
    if hasattr(v, "isoformat"):
        return v.isoformat()
    return str(v)


def row_of(obj: Any, fields: list[str]) -> dict[str, Any]:
    return {f: _value(getattr(obj, f)) for f in fields}


def _entrant_key(e: Entrant | None) -> str | None:
    if e is None:
        return None
    return f"#{e.starting_number}" if e.starting_number else f"@{e.name}|{e.pk}"


def export_tournament(t: Tournament) -> str:
    entrants = list(
        t.entrants.select_related("registration").order_by("starting_number", "name", "pk")
    )
    keys = {e.pk: _entrant_key(e) for e in entrants}
    sections = {section.key: section.export(t) for section in BOARD_SECTIONS}
    data = {
        "format": FORMAT,
        "tournament": row_of(t, TOURNAMENT_FIELDS),
        "registrations": [
            row_of(r, REGISTRATION_FIELDS)
            for r in Registration.objects.filter(tournament=t).order_by("created_at", "email")
        ],
        "entrants": [
            {
                **row_of(e, ENTRANT_FIELDS),
                "key": keys[e.pk],
                "registration": e.registration.email if e.registration else None,
            }
            for e in entrants
        ],
        "requested_byes": [
            {"entrant": keys[b.entrant_id], "round": b.round_number, "kind": b.kind}
            for b in RequestedBye.objects.filter(entrant__tournament=t).order_by(
                "round_number", "entrant__starting_number", "kind"
            )
        ],
        "forbidden_pairs": [
            {
                "first": keys[f.first_id],
                "second": keys[f.second_id],
                "kind": f.kind,
                "reason": f.reason,
            }
            for f in ForbiddenPair.objects.filter(tournament=t).order_by(
                "first__starting_number", "second__starting_number"
            )
        ],
        "schedule": [
            {"number": s.number, "starts_at": _value(s.starts_at), "sequence": s.sequence}
            for s in t.round_starts.order_by("number")
        ],
        "rounds": [
            {
                "number": r.number,
                "status": r.status,
                "published_at": _value(r.published_at),
                "date": _value(r.date),
                "boards": [
                    {
                        **row_of(b, BOARD_FIELDS),
                        "white": keys[b.white_id],
                        "black": keys.get(b.black_id) if b.black_id else None,
                        "results": _results(b),
                        **{
                            key: part[b.pk]
                            for key, part in sorted(sections.items())
                            if b.pk in part
                        },
                    }
                    for b in r.boards.order_by("number").prefetch_related("results__changes__user")
                ],
            }
            for r in t.round_set.order_by("number")
        ],
        "masterclass_sessions": [
            {
                **row_of(
                    s,
                    [
                        "title",
                        "title_ru",
                        "starts_at",
                        "duration_minutes",
                        "place",
                        "language",
                        "seats",
                        "cancelled_at",
                    ],
                ),
                "signups": [
                    row_of(
                        x,
                        [
                            "name",
                            "email",
                            "phone",
                            "language",
                            "status",
                            "consent_at",
                            "created_at",
                            "reminder_sent_at",
                            "anonymised_at",
                        ],
                    )
                    for x in s.signups.order_by("created_at", "email")
                ],
            }
            for s in MasterClassSession.objects.filter(tournament=t).order_by("starts_at", "title")
        ],
    }
    return backup_text(data)


def backup_text(data: dict[str, Any]) -> str:
    """A backup as its file holds it (keys sorted, so that the same data is the same bytes)."""
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def _upgrade_board(board: dict[str, Any], games_per_pairing: int) -> None:
    """A board of an old backup (results on the board) in today's shape."""
    if "results" in board or board.get("black") is None:
        board.setdefault("results", [])
        return
    results = []
    for number in range(1, games_per_pairing + 1):
        suffix = "" if number == 1 else "2"
        result = board.get(f"result{suffix}", "")
        results.append(
            {
                "number": number,
                "result": result,
                "termination": board.get(f"termination{suffix}", "") if result else "",
                "source": "organiser" if result else "",
                "confirmed": board.get("confirmed", True),
                "version": board.get("version", 0),
                "has_sheet": any(g.get("number") == number for g in board.get("games", [])),
                "sheet_plies": 0,
                "sheet_result": "",
                "sheet_termination": "",
                "changes": [{**c, "source": ""} for c in board.get("changes", [])]
                if number == 1
                else [],
            }
        )
    board["results"] = results


def restore_tournament(text: str) -> Tournament:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BackupError(f"not a tournament backup: {exc}") from None
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, *OLD_FORMATS):
        raise BackupError(f"not a tournament backup (expected format {FORMAT})")
    tournament = data.get("tournament")
    slug = tournament.get("slug") if isinstance(tournament, dict) else None
    if not isinstance(slug, str):
        raise BackupError("not a tournament backup (no tournament with a slug)")
    try:
        validate_slug(slug)
    except ValidationError:
        raise BackupError(f"the tournament's slug {slug!r} is not a slug") from None
    if Tournament.objects.filter(slug=slug).exists():
        raise BackupError(f"the database already has a tournament {slug!r}")
    users = {u.get_username(): u for u in get_user_model().objects.all()}
    try:
        t = _restore(data, users)
    except (KeyError, TypeError, ValueError, AttributeError, ValidationError, DatabaseError) as exc:
        # A damaged or hand-edited file (a missing key, "²" where a number belongs): said
        # plainly, and nothing of it is kept (the restore is one transaction).
        raise BackupError(f"the backup is damaged: {type(exc).__name__}: {exc}") from None
    t.refresh_from_db()
    return t


def _restore(data: dict[str, Any], users: dict[str, Any]) -> Tournament:
    with transaction.atomic():
        t = Tournament.objects.create(**data["tournament"])
        regs = {}
        for r in data["registrations"]:
            regs[r["email"]] = Registration.objects.create(tournament=t, **r)
        entrants = {}
        for e in data["entrants"]:
            fields = {k: e[k] for k in ENTRANT_FIELDS if k in e}  # older files lack some
            entrants[e["key"]] = Entrant.objects.create(
                tournament=t,
                registration=regs.get(e["registration"]) if e["registration"] else None,
                **fields,
            )
        for b in data["requested_byes"]:
            RequestedBye.objects.create(
                entrant=entrants[b["entrant"]], round_number=b["round"], kind=b["kind"]
            )
        for f in data["forbidden_pairs"]:
            ForbiddenPair.objects.create(
                tournament=t,
                first=entrants[f["first"]],
                second=entrants[f["second"]],
                kind=f.get("kind", ForbiddenPair.Kind.OTHER),
                reason=f["reason"],
            )
        for start in data.get("schedule", []):
            RoundStart.objects.create(
                tournament=t,
                number=start["number"],
                starts_at=start["starts_at"],
                sequence=start["sequence"],
            )
        for r in data["rounds"]:
            rnd = Round.objects.create(
                tournament=t,
                number=r["number"],
                status=r["status"],
                published_at=r["published_at"],
                date=r.get("date"),
            )
            for b in r["boards"]:
                _upgrade_board(b, t.games_per_pairing)
                board = Board.objects.create(
                    round=rnd,
                    white=entrants[b["white"]],
                    black=entrants[b["black"]] if b["black"] else None,
                    **{k: b[k] for k in BOARD_FIELDS},
                )
                for g in b["results"]:
                    game = GameResult.objects.create(
                        board=board, **{k: g[k] for k in RESULT_FIELDS}
                    )
                    for c in g["changes"]:
                        change = ResultChange.objects.create(
                            game_result=game,
                            user=users.get(c["user"]),
                            **{k: c[k] for k in ("action", "source", "old", "new")},
                        )
                        ResultChange.objects.filter(pk=change.pk).update(at=c["at"])
                for section in BOARD_SECTIONS:
                    if section.key in b:
                        section.restore(board, b[section.key], users)
        for s in data["masterclass_sessions"]:
            signups = s.pop("signups")
            session = MasterClassSession.objects.create(tournament=t, **s)
            for x in signups:
                MasterClassSignup.objects.create(
                    session=session, registration=regs.get(x["email"]), **x
                )
        Tournament.objects.filter(pk=t.pk).update(version=data["tournament"]["version"])
    return t
