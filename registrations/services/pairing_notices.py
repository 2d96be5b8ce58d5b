"""The pairing e-mails: when a round is published every player with a registration (an
e-mail address) is told their board, colour, opponent and the round's start, in their
language; when a published round changes afterwards (a re-pair, a moved start) only the
players whose pairing changed are told, and what changed.

What each player was last told for a round is the ``params`` of their last pairing e-mail of
it in the outbox (``OutboundEmail``): the diff compares the round as it is with that, so
telling a round twice sends nothing new, and a row is written — in the caller's transaction,
with the outbox's guarantees (never lost, sent once) — only for a real change. The message is
rendered when it is sent, from that snapshot (``emails._pairing``)."""

from __future__ import annotations

from typing import Any

from championship.models import Board, Round, RoundStart

from ..models import OutboundEmail, Registration
from .outbox import outbox_enqueue

PUBLISHED = "pairing_published"
CHANGED = "pairing_changed"
KINDS = (PUBLISHED, CHANGED)
#: What a change is about (an opponent's renamed entry is not a change of the pairing).
COMPARED = ("board", "colour", "bye", "opponent_id", "starts_at")

Snapshot = dict[str, Any]


def round_assignments(rnd: Round) -> dict[int, Snapshot]:
    """Registration id → what its player has in ``rnd``: board, colour, bye, opponent (name
    and entrant id) and the round's start (ISO, empty without a time). Players without a
    registration (walk-ins: no e-mail) are not in it. Two queries."""
    start = (
        RoundStart.objects.filter(tournament_id=rnd.tournament_id, number=rnd.number)
        .values_list("starts_at", flat=True)
        .first()
    )
    starts_at = start.isoformat() if start is not None else ""
    rows = Board.objects.filter(round=rnd).values_list(
        "number",
        "bye",
        "white_id",
        "white__name",
        "white__registration_id",
        "black_id",
        "black__name",
        "black__registration_id",
    )
    out: dict[int, Snapshot] = {}
    for number, bye, w, w_name, w_reg, b, b_name, b_reg in rows:
        if b is None:
            if w_reg is not None:
                out[w_reg] = _snapshot(number, "", bye or "U", None, "", starts_at)
            continue
        if w_reg is not None:
            out[w_reg] = _snapshot(number, "w", "", b, b_name, starts_at)
        if b_reg is not None:
            out[b_reg] = _snapshot(number, "b", "", w, w_name, starts_at)
    return out


def _snapshot(
    board: int | None, colour: str, bye: str, opponent_id: int | None, opponent: str, at: str
) -> Snapshot:
    return {
        "board": board,
        "colour": colour,
        "bye": bye,
        "opponent_id": opponent_id,
        "opponent": opponent,
        "starts_at": at,
    }


#: What a player who was told a pairing and is no longer in the round has now.
NOT_PAIRED = _snapshot(None, "", "", None, "", "")


def last_told(tournament_id: int, number: int) -> dict[int, Snapshot]:
    """Registration id → what its player was last told for round ``number`` (one query)."""
    rows = (
        OutboundEmail.objects.filter(
            kind__in=KINDS, params__tournament=tournament_id, params__round=number
        )
        .order_by("created_at", "pk")
        .values_list("object_id", "params")
    )
    told: dict[int, Snapshot] = {}
    for object_id, params in rows:
        now = params.get("now") if isinstance(params, dict) else None
        if isinstance(now, dict):
            told[int(object_id)] = now
    return told


def _same(a: Snapshot, b: Snapshot) -> bool:
    return all(a.get(key) == b.get(key) for key in COMPARED)


def round_pairings_notify(*, round: Round) -> int:
    """Queue the pairing e-mails of a published round (in the caller's transaction): the
    first for each player of it, then one to each player whose pairing or start changed since
    they were last told. Returns how many were queued."""
    if round.status != Round.Status.PUBLISHED:
        return 0
    now = round_assignments(round)
    told = last_told(round.tournament_id, round.number)
    for gone in set(told) - set(now):
        if told[gone].get("board") is not None or told[gone].get("bye"):
            now[gone] = dict(NOT_PAIRED)
    reachable = set(
        Registration.objects.filter(pk__in=now, anonymised_at__isnull=True).values_list(
            "pk", flat=True
        )
    )
    queued = 0
    for registration_id in sorted(now):
        if registration_id not in reachable:
            continue
        snapshot = now[registration_id]
        was = told.get(registration_id)
        if was is not None and _same(was, snapshot):
            continue
        params: dict[str, object] = {
            "tournament": round.tournament_id,
            "round": round.number,
            "now": snapshot,
        }
        if was is not None:
            params["was"] = was
        outbox_enqueue(
            kind=PUBLISHED if was is None else CHANGED, object_id=registration_id, params=params
        )
        queued += 1
    return queued


def on_round_pairings_changed(sender: Any, round: Round, **kwargs: Any) -> None:
    """Receiver of ``championship.signals.round_pairings_changed``."""
    round_pairings_notify(round=round)
