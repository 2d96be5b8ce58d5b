"""Writes of rounds: pairing the next one as a draft, manual edits of the draft, publishing
(which opens its games' results) and deleting a draft."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import manager, pairing_text, selectors
from ..models import Board, Entrant, GameResult, Round, Tournament
from ..pairing import Pair, PairingError, RoundEntry, explain, pair_swiss, round_robin_round
from ..signals import round_pairings_changed
from .absences import absences_apply_rule
from .changes import tournament_changed
from .errors import ChampionshipError


def sno(entrant: Entrant) -> int:
    """The starting number of an entrant in the pairing (every paired entrant has one)."""
    if entrant.starting_number is None:
        raise ChampionshipError(_("%(name)s has no starting number.") % {"name": entrant.name})
    return entrant.starting_number


def _refusal(code: str, **params: Any) -> ChampionshipError:
    """A refusal of the pairing, said in the active language and kept as a code."""
    return ChampionshipError(pairing_text.error_text(code, params), code=code, params=params)


def _assign_starting_numbers(t: Tournament) -> list[Entrant]:
    """Starting numbers for round 1: the checked-in entrants not withdrawn before it. A number
    the organiser gave (unique, within 1..n) is kept; the others fill the free numbers by
    rating, then name."""
    field = list(t.entrants.filter(checked_in=True).exclude(withdrawn_after=0))
    if len(field) < 2:
        raise _refusal("round.too_few_checked_in")
    n = len(field)
    kept: dict[int, Entrant] = {}
    for e in sorted(field, key=lambda e: e.pk):
        if e.starting_number is not None and 1 <= e.starting_number <= n:
            kept.setdefault(e.starting_number, e)
    rest = [e for e in field if e not in kept.values()]
    rest.sort(key=lambda e: (-(e.rating or 0), e.name.casefold(), e.pk))
    free = iter(i for i in range(1, n + 1) if i not in kept)
    numbers = {e.pk: number for number, e in kept.items()}
    for e in rest:
        numbers[e.pk] = next(free)
    t.entrants.update(starting_number=None)
    for e in field:
        e.starting_number = numbers[e.pk]
    Entrant.objects.bulk_update(field, ["starting_number"])
    return sorted(field, key=lambda e: e.starting_number or 0)


def expected_in_round(t: Tournament, number: int) -> set[int]:
    """Ids of the entrants a pairing of round ``number`` must hold (on a board or a bye):
    those with a starting number who joined by then and are not withdrawn before it."""
    return set(
        t.entrants.exclude(starting_number=None)
        .filter(joined_round__lte=number)
        .filter(Q(withdrawn_after=None) | Q(withdrawn_after__gte=number))
        .values_list("pk", flat=True)
    )


def draft_problems(round: Round) -> list[str]:
    """Why a draft no longer fits the field (a withdrawal, a late entry or a return since it
    was paired): it must be paired again. Empty for a published round or a fitting draft."""
    if round.status != Round.Status.DRAFT:
        return []
    t = round.tournament
    on_boards: set[int] = set()
    for white, black in round.boards.values_list("white_id", "black_id"):
        on_boards.add(white)
        if black is not None:
            on_boards.add(black)
    expected = expected_in_round(t, round.number)
    # A late entry's half-point bye for a round before it joins (``_late_entry``) is on a bye
    # board of that round: it belongs there.
    expected |= set(
        round.boards.filter(black=None, bye="H", white__joined_round__gt=round.number)
        .filter(Q(white__withdrawn_after=None) | Q(white__withdrawn_after__gte=round.number))
        .values_list("white_id", flat=True)
    )
    names = dict(t.entrants.values_list("pk", "name"))
    problems = []
    for pk in sorted(on_boards - expected, key=lambda pk: names.get(pk, "")):
        problems.append(
            _("%(name)s is withdrawn but paired in the draft of round %(n)d.")
            % {"name": names.get(pk, "?"), "n": round.number}
        )
    for pk in sorted(expected - on_boards, key=lambda pk: names.get(pk, "")):
        problems.append(
            _("%(name)s should play round %(n)d but is not in its draft.")
            % {"name": names.get(pk, "?"), "n": round.number}
        )
    return problems


def stale_draft(t: Tournament) -> tuple[Round, list[str]] | None:
    """The tournament's draft round and why it must be paired again, if it must."""
    draft = t.round_set.filter(status=Round.Status.DRAFT).order_by("-number").first()
    if draft is None:
        return None
    problems = draft_problems(draft)
    if not problems and draft.number == 1:
        waiting = (
            t.entrants.filter(checked_in=True, starting_number=None)
            .exclude(withdrawn_after=0)
            .values_list("name", flat=True)
        )
        problems = [
            _("%(name)s is checked in but not in the draft of round 1.") % {"name": name}
            for name in waiting
        ]
    return (draft, problems) if problems else None


