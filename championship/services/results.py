"""The one write door for game results: ``game_result_set`` (organisers' entries, any number
of games in one transaction) and ``game_result_sheet_set`` (what a move sheet says, called by
the games app, which owns the sheets). Both end in ``_write``; the history, the confirmation
state and the new version of the public pages follow from there.

A result entered by hand must agree with the game's sheet: a sheet that decides the game fixes
its result; an undecided sheet accepts an organiser's termination (resign, forfeit, agreement,
time) but not a result only the moves could give (home, blocked, cards). A sheet that comes to
a result contradicting one entered by hand is a ``ResultConflict``: the organiser decides."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from common.types import Actor, user_or_none
from games.engine.core import PHASE_PLIES
from games.engine.vocabulary import (
    DRAWING_TERMINATIONS,
    ENGINE_TERMINATIONS,
    Result,
    Termination,
    consistent,
)

from ..models import (
    RESULTS,
    TERMINATION_NAMES,
    Board,
    GameResult,
    ResultChange,
    Round,
    Tournament,
)
from .changes import tournament_changed
from .errors import ChampionshipError

Source = GameResult.Source

#: The engine's counts of a game's mistakes and blunders (``game_result_analysis_set``).
ANALYSIS_FIELDS = (
    "analysis_mistakes_white",
    "analysis_blunders_white",
    "analysis_mistakes_black",
    "analysis_blunders_black",
)
NO_ANALYSIS: dict[str, Any] = dict.fromkeys(ANALYSIS_FIELDS)


def _has_analysis(game: GameResult) -> bool:
    return any(getattr(game, name) is not None for name in ANALYSIS_FIELDS)


def _analysis_fields(counts: dict[str, tuple[int, int]] | None) -> dict[str, Any]:
    """The ``GameResult`` fields of an analysis' counts (``{"white": (mistakes, blunders),
    "black": (...)}``; None: no analysis holds)."""
    if counts is None:
        return dict(NO_ANALYSIS)
    return {
        f"analysis_{kind}_{side}": counts[side][i]
        for side in ("white", "black")
        for i, kind in enumerate(("mistakes", "blunders"))
    }


def describe(result: str, termination: str, *, unfinished: bool = False) -> str:
    """``1-0 (resign)`` in the user's language; without a result "no result" (or "an
    unfinished game", for a sheet)."""
    if not result:
        return _("an unfinished game") if unfinished else _("no result")
    if result == Result.DOUBLE_FORFEIT:
        return _("0-0 (double forfeit)")
    shown = dict(RESULTS).get(result, result)
    name = TERMINATION_NAMES.get(termination, termination)
    return f"{shown} ({name})" if termination else str(shown)


class ConcurrentEdit(ChampionshipError):
    """Someone else saved this game's result first; ``current`` holds it."""

    def __init__(self, current: GameResult) -> None:
        self.current = current
        super().__init__(
            _("Someone else changed this result meanwhile: it is now %(result)s.")
            % {"result": describe(current.result, current.termination)}
        )


class ResultConflict(ChampionshipError):
    """The sheet gives another result than the one entered by hand: the organiser decides
    (``overrule=True``: the sheet stands)."""

    def __init__(self, entered: tuple[str, str], sheet: tuple[str, str]) -> None:
        self.entered = entered
        self.sheet = sheet
        super().__init__(
            _(
                "The result entered for this game is %(entered)s, but the sheet gives "
                "%(sheet)s. Which one stands?"
            )
            % {"entered": describe(*entered), "sheet": describe(*sheet, unfinished=True)}
        )


@dataclass(frozen=True)
class ResultEntry:
    """One game's result as an organiser's form gives it (``result`` empty: clear it)."""

    board: Board
    number: int
    result: str
    termination: str
    #: The version of the result the form showed (None: do not check).
    expected_version: int | None = None


