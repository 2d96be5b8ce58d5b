"""Writes of the championship app: entrants, pairing rounds, manual edits, publishing and
results. Each is a transaction; user errors are ``ChampionshipError`` with a clear message."""

from __future__ import annotations

import logging
from dataclasses import asdict
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from registrations.models import Registration

from . import manager
from .models import TERMINATIONS, Board, Entrant, ResultChange, Round, Tournament
from .pairing import Pair, PairingError, RoundEntry, explain, pair_swiss, round_robin_round


class ChampionshipError(Exception):
    """A request that cannot be carried out; the message says why and nothing changed."""


class ConcurrentEdit(ChampionshipError):
    """Someone else saved this result first; ``board`` holds the current value."""

    def __init__(self, board: Board) -> None:
        self.board = board
        super().__init__(
            _("Someone else changed this result meanwhile: it is now %(result)s.")
            % {"result": board.result or "—"}
        )


def _warm(tournament_id: int) -> None:
    """Have a worker recompute the public tables for the new version (the organiser's request
    does not wait for it; spectators see the previous version until it is done)."""
    from .tasks import warm_public_pages_task

    try:
        warm_public_pages_task.delay(tournament_id)
    except Exception:  # a nicety: the pages compute what they need themselves
        logging.getLogger(__name__).warning("could not warm the public pages", exc_info=True)


def bump_versions(t: Tournament, round_id: int | None = None) -> None:
    """New versions for the cached pages: the tournament's, and the round's if one changed.
    Once committed, the worker recomputes the public tables for the new version."""
    Tournament.objects.filter(pk=t.pk).update(version=F("version") + 1)
    if round_id is not None:
        Round.objects.filter(pk=round_id).update(version=F("version") + 1)
    transaction.on_commit(lambda: _warm(t.pk))


# --- Entrants ----------------------------------------------------------------------------
def entrants_import_registrations(*, tournament: Tournament) -> int:
    """Confirmed, entered registrations become entrants (once each)."""
    regs = Registration.objects.filter(
        tournament=tournament,
        status=Registration.Status.ENTERED,
        email_confirmed_at__isnull=False,
        entrant__isnull=True,
    )
    made = [Entrant(tournament=tournament, registration=r, name=r.name, club=r.club) for r in regs]
    Entrant.objects.bulk_create(made)
    if made:
        bump_versions(tournament)  # the public list of players changes
    return len(made)


def entrant_add(
    *,
    tournament: Tournament,
    name: str,
    club: str = "",
    rating: int | None = None,
    joined_round: int = 1,
    checked_in: bool = False,
    missed_rounds: str = "Z",
) -> Entrant:
    """Add an entrant. A late entry (rounds already paired) gets the next starting number and,
    for the rounds it missed, zero points (``missed_rounds="Z"``) or requested half-point byes
    (``"H"``), recorded as bye boards of those rounds."""
    entrant = Entrant(
        tournament=tournament,
        name=name,
        club=club,
        rating=rating,
        joined_round=joined_round,
        checked_in=checked_in,
    )
    entrant.full_clean()
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        entrant.save()
        rounds = list(locked.round_set.order_by("number"))
        if rounds:
            last = (
                locked.entrants.exclude(starting_number=None).order_by("-starting_number").first()
            )
            entrant.starting_number = (last.starting_number if last else 0) + 1
            # Not in any round paired so far (a draft is re-paired to include them).
            entrant.joined_round = max(joined_round, rounds[-1].number + 1)
            entrant.save(update_fields=["starting_number", "joined_round"])
            if missed_rounds == "H":
                for rnd in rounds:
                    if rnd.number < entrant.joined_round:
                        number = (
                            rnd.boards.order_by("-number").values_list("number", flat=True).first()
                            or 0
                        ) + 1
                        Board.objects.create(round=rnd, number=number, white=entrant, bye="H")
        bump_versions(locked)  # the players, and the standings once rounds are played
    return entrant