def round_pair_again(*, round: Round) -> None:
    """Delete a draft so that the round is paired again (``round_pair_next``)."""
    round_delete_draft(round=round)


def round_pair_next(
    *,
    tournament: Tournament,
    progress: Callable[[str, int], None] | None = None,
    unconfirmed_ok: bool = False,
) -> Round:
    """Pair the next round as a draft (the organiser reviews, edits and publishes it).
    ``progress(step, percent)`` is told each step reached: loading, pairing, saving, done.
    With two-person confirmation, results still unconfirmed stop the pairing unless the
    organiser chose to pair anyway (``unconfirmed_ok``)."""

    def step(name: str, percent: int) -> None:
        if progress:
            progress(name, percent)

    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status == Tournament.Status.FINISHED:
            raise ChampionshipError(
                _("The tournament is finished: reopen it first to change anything.")
            )
        last = t.round_set.order_by("-number").first()
        if last is not None and last.status == Round.Status.DRAFT:
            raise _refusal("round.draft_pending", round=last.number)
        if last is not None and boards_without_results(last, t.games_per_pairing).exists():
            raise _refusal("round.results_missing", round=last.number)
        if last is not None and t.two_person_confirmation and not unconfirmed_ok:
            pending = selectors.unconfirmed_boards(last)
            if pending:
                raise _refusal(
                    "round.unconfirmed", round=last.number, boards=", ".join(map(str, pending))
                )
        number = (last.number if last else 0) + 1
        # Absent players who have not said whether they continue: the tournament's rule.
        absences_apply_rule(tournament=t)
        step("loading", 10)
        if number == 1:
            entrants = _assign_starting_numbers(t)
        else:
            entrants = list(t.entrants.filter(starting_number__isnull=False))
        data = manager.tournament_data(t, entrants=entrants)
        if number > data.total_rounds:
            raise _refusal("pairing.all_rounds_paired", rounds=data.total_rounds)
        absent = manager.absent_for_round(t, entrants, number)
        by_number = {sno(e): e for e in entrants}
        by_pk = {e.pk: e for e in entrants}
        for e in entrants:
            if e.pk in absent:
                data.player(sno(e)).rounds.append(RoundEntry(None, None, absent[e.pk]))
        step("pairing", 30)
        try:
            if t.system == Tournament.System.SWISS:
                pairs = pair_swiss(data, ruleset=t.ruleset)
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
            raise ChampionshipError(
                pairing_text.error(exc), code=exc.code, params=pairing_text.plain(exc.params)
            ) from None
        # Never pair a player who is not to play this round (withdrawn, not yet joined, a
        # requested bye): the pairing's input says so, and this guards against any slip.
        not_playing = {sno(by_pk[pk]) for pk in absent}
        if any(p.white in not_playing or p.black in not_playing for p in pairs):
            raise ChampionshipError(
                _("The pairing included a player who is not to play this round. Nothing was saved.")
            )
        step("saving", 80)
        # Requested byes are shown on the pairings too (withdrawn players are not).
        for pk, code in absent.items():
            e = by_pk[pk]
            if (
                code in ("H", "Z")
                and (e.withdrawn_after is None or e.withdrawn_after >= number)
                and (e.joined_round <= number or code == "H")  # a late entry's half-point bye
            ):
                pairs.append(Pair(e.starting_number, None, code))  # type: ignore[arg-type]
        notes = explain(data, [p for p in pairs if p.bye in ("", "U")], number, ruleset=t.ruleset)
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
        tournament_changed(t.pk)
        step("done", 100)
        return rnd