class ResultsRefused(ChampionshipError):
    """Some entries of a form cannot be saved, so none is: ``problems`` says why for each
    (board number, game number, message); ``conflicts`` holds the current value of each game
    someone else changed meanwhile."""

    def __init__(
        self, problems: list[tuple[int, int, str]], conflicts: dict[int, GameResult]
    ) -> None:
        self.problems = problems
        self.conflicts = conflicts
        super().__init__(
            "; ".join(
                _("Board %(board)d: %(message)s") % {"board": board, "message": message}
                for board, _number, message in problems
            )
        )


class TournamentFinished(ChampionshipError):
    """The tournament is finished: nothing changes its results but a reopen."""

    def __init__(self) -> None:
        super().__init__(_("The tournament is finished: reopen it first to change anything."))


def _check_open(tournament_id: int) -> None:
    """The rule every write of a game's result passes (organisers' entries, move sheets,
    confirmations): nothing changes a finished tournament's results but a reopen.

    Called inside the write's transaction once its ``GameResult`` rows are locked: the
    tournament's row is locked too (as ``tournament_finish`` locks it, and in the order every
    writer takes them: results, then the tournament, whose version the write bumps; a move
    sheet's write takes both in one statement, ``_locked_sheet_game``), so a finish racing
    this write either waits for it or is seen by it."""
    status = (
        Tournament.objects.select_for_update()
        .filter(pk=tournament_id)
        .values_list("status", flat=True)
        .first()
    )
    if status == Tournament.Status.FINISHED:
        raise TournamentFinished


def _check_entry(result: str, termination: str) -> str | None:
    """Why a result cannot be entered as such (None: it can)."""
    if result and result not in dict(RESULTS):
        return _("Unknown result %(r)s.") % {"r": result}
    if termination and termination not in set(Termination):
        return _("Unknown termination %(t)s.") % {"t": termination}
    if result and not termination:
        return _("Choose how the game ended.")
    if result and not consistent(result, termination):
        name = TERMINATION_NAMES.get(termination, termination)
        if result == Result.DOUBLE_FORFEIT:
            return _("0-0 is a double forfeit: choose forfeit as the termination.")
        if termination in DRAWING_TERMINATIONS:
            return _("A game ended by %(t)s is a draw.") % {"t": name}
        return _("A game ended by %(t)s cannot be a draw.") % {"t": name}
    return None


def _check_against_sheet(game: GameResult, result: str, termination: str) -> str | None:
    """Why a result entered by hand contradicts the game's sheet (None: it agrees)."""
    if not game.has_sheet or not result:
        return None
    if game.sheet_result:
        if (result, termination) != (game.sheet_result, game.sheet_termination):
            return _("The sheet of this game decides it: %(sheet)s. Correct the sheet instead.") % {
                "sheet": describe(game.sheet_result, game.sheet_termination)
            }
        return None
    if not game.sheet_plies:
        return None
    # Only the moves can bring a game home, block it or use up its cards; a flag must fit the
    # phase the sheet is in (RULES.md §6: a flag in phase 1 loses, in phase 2 draws).
    if termination in ENGINE_TERMINATIONS or not _undecided_sheet_allows(
        game.sheet_plies, (result, termination)
    ):
        return _("The sheet of this game (%(n)d turns) does not allow %(entered)s.") % {
            "n": game.sheet_plies,
            "entered": describe(result, termination),
        }
    return None


def _undecided_sheet_allows(plies: int, entered: tuple[str, str]) -> bool:
    """Can a result entered by hand stand beside an undecided sheet of ``plies`` turns? A
    result only the moves give (home, blocked, cards) may still come as the sheet is written;
    a flag must fit the phase (§6)."""
    result, termination = entered
    if termination == Termination.TIME and plies:
        return (plies >= PHASE_PLIES) == (result == Result.DRAW)
    if result == Result.DOUBLE_FORFEIT:
        return not plies  # nobody came, so nothing was played
    return True