def entrant_withdraw(*, entrant: Entrant) -> Entrant:
    played = (
        entrant.tournament.round_set.order_by("-number").values_list("number", flat=True).first()
        or 0
    )
    entrant.withdrawn_after = played
    entrant.save(update_fields=["withdrawn_after"])
    bump_versions(entrant.tournament)
    return entrant


# --- Rounds ------------------------------------------------------------------------------
def _assign_starting_numbers(t: Tournament) -> list[Entrant]:
    field = list(t.entrants.filter(checked_in=True))
    if len(field) < 2:
        raise ChampionshipError(_("At least two checked-in entrants are needed to pair round 1."))
    field.sort(key=lambda e: (-(e.rating or 0), e.name.casefold(), e.pk))
    t.entrants.update(starting_number=None)
    for i, e in enumerate(field, start=1):
        e.starting_number = i
    Entrant.objects.bulk_update(field, ["starting_number"])
    return field


def round_pair_next(*, tournament: Tournament, progress: Any = None) -> Round:
    """Pair the next round as a draft (the organiser reviews, edits and publishes it).
    ``progress(step, percent)`` is told each step reached: loading, pairing, saving, done."""

    def step(name: str, percent: int) -> None:
        if progress:
            progress(name, percent)

    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        last = t.round_set.order_by("-number").first()
        if last is not None and last.status == Round.Status.DRAFT:
            raise ChampionshipError(
                _("Round %(n)d is still a draft: publish or delete it first.") % {"n": last.number}
            )
        unfinished = Q(result="") | Q(result2="") if t.games_per_pairing == 2 else Q(result="")
        if last is not None and last.boards.filter(unfinished, black__isnull=False).exists():
            raise ChampionshipError(
                _("Round %(n)d still has games without a result.") % {"n": last.number}
            )
        number = (last.number if last else 0) + 1
        step("loading", 10)
        if number == 1:
            entrants = _assign_starting_numbers(t)
        else:
            entrants = list(t.entrants.filter(starting_number__isnull=False))
        data = manager.tournament_data(t, entrants=entrants)
        if number > data.total_rounds:
            raise ChampionshipError(
                _("All %(n)d rounds are paired: there are no rounds left.")
                % {"n": data.total_rounds}
            )
        absent = manager.absent_for_round(t, entrants, number)
        by_number = {e.starting_number: e for e in entrants}
        by_pk = {e.pk: e for e in entrants}
        for e in entrants:
            if e.pk in absent:
                data.player(e.starting_number).rounds.append(RoundEntry(None, None, absent[e.pk]))
        step("pairing", 30)
        try:
            if t.system == Tournament.System.SWISS:
                pairs = pair_swiss(data)
            else:
                cycles = 2 if t.system == Tournament.System.DOUBLE_ROUND_ROBIN else 1
                pairs = round_robin_round(len(entrants), number, cycles=cycles)
                pairs = [
                    p
                    for p in pairs
                    if by_number[p.white].pk not in absent
                    and (p.black is None or by_number[p.black].pk not in absent)
                ]
        except PairingError as exc:
            raise ChampionshipError(str(exc)) from None
        step("saving", 80)
        # Requested byes are shown on the pairings too (withdrawn players are not).
        for pk, code in absent.items():
            e = by_pk[pk]
            if (
                code in ("H", "Z")
                and (e.withdrawn_after is None or e.withdrawn_after >= number)
                and e.joined_round <= number
            ):
                pairs.append(Pair(e.starting_number, None, code))  # type: ignore[arg-type]
        notes = explain(data, [p for p in pairs if p.bye in ("", "U")], number)
        note_by = {
            (p.white, p.black): n
            for p, n in zip([p for p in pairs if p.bye in ("", "U")], notes, strict=True)
        }
        rnd = Round.objects.create(tournament=t, number=number)
        boards = []
        for i, p in enumerate(pairs, start=1):
            note = note_by.get((p.white, p.black))
            boards.append(
                Board(
                    round=rnd,
                    number=i,
                    white=by_number[p.white],
                    black=by_number[p.black] if p.black else None,
                    bye=p.bye if p.black is None else "",
                    explanation=asdict(note) if note else {},
                )
            )
        Board.objects.bulk_create(boards)
        if t.status != Tournament.Status.RUNNING:
            t.status = Tournament.Status.RUNNING
            t.save(update_fields=["status"])
        bump_versions(t)
        step("done", 100)
        return rnd


