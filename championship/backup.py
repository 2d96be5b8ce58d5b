"""Export one tournament (with its entrants, registrations, rounds, boards, result history, move
sheets and master-class sessions) to a JSON file, and restore it into a database that does not have it.
Re-exporting a restored tournament gives the same bytes: rows are written in a fixed order,
with references by natural keys (slug, starting number, e-mail), never by database ids."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction

from registrations.models import MasterClassSession, MasterClassSignup, Registration

from .models import Board, Entrant, ForbiddenPair, RequestedBye, ResultChange, Round, Tournament

FORMAT = "modern-nardy-tournament/1"
TOURNAMENT_FIELDS = [
    "name",
    "slug",
    "venue",
    "starts_on",
    "ends_on",
    "entry_cap",
    "registration_open",
    "description",
    "system",
    "rounds",
    "phase1_minutes",
    "phase2_minutes",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "tiebreaks",
    "games_per_pairing",
    "status",
    "forbid_same_club",
    "two_person_confirmation",
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
    "joined_round",
    "withdrawn_after",
]
BOARD_FIELDS = [
    "number",
    "bye",
    "explanation",
    "result",
    "termination",
    "result2",
    "termination2",
    "confirmed",
    "version",
]


GAME_FIELDS = [
    "number",
    "event",
    "white_name",
    "black_name",
    "phase1_seconds",
    "phase2_seconds",
    "termination",
    "termination_side",
    "adjourned",
    "clock_white_ms",
    "clock_black_ms",
    "clock_running_since",
    "version",
    "created_at",
]
TURN_FIELDS = ["ply", "text", "clock", "comments", "entered_at"]


def _games(board: Board) -> list[dict[str, Any]]:
    """The move sheets of a pairing (prefetched with their turns and who entered them)."""
    return [
        {
            **_row(g, GAME_FIELDS),
            "turns": [
                {
                    **_row(t, TURN_FIELDS),
                    "entered_by": t.entered_by.get_username() if t.entered_by else None,
                }
                for t in sorted(g.turns.all(), key=lambda t: t.ply)
            ],
        }
        for g in sorted(board.games.all(), key=lambda g: g.number)
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


def _row(obj: Any, fields: list[str]) -> dict[str, Any]:
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
    data = {
        "format": FORMAT,
        "tournament": _row(t, TOURNAMENT_FIELDS),
        "registrations": [
            _row(r, REGISTRATION_FIELDS)
            for r in Registration.objects.filter(tournament=t).order_by("created_at", "email")
        ],
        "entrants": [
            {
                **_row(e, ENTRANT_FIELDS),
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
            {"first": keys[f.first_id], "second": keys[f.second_id], "reason": f.reason}
            for f in ForbiddenPair.objects.filter(tournament=t).order_by(
                "first__starting_number", "second__starting_number"
            )
        ],
        "rounds": [
            {
                "number": r.number,
                "status": r.status,
                "published_at": _value(r.published_at),
                "boards": [
                    {
                        **_row(b, BOARD_FIELDS),
                        "white": keys[b.white_id],
                        "black": keys.get(b.black_id) if b.black_id else None,
                        "games": _games(b),
                        "changes": [
                            {
                                "user": c.user.get_username() if c.user else None,
                                "at": _value(c.at),
                                "action": c.action,
                                "old": c.old,
                                "new": c.new,
                            }
                            for c in sorted(b.changes.all(), key=lambda c: (c.at, c.pk))
                        ],
                    }
                    for b in r.boards.order_by("number").prefetch_related(
                        "changes__user", "games__turns__entered_by"
                    )
                ],
            }
            for r in t.round_set.order_by("number")
        ],
        "masterclass_sessions": [
            {
                **_row(s, ["title", "starts_at", "duration_minutes", "place", "language", "seats"]),
                "signups": [
                    _row(
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
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def _restore_game(board: Board, data: dict[str, Any], users: dict[str, Any]) -> None:
    from games.models import Game, Turn

    fields = {k: data[k] for k in GAME_FIELDS}
    created_at = fields.pop("created_at")
    game = Game.objects.create(board=board, **fields)
    Game.objects.filter(pk=game.pk).update(created_at=created_at)
    turns = Turn.objects.bulk_create(
        Turn(
            game=game,
            entered_by=users.get(t["entered_by"]),
            **{k: t[k] for k in TURN_FIELDS if k != "entered_at"},
        )
        for t in data["turns"]
    )
    for turn, t in zip(turns, data["turns"], strict=True):
        Turn.objects.filter(game=game, ply=turn.ply).update(entered_at=t["entered_at"])


def restore_tournament(text: str) -> Tournament:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise BackupError(f"not a tournament backup: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"not a tournament backup (expected format {FORMAT})")
    slug = data["tournament"]["slug"]
    try:
        validate_slug(slug)
    except ValidationError:
        raise BackupError(f"the tournament's slug {slug!r} is not a slug") from None
    if Tournament.objects.filter(slug=slug).exists():
        raise BackupError(f"the database already has a tournament {slug!r}")
    users = {u.get_username(): u for u in get_user_model().objects.all()}
    with transaction.atomic():
        t = Tournament.objects.create(**data["tournament"])
        regs = {}
        for r in data["registrations"]:
            regs[r["email"]] = Registration.objects.create(tournament=t, **r)
        entrants = {}
        for e in data["entrants"]:
            fields = {k: e[k] for k in ENTRANT_FIELDS}
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
                reason=f["reason"],
            )
        for r in data["rounds"]:
            rnd = Round.objects.create(
                tournament=t, number=r["number"], status=r["status"], published_at=r["published_at"]
            )
            for b in r["boards"]:
                board = Board.objects.create(
                    round=rnd,
                    white=entrants[b["white"]],
                    black=entrants[b["black"]] if b["black"] else None,
                    **{k: b[k] for k in BOARD_FIELDS},
                )
                for c in b["changes"]:
                    change = ResultChange.objects.create(
                        board=board,
                        user=users.get(c["user"]),
                        action=c["action"],
                        old=c["old"],
                        new=c["new"],
                    )
                    ResultChange.objects.filter(pk=change.pk).update(at=c["at"])
                for g in b.get("games", []):
                    _restore_game(board, g, users)
        for s in data["masterclass_sessions"]:
            signups = s.pop("signups")
            session = MasterClassSession.objects.create(tournament=t, **s)
            for x in signups:
                MasterClassSignup.objects.create(
                    session=session, registration=regs.get(x["email"]), **x
                )
        Tournament.objects.filter(pk=t.pk).update(version=data["tournament"]["version"])
    t.refresh_from_db()
    return t
