"""No-shows and absences (issue 22, point 4).

The hall proposes a forfeit for a board whose game has not started by the round's start plus
the tournament's ``no_show_minutes`` (the games app decides what "started" is: it owns the
sheets and clocks, ``games.noshow``). The arbiter's decision is written here:

- ``board_no_show_forfeit``: the forfeit through the one results door (``game_result_set``:
  the history says who and when), the decision logged (``NoShow``), and an ``Absence`` for each
  absent player, who is then asked on their page whether they continue;
- ``board_no_show_dismiss``: the proposal dismissed, logged.

One decision a board: a second tap (or a second arbiter) finds it and changes nothing.

The player answers with ``absence_answer``: to continue, or to withdraw (through the one
withdrawal path, ``_withdraw``). Unanswered, the tournament's rule applies when the next round
is paired (``absences_apply_rule``, called by ``round_pair_next`` before it reads the field):
a player whose absences reach ``Tournament.absences_to_withdraw`` is withdrawn after the round
just played; the others are paired as usual and the question lapses."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.types import Actor, user_or_none
from games.engine.vocabulary import Result, Termination

from ..models import Absence, Board, Entrant, GameResult, NoShow, Round, RoundStart, Tournament
from .entrants import WithdrawnBy, participant_withdraw
from .errors import ChampionshipError
from .results import ResultEntry, game_result_set


def round_began(rnd: Round) -> datetime | None:
    """When the round started, for the no-show clock and the round's progress: its scheduled
    start (``RoundStart``), or, without one, the moment it was published (None for a draft)."""
    scheduled = (
        RoundStart.objects.filter(tournament_id=rnd.tournament_id, number=rnd.number)
        .values_list("starts_at", flat=True)
        .first()
    )
    return scheduled or rnd.published_at


def forfeit_result(absent: str, number: int) -> str:
    """The result of game ``number`` of a pairing whose ``absent`` side did not come (the
    pairing's White is White of game 1 and Black of game 2)."""
    if absent == NoShow.Absent.BOTH:
        return Result.DOUBLE_FORFEIT.value
    white_of_game = NoShow.Absent.WHITE if number == 1 else NoShow.Absent.BLACK
    return Result.BLACK_WINS.value if absent == white_of_game else Result.WHITE_WINS.value


def _locked_board(board: Board) -> tuple[Board, NoShow | None]:
    locked = (
        Board.objects.select_for_update(of=("self",))
        .select_related("round__tournament", "white", "black")
        .get(pk=board.pk)
    )
    return locked, NoShow.objects.filter(board=locked).first()


def board_no_show_forfeit(
    *, board: Board, absent: str, user: Actor, now: datetime | None = None
) -> tuple[NoShow, bool]:
    """Forfeit every game of ``board``'s pairing because its ``absent`` side (white, black or
    both: the pairing's) did not come; the absent players are asked whether they continue.
    Returns the decision and whether it was made now (False: it had been made already, and
    nothing changed)."""
    if absent not in NoShow.Absent.values:
        raise ChampionshipError(_("Choose who did not come."))
    now = now or timezone.now()
    with transaction.atomic():
        board, decided = _locked_board(board)
        if decided is not None:
            return decided, False
        if board.black_id is None:
            raise ChampionshipError(_("A bye has no game."))
        t = board.round.tournament
        numbers = range(1, t.games_per_pairing + 1)
        if GameResult.objects.filter(board=board, number__in=numbers).exclude(result="").exists():
            raise ChampionshipError(_("This board has a result already."))
        game_result_set(
            entries=[
                ResultEntry(
                    board=board,
                    number=n,
                    result=forfeit_result(absent, n),
                    termination=Termination.FORFEIT.value,
                )
                for n in numbers
            ],
            user=user,
        )
        no_show = NoShow.objects.create(
            board=board,
            decision=NoShow.Decision.FORFEIT,
            absent=absent,
            user=user_or_none(user),
            at=now,
        )
        players: list[Entrant] = []
        if absent in (NoShow.Absent.WHITE, NoShow.Absent.BOTH):
            players.append(board.white)
        if absent in (NoShow.Absent.BLACK, NoShow.Absent.BOTH) and board.black is not None:
            players.append(board.black)
        for entrant in players:
            Absence.objects.get_or_create(
                entrant=entrant, round=board.round, defaults={"created_at": now}
            )
    return no_show, True


def board_no_show_dismiss(
    *, board: Board, user: Actor, now: datetime | None = None
) -> tuple[NoShow, bool]:
    """The arbiter dismisses the hall's proposal for ``board`` (the players are there, the
    game starts late): logged; nothing else changes. Like the forfeit, once a board."""
    with transaction.atomic():
        board, decided = _locked_board(board)
        if decided is not None:
            return decided, False
        no_show = NoShow.objects.create(
            board=board,
            decision=NoShow.Decision.DISMISSED,
            user=user_or_none(user),
            at=now or timezone.now(),
        )
    return no_show, True


def _withdraw(entrant: Entrant, *, by: WithdrawnBy) -> None:
    """The one way this module withdraws a player: the one door of withdrawals (after the last
    round played: the registration, its e-mail and the waiting list follow there)."""
    participant_withdraw(entrant=entrant, by=by)


def absence_answer(*, absence: Absence, continues: bool, now: datetime | None = None) -> Absence:
    """The absent player's answer on their page: they continue, or they withdraw (then from
    the next round on). Answering again the same way changes nothing; the other way, once
    answered or decided by the rule, is refused (the organisers can change it)."""
    wanted = Absence.Status.CONTINUES if continues else Absence.Status.WITHDREW
    with transaction.atomic():
        absence = (
            Absence.objects.select_for_update(of=("self",))
            .select_related("entrant__tournament", "round")
            .get(pk=absence.pk)
        )
        if absence.status == wanted:
            return absence
        if absence.status != Absence.Status.ASKED:
            raise ChampionshipError(
                _("This question is closed (%(status)s): ask the organisers to change it.")
                % {"status": absence.get_status_display()}
            )
        if not continues and absence.entrant.withdrawn_after is None:
            _withdraw(absence.entrant, by=WithdrawnBy.PLAYER)
        absence.status = wanted
        absence.decided_at = now or timezone.now()
        absence.save(update_fields=["status", "decided_at"])
    return absence


def absences_apply_rule(*, tournament: Tournament, now: datetime | None = None) -> list[Entrant]:
    """The tournament's rule for the questions still unanswered, applied when the next round is
    paired (inside its transaction, before the field is read): a player with at least
    ``absences_to_withdraw`` absences is withdrawn after the round just played; the others'
    questions lapse (they are paired as usual). Returns the players withdrawn."""
    now = now or timezone.now()
    pending = list(
        Absence.objects.select_related("entrant__tournament")
        .filter(entrant__tournament=tournament, status=Absence.Status.ASKED)
        .order_by("entrant_id", "pk")
    )
    if not pending:
        return []
    limit = tournament.absences_to_withdraw
    counts: dict[int, int] = {}
    for entrant_id in Absence.objects.filter(
        entrant__tournament=tournament, entrant__in={a.entrant_id for a in pending}
    ).values_list("entrant_id", flat=True):
        counts[entrant_id] = counts.get(entrant_id, 0) + 1
    withdrawn: dict[int, Entrant] = {}
    for absence in pending:
        entrant = absence.entrant
        out = limit is not None and counts[entrant.pk] >= limit
        if out and entrant.withdrawn_after is None and entrant.pk not in withdrawn:
            _withdraw(entrant, by=WithdrawnBy.ORGANISER)  # the organisers' rule
            withdrawn[entrant.pk] = entrant
        absence.status = Absence.Status.WITHDRAWN if out else Absence.Status.LAPSED
        absence.decided_at = now
    Absence.objects.bulk_update(pending, ["status", "decided_at"])
    return list(withdrawn.values())