def _locked_games(
    boards: Sequence[Board], numbers: set[tuple[int, int]]
) -> dict[tuple[int, int], GameResult]:
    """The game results of ``boards`` (created if missing), locked for this transaction."""
    ids = [b.pk for b in boards]
    rows = list(GameResult.objects.select_for_update().filter(board__in=ids))
    missing = numbers - {(g.board_id, g.number) for g in rows}
    if missing:  # rare: a round's rows are made when it is paired
        for board_id, number in missing:
            GameResult.objects.get_or_create(board_id=board_id, number=number)
        rows = list(GameResult.objects.select_for_update().filter(board__in=ids))
    return {(g.board_id, g.number): g for g in rows if (g.board_id, g.number) in numbers}


def _locked_sheet_game(board: Board, number: int) -> GameResult:
    """Game ``number`` of ``board`` (created if missing) locked for this transaction with its
    tournament's row, in one statement, which refuses it if the tournament is finished (what
    ``_locked_games`` and ``_check_open`` do in two, for a move sheet's every change)."""
    query = (
        GameResult.objects.select_for_update(of=("self", "board__round__tournament"))
        .select_related("board__round__tournament")
        .filter(board_id=board.pk, number=number)
        .order_by()  # one row (unique): none of the default order's sorting
    )
    game = query.first()
    if game is None:  # rare: a round's rows are made when it is paired
        GameResult.objects.get_or_create(board_id=board.pk, number=number)
        game = query.get()
    if game.board.round.tournament.status == Tournament.Status.FINISHED:
        raise TournamentFinished
    return game


def _write(
    game: GameResult,
    result: str,
    termination: str,
    *,
    source: str,
    user: Actor,
    confirmation: bool,
    sheet: dict[str, Any] | None = None,
) -> bool:
    """Store a game's result (and the sheet's facts); True if the result changed."""
    old = game.text
    if not result:
        termination = ""
    changed = (result, termination) != (game.result, game.termination)
    fields: dict[str, Any] = dict(sheet or {})
    if not result and _has_analysis(game):
        fields.update(NO_ANALYSIS)  # the game is no longer over: its analysis is not shown
    if changed:
        fields.update(
            result=result,
            termination=termination,
            source=source if result else "",
            confirmed=not (confirmation and result),
            version=F("version") + 1,
        )
    if not fields:
        return False
    GameResult.objects.filter(pk=game.pk).update(**fields)
    if changed:  # the version is counted by the database
        game.refresh_from_db()
    else:  # the sheet's facts only (a turn added): the row is as written
        for name, value in fields.items():
            setattr(game, name, value)
    if changed:
        ResultChange.objects.create(
            game_result=game,
            user=user_or_none(user),
            action="enter" if not old else ("clear" if not result else "correct"),
            source=source,
            old=old,
            new=game.text,
        )
    return changed


def game_result_set(
    *, entries: Sequence[ResultEntry], user: Actor, source: str = Source.ORGANISER
) -> list[GameResult]:
    """Enter or correct the results of any number of games, all or none: every entry is checked
    first (the result itself, the game's sheet, the version the form showed); if any fails,
    nothing is saved and ``ResultsRefused`` says why for each. One transaction, and one new
    version of the tournament's pages however many results it saves."""
    if not entries:
        return []
    problems: list[tuple[int, int, str]] = []
    conflicts: dict[int, GameResult] = {}
    saved: list[GameResult] = []
    with transaction.atomic():
        tournament = entries[0].board.round.tournament
        for entry in entries:
            board = entry.board
            why = None
            if board.round.tournament_id != tournament.pk:
                why = _("Choose a board of this round.")
            elif board.round.status != Round.Status.PUBLISHED:
                why = _("Results can be entered only for a published round.")
            elif board.black_id is None:
                why = _("A bye has no result to enter.")
            elif entry.number not in range(1, tournament.games_per_pairing + 1):
                why = _("This pairing has no game %(n)d.") % {"n": entry.number}
            else:
                why = _check_entry(entry.result, entry.termination)
            if why is not None:
                problems.append((board.number, entry.number, why))
        if problems:
            raise ResultsRefused(problems, conflicts)
        boards = list({e.board.pk: e.board for e in entries}.values())
        games = _locked_games(boards, {(e.board.pk, e.number) for e in entries})
        try:
            _check_open(tournament.pk)
        except TournamentFinished as exc:
            raise ResultsRefused(
                [(e.board.number, e.number, str(exc)) for e in entries], conflicts
            ) from None
        for entry in entries:
            game = games[(entry.board.pk, entry.number)]
            why = None
            if entry.expected_version not in (None, game.version):
                conflicts[game.pk] = game
                why = str(ConcurrentEdit(game))
            elif source == Source.ORGANISER:
                why = _check_against_sheet(game, entry.result, entry.termination)
            if why is not None:
                problems.append((entry.board.number, entry.number, why))
        if problems:
            raise ResultsRefused(problems, conflicts)
        for entry in entries:
            game = games[(entry.board.pk, entry.number)]
            if _write(
                game,
                entry.result,
                entry.termination,
                source=source,
                user=user,
                confirmation=tournament.two_person_confirmation,
            ):
                saved.append(game)
        if saved:
            tournament_changed(tournament.pk)
    return saved