def round_publish(*, round: Round) -> Round:
    if round.status != Round.Status.PUBLISHED:
        round.status = Round.Status.PUBLISHED
        round.published_at = timezone.now()
        round.save(update_fields=["status", "published_at"])
        bump_versions(round.tournament)
    return round


def round_delete_draft(*, round: Round) -> None:
    if round.status != Round.Status.DRAFT:
        raise ChampionshipError(_("A published round cannot be deleted."))
    t = round.tournament
    round.delete()
    bump_versions(t)


def _check_draft(board: Board) -> None:
    if board.round.status != Round.Status.DRAFT:
        raise ChampionshipError(_("Pairings can be changed only before the round is published."))


def edit_warnings(round: Round) -> list[str]:
    """Rematches and colour problems in a round's pairing (after manual edits)."""
    t = round.tournament
    data = manager.tournament_data(t)
    upto = round.number - 1
    met: dict[int, set[int]] = {
        p.number: {r.opponent for r in p.rounds[:upto] if r.played} for p in data.players
    }  # type: ignore[misc]
    colours = {p.number: [r.colour for r in p.rounds[:upto] if r.played] for p in data.players}
    warnings = []
    for b in round.boards.select_related("white", "black"):
        if b.black is None:
            continue
        w, k = b.white.starting_number, b.black.starting_number
        if k in met.get(w, set()):
            warnings.append(
                _("Board %(n)d: %(a)s and %(b)s have played each other before.")
                % {"n": b.number, "a": b.white, "b": b.black}
            )
        for e, got in ((b.white, "w"), (b.black, "b")):
            seq = colours.get(e.starting_number, []) + [got]
            if len(seq) >= 3 and seq[-1] == seq[-2] == seq[-3]:
                warnings.append(
                    _("Board %(n)d: %(p)s would have the same colour three times running.")
                    % {"n": b.number, "p": e}
                )
            if abs(seq.count("w") - seq.count("b")) > 2:
                warnings.append(
                    _("Board %(n)d: %(p)s would have a colour difference above 2.")
                    % {"n": b.number, "p": e}
                )
    return warnings


def board_swap_colours(*, board: Board) -> Board:
    _check_draft(board)
    if board.black_id is None:
        raise ChampionshipError(_("A bye has no colours to swap."))
    board.white_id, board.black_id = board.black_id, board.white_id
    board.save(update_fields=["white", "black"])
    return board


def boards_swap_players(*, first: Board, first_side: str, second: Board, second_side: str) -> None:
    """Exchange two players between boards (or between a board and the bye)."""
    _check_draft(first)
    _check_draft(second)
    with transaction.atomic():
        a = getattr(first, f"{first_side}_id")
        b = getattr(second, f"{second_side}_id")
        if a is None or b is None:
            raise ChampionshipError(_("Choose two players."))
        setattr(first, f"{first_side}_id", b)
        if first.pk == second.pk:
            setattr(first, f"{second_side}_id", a)
            first.save(update_fields=["white", "black"])
            return
        setattr(second, f"{second_side}_id", a)
        first.save(update_fields=["white", "black"])
        second.save(update_fields=["white", "black"])


# --- Results -----------------------------------------------------------------------------
def _describe(result: str, termination: str, result2: str = "", termination2: str = "") -> str:
    first = f"{result} {termination}".strip()
    second = f"{result2} {termination2}".strip()
    return f"{first}; {second}" if second else first