def boards_without_results(round: Round, games_per_pairing: int) -> QuerySet[Board]:
    """The pairings of ``round`` with a game still without a result."""
    return (
        round.boards.exclude(black=None)
        .annotate(done=Count("results", filter=~Q(results__result="")))
        .filter(done__lt=games_per_pairing)
    )


def round_publish(*, round: Round) -> Round:
    """Publish a draft: its pairings are public and their games' results can be entered, and
    its players are told by e-mail (``signals.round_pairings_changed``). Publishing twice
    does nothing the second time."""
    if round.status == Round.Status.PUBLISHED:
        return round
    if round.tournament.status == Tournament.Status.FINISHED:
        raise ChampionshipError(
            _("The tournament is finished: reopen it first to change anything.")
        )
    problems = draft_problems(round)
    if problems:
        raise ChampionshipError(
            " ".join([*problems, _("Delete the draft and pair the round again.")])
        )
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round.pk)
        if locked.status == Round.Status.PUBLISHED:
            return locked  # published meanwhile (a second click, a second organiser)
        round.status = Round.Status.PUBLISHED
        round.published_at = timezone.now()
        round.save(update_fields=["status", "published_at"])
        games = round.tournament.games_per_pairing
        GameResult.objects.bulk_create(
            [
                GameResult(board=board, number=number)
                for board in round.boards.exclude(black=None)
                for number in range(1, games + 1)
            ],
            ignore_conflicts=True,
        )
        # Every player is told their board, colour, opponent and start (the pairing e-mails,
        # written in this transaction by the registrations app).
        round_pairings_changed.send(sender=Round, round=round)
    return round


def round_delete_draft(*, round: Round) -> None:
    if round.tournament.status == Tournament.Status.FINISHED:
        raise ChampionshipError(
            _("The tournament is finished: reopen it first to change anything.")
        )
    if round.status != Round.Status.DRAFT:
        raise ChampionshipError(_("A published round cannot be deleted."))
    round.delete()


def _check_draft(board: Board) -> None:
    if board.round.status != Round.Status.DRAFT:
        raise ChampionshipError(_("Pairings can be changed only before the round is published."))


def edit_warnings(round: Round) -> list[str]:
    """Rematches and colour problems in a round's pairing (after manual edits)."""
    t = round.tournament
    data = manager.tournament_data(t)
    upto = round.number - 1
    met: dict[int, set[int]] = {
        p.number: {r.opponent for r in p.rounds[:upto] if r.opponent is not None and r.played}
        for p in data.players
    }
    colours = {p.number: [r.colour for r in p.rounds[:upto] if r.played] for p in data.players}
    warnings = list(draft_problems(round))
    if warnings:
        warnings.append(_("This draft is stale: delete it and pair the round again."))
    for b in round.boards.select_related("white", "black"):
        if b.black is None:
            continue
        w, k = sno(b.white), sno(b.black)
        if k in met.get(w, set()):
            warnings.append(
                _("Board %(n)d: %(a)s and %(b)s have played each other before.")
                % {"n": b.number, "a": b.white, "b": b.black}
            )
        for e, got in ((b.white, "w"), (b.black, "b")):
            seq = colours.get(sno(e), []) + [got]
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