def game_result_sheet_set(
    *,
    board: Board,
    number: int,
    plies: int,
    outcome: tuple[str, str] | None,
    user: Actor,
    overrule: bool = False,
    analysis: dict[str, tuple[int, int]] | None = None,
    savepoint: bool = True,
) -> GameResult:
    """What game ``number`` of ``board``'s move sheet now says: its turns and the result its
    moves or a termination recorded on it decide (``outcome``; None while undecided), and the
    counts of the engine's analysis that holds for its moves (``analysis``, as
    ``game_result_analysis_set`` takes them; None: none is done). The games app calls this
    whenever a sheet changes; the result follows from the sheet unless it contradicts one
    entered by hand (``ResultConflict``, unless ``overrule``: the sheet stands). An undecided
    sheet leaves a result entered by hand as it is, and takes back one that came from the
    sheet (a turn taken back reopens the game).

    ``savepoint=False``: the caller's transaction is undone whole if this refuses (the games
    app's writes, which let every refusal through): no savepoint is made in it, two round
    trips to the database fewer on the hall's busiest write (docs/performance.md)."""
    with transaction.atomic(savepoint=savepoint):
        game = _locked_sheet_game(board, number)
        tournament = board.round.tournament
        sheet = {
            "has_sheet": True,
            "sheet_plies": plies,
            "sheet_result": outcome[0] if outcome else "",
            "sheet_termination": outcome[1] if outcome else "",
            # The analysis belongs to the moves: it stays while they do (a termination
            # recorded, the same record pasted again), and goes when they change (the games
            # app tells the new one's once it is done).
            **_analysis_fields(analysis),
        }
        analysed = any(getattr(game, name) != sheet[name] for name in ANALYSIS_FIELDS)
        entered = (game.result, game.termination)
        by_hand = bool(game.result) and game.source == Source.ORGANISER
        if outcome is not None:
            if by_hand and entered != outcome and not overrule:
                raise ResultConflict(entered, outcome)
            wanted = outcome
        elif by_hand and _undecided_sheet_allows(plies, entered):
            wanted = entered  # the sheet is still being written, or ended by the organiser
        elif by_hand and not overrule:
            raise ResultConflict(entered, ("", ""))
        else:
            wanted = ("", "")
        news = not game.has_sheet  # the public pages link to the new sheet
        changed = _write(
            game,
            *wanted,
            source=Source.SHEET if outcome is not None else game.source or Source.SHEET,
            user=user,
            confirmation=tournament.two_person_confirmation,
            sheet=sheet,
        )
        if changed or news or analysed:
            tournament_changed(tournament.pk)
    return game


def game_result_analysis_set(
    *, board_id: int, number: int, counts: dict[str, tuple[int, int]] | None
) -> bool:
    """The engine's analysis of game ``number`` of a pairing is done (``counts``: each side's
    mistakes and blunders, ``{"white": (m, b), "black": (m, b)}``) or no longer holds (None).
    The games app calls this (it owns the sheets and their analysis); the player's page shows
    the counts. Only beside a result: a game without one is not over. True if anything
    changed (and the tournament's pages got a new version)."""
    with transaction.atomic():
        game = (
            GameResult.objects.select_for_update()
            .filter(board_id=board_id, number=number)
            .select_related("board__round")
            .first()
        )
        if game is None:
            return False
        fields = _analysis_fields(counts if game.result else None)
        if all(getattr(game, name) == value for name, value in fields.items()):
            return False
        GameResult.objects.filter(pk=game.pk).update(**fields)
        tournament_changed(game.board.round.tournament_id)
    return True