def _check_result(result: str, termination: str) -> None:
    valid = {r for r, _label in Board._meta.get_field("result").choices or []} | {""}
    if result not in valid:
        raise ChampionshipError(_("Unknown result %(r)s.") % {"r": result})
    if termination and termination not in {code for code, _label in TERMINATIONS}:
        raise ChampionshipError(_("Unknown termination %(t)s.") % {"t": termination})
    if result and not termination:
        raise ChampionshipError(_("Choose how the game ended."))
    if result == "1/2-1/2" and termination in ("home", "blocked", "resign", "forfeit"):
        raise ChampionshipError(_("A game ended by %(t)s cannot be a draw.") % {"t": termination})
    if result in ("1-0", "0-1") and termination in ("cards", "agreement"):
        raise ChampionshipError(_("A game ended by %(t)s is a draw.") % {"t": termination})


def result_enter(
    *,
    board: Board,
    result: str,
    termination: str,
    user: Any,
    expected_version: int,
    result2: str | None = None,
    termination2: str | None = None,
    now: datetime | None = None,
    from_sheet: bool = False,
) -> Board:
    """Enter or correct a result (and the second game's, with two games per pairing).
    Optimistic concurrency: if the board changed since the form was shown
    (``expected_version``), nothing is saved and ConcurrentEdit carries the current value."""
    if board.round.status != Round.Status.PUBLISHED:
        raise ChampionshipError(_("Results can be entered only for a published round."))
    if board.black_id is None:
        raise ChampionshipError(_("A bye has no result to enter."))
    t = board.round.tournament
    two = t.games_per_pairing == 2
    result2 = board.result2 if result2 is None else result2
    termination2 = board.termination2 if termination2 is None else termination2
    _check_result(result, termination)
    if not result:
        termination = ""
    if two:
        _check_result(result2, termination2)
        if not result2:
            termination2 = ""
    else:
        result2 = termination2 = ""
    complete = bool(result) and (bool(result2) or not two)
    confirmed = not t.two_person_confirmation or not complete
    with transaction.atomic():
        if not from_sheet:
            _check_sheets(board, (result, termination), (result2, termination2))
        updated = Board.objects.filter(pk=board.pk, version=expected_version).update(
            result=result,
            termination=termination,
            result2=result2,
            termination2=termination2,
            confirmed=confirmed,
            version=F("version") + 1,
        )
        if not updated:
            raise ConcurrentEdit(Board.objects.get(pk=board.pk))
        old = _describe(board.result, board.termination, board.result2, board.termination2)
        new = _describe(result, termination, result2, termination2)
        ResultChange.objects.create(
            board=board,
            user=user if getattr(user, "is_authenticated", False) else None,
            action="enter" if not old else ("clear" if not new else "correct"),
            old=old,
            new=new,
        )
        bump_versions(t, board.round_id)
    board.refresh_from_db()
    return board


def _check_sheets(board: Board, first: tuple[str, str], second: tuple[str, str]) -> None:
    """A result entered directly must agree with the game's sheet, if it has one."""
    from games.services import GameError, check_board_result

    for number, (value, old) in enumerate(
        ((first, (board.result, board.termination)), (second, (board.result2, board.termination2))),
        start=1,
    ):
        if value != old:
            try:
                check_board_result(board, number, *value)
            except GameError as exc:
                raise ChampionshipError(str(exc)) from None


def result_confirm(*, board: Board, user: Any) -> Board:
    """The second organiser confirms a result entered by someone else."""
    if not board.result:
        raise ChampionshipError(_("There is no result to confirm."))
    last = board.changes.exclude(action="confirm").first()
    if last is not None and last.user_id == getattr(user, "pk", None):
        raise ChampionshipError(
            _("A result is confirmed by another organiser than the one who entered it.")
        )
    with transaction.atomic():
        Board.objects.filter(pk=board.pk).update(confirmed=True, version=F("version") + 1)
        ResultChange.objects.create(
            board=board,
            user=user,
            action="confirm",
            new=_describe(board.result, board.termination, board.result2, board.termination2),
        )
        bump_versions(board.round.tournament, board.round_id)
    board.refresh_from_db()
    return board