def game_result_sheet_removed(*, board_id: int, number: int) -> None:
    """Game ``number`` of a pairing no longer has a move sheet (it was deleted): its result stays
    as it is, and may be corrected by hand like any other."""
    with transaction.atomic():
        updated = GameResult.objects.filter(
            board_id=board_id, number=number, has_sheet=True
        ).update(
            has_sheet=False,
            sheet_plies=0,
            sheet_result="",
            sheet_termination="",
            **NO_ANALYSIS,  # the analysis went with the sheet
        )
        if updated:
            board = Board.objects.select_related("round").filter(pk=board_id).first()
            if board is not None:
                tournament_changed(board.round.tournament_id)


def game_results_confirm(*, board: Board, user: Actor) -> list[GameResult]:
    """A second organiser confirms the results of a pairing entered by someone else."""
    with transaction.atomic():
        games = list(
            GameResult.objects.select_for_update()
            .filter(board=board, confirmed=False)
            .exclude(result="")
        )
        if not games:
            raise ChampionshipError(_("There is no result to confirm."))
        _check_open(board.round.tournament_id)
        for game in games:
            last = game.changes.exclude(action="confirm").first()
            if last is not None and last.user_id == getattr(user, "pk", None):
                raise ChampionshipError(
                    _("A result is confirmed by another organiser than the one who entered it.")
                )
        for game in games:
            GameResult.objects.filter(pk=game.pk).update(confirmed=True, version=F("version") + 1)
            ResultChange.objects.create(
                game_result=game, user=user_or_none(user), action="confirm", new=game.text
            )
        tournament_changed(board.round.tournament_id)
    return games


def game_result_players_confirm(
    *, board: Board, number: int, result: str, termination: str
) -> GameResult:
    """Both players of game ``number`` of ``board`` confirmed its result at the board (the
    tablet of a signed link, no account): the result stands confirmed, as a second
    organiser's confirmation would make it (the history says the players did). Refused if the
    result is no longer the one they confirmed."""
    with transaction.atomic():
        game = _locked_games([board], {(board.pk, number)})[(board.pk, number)]
        _check_open(board.round.tournament_id)
        if not game.result or (game.result, game.termination) != (result, termination):
            raise ChampionshipError(
                _("The result changed meanwhile: it is now %(result)s.")
                % {"result": describe(game.result, game.termination)}
            )
        if not game.confirmed:
            GameResult.objects.filter(pk=game.pk).update(confirmed=True, version=F("version") + 1)
            game.refresh_from_db()
            tournament_changed(board.round.tournament_id)
        ResultChange.objects.create(
            game_result=game, user=None, action="players", source=Source.SHEET, new=game.text
        )
    return game


def game_result_rated_set(*, game_result: GameResult, rated: bool, user: Actor) -> GameResult:
    """An organiser marks a game unrated (it does not count for the club's rating, whatever
    its result), or rated again. Recorded in the game's history; the ratings are recomputed
    after the commit (``changes``)."""
    with transaction.atomic():
        game = (
            GameResult.objects.select_for_update()
            .select_related("board__round__tournament")
            .get(pk=game_result.pk)
        )
        if game.rated == rated:
            return game
        if game.board.round.tournament.status == "finished":
            raise ChampionshipError(
                _("The tournament is finished: reopen it first to change anything.")
            )
        GameResult.objects.filter(pk=game.pk).update(rated=rated, version=F("version") + 1)
        game.refresh_from_db()
        ResultChange.objects.create(
            game_result=game,
            user=user_or_none(user),
            action="rated" if rated else "unrated",
            old=game.text,
            new=game.text,
        )
        tournament_changed(game.board.round.tournament_id)
    return game
