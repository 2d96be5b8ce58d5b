"""Writes of the games app: turns one by one, whole sheets, terminations recorded on a sheet,
adjournment and the clock. Each is one transaction on the game's locked row; a user error is
``GameError`` (translated, nothing saved).

A game of a pairing tells the championship what its sheet says after every change
(``championship.services.game_result_sheet_set``, the one write door for results): the result
follows from the sheet. A result already entered by hand must agree; when it does not,
``ResultConflict`` asks the organiser which stands (``overrule=True``: the sheet)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championship import services as championship
from championship.models import Board, Round, Tournament
from common.types import Actor, user_or_none

from . import analysis, multiboard, openings, selectors
from .clock import clock_text, may_have_fallen, stopped, valid_clock_text
from .engine import BLACK, WHITE, EngineError
from .engine.core import PHASE_PLIES
from .engine.game import Game as EngineGame
from .engine.game import Outcome
from .engine.record import parse_record
from .engine.vocabulary import Result
from .messages import message
from .models import ORGANISER_TERMINATIONS, Game, GameSnapshot, Turn

#: The ``side`` of a double forfeit (neither side came).
BOTH = "both"

#: A whole game's record is a few kilobytes (72 turns, tags, clocks and comments): a pasted
#: text beyond this is not a record, and is refused before it is read.
MAX_RECORD_BYTES = 64 * 1024
#: The longest turn anyone writes is ``3:6 bar/22* 22/16*`` and a comment; beyond this it is
#: not a turn.
MAX_TURN_CHARS = 200


class GameError(Exception):
    """A request that cannot be carried out; the message says why and nothing changed."""


class Frozen(GameError):
    """The game's tournament is finished: nothing of its games changes but after a reopen."""

    def __init__(self) -> None:
        super().__init__(_("The tournament is finished: reopen it first to change anything."))


class ResultConflict(GameError):
    """The sheet and the result entered by hand disagree: the organiser decides."""

    def __init__(self, conflict: championship.ResultConflict) -> None:
        self.entered = conflict.entered
        self.sheet = conflict.sheet
        super().__init__(str(conflict))


def _engine_error(exc: EngineError) -> GameError:
    return GameError(message(exc))


# --- The pairing's result ----------------------------------------------------------------
def _tell_championship(
    game: Game,
    eg: EngineGame,
    user: Actor,
    *,
    overrule: bool,
    counts: dict[str, tuple[int, int]] | None = None,
) -> None:
    """Tell the championship what the sheet of a pairing's game now says (``eg``: the sheet
    alone, without a result entered by hand), with the counts of the analysis that holds for
    its moves (None: none is done)."""
    if game.board is None:
        return
    plies, outcome = selectors.sheet_facts(eg)
    try:
        championship.game_result_sheet_set(
            board=game.board,
            number=game.number,
            plies=plies,
            outcome=outcome,
            user=user,
            overrule=overrule,
            analysis=counts,
            savepoint=False,  # a refusal undoes the whole write here (it is let through)
        )
    except championship.ResultConflict as exc:
        raise ResultConflict(exc) from None
    except championship.TournamentFinished:
        raise Frozen from None
    except championship.ChampionshipError as exc:
        raise GameError(str(exc)) from None


def _sheet_changed(
    game: Game, eg: EngineGame, user: Actor, *, overrule: bool, was_undecided: bool = False
) -> None:
    """The sheet of ``game`` is now ``eg``: its analysis follows the moves (kept if they are
    the same, dropped and queued again if not), and the championship hears what the sheet
    says, with the analysis that holds. ``was_undecided``: the sheet before the change was
    undecided (a turn added), so the opening explorer had no rows of the game."""
    counts = analysis.sheet_changed(game, eg)
    # The opening explorer's rows follow the sheet too.
    openings.sheet_changed(game, eg, had_rows=not was_undecided)
    _tell_championship(game, eg, user, overrule=overrule, counts=counts)


def frozen(game: Game) -> bool:
    """Is ``game`` a game of a finished tournament (its sheet, clock and the players' word
    change only after the tournament is reopened)? Pages hide their controls then."""
    board = game.board
    return board is not None and board.round.tournament.status == Tournament.Status.FINISHED


def game_for(board: Board, number: int = 1) -> Game:
    """The game ``number`` of a pairing, created on first use with the tournament's clock."""
    if board.black_id is None:
        raise GameError(_("A bye has no game."))
    t = board.round.tournament
    if number not in (1, 2) or number > t.games_per_pairing:
        raise GameError(_("This pairing has no game %(n)d.") % {"n": number})
    with transaction.atomic():
        game, created = Game.objects.get_or_create(
            board=board,
            number=number,
            defaults={
                "event": t.name,
                "phase1_seconds": t.phase1_minutes * 60,
                "phase2_seconds": t.phase2_minutes * 60,
            },
        )
        if created:  # the public pages link to the new sheet
            _tell_championship(game, EngineGame(), None, overrule=False)
    return game


# --- Locking and touching -------------------------------------------------------------------
def _lock(game: Game, *, turn: bool = False) -> Game:
    """``game`` read again with its row locked (``GameError`` if it is gone). ``turn``: for a
    turn, the hall's busiest write, with what the turn reads next in the same statement
    (``selectors.turn_reads``: a round trip to the database each, otherwise)."""
    # ``of=("self",)``: only the game's row is locked; PostgreSQL refuses FOR UPDATE on the
    # nullable side of the outer join to the board (a friendly game has none).
    query = Game.objects.select_for_update(of=("self",)).select_related("board__round__tournament")
    if turn:
        query = query.annotate(**selectors.turn_reads())
    locked = query.filter(pk=game.pk).first()
    if locked is None:
        raise GameError(_("This game no longer exists."))
    # The door every write of a game passes (turns, sheets, terminations, the clock, the
    # players' word): a finished tournament's games change only after a reopen. The
    # championship's write door checks it again with the tournament's row locked.
    if frozen(locked):
        raise Frozen
    if locked.board is not None and locked.board.round.status != Round.Status.PUBLISHED:
        raise GameError(_("Games are recorded once the round is published."))
    return locked


def _touch(
    game: Game, *, at: datetime | None = None, ply: int | None = None, **fields: Any
) -> None:
    """Store ``fields`` and make a new version of the game (its page and its sheet form),
    with its snapshot: the game as it is from ``at`` on (``ply``: its turns now, counted if not
    given), which spectators' delayed pages read (``games.delay``)."""
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1, **fields)
    for key, value in fields.items():
        setattr(game, key, value)
    game.version += 1
    GameSnapshot.objects.create(
        game=game,
        version=game.version,
        at=at or timezone.now(),
        ply=game.turns.count() if ply is None else ply,
        termination=game.termination,
        termination_side=game.termination_side,
        adjourned=game.adjourned,
        clock_white_ms=game.clock_white_ms,
        clock_black_ms=game.clock_black_ms,
        clock_running_since=game.clock_running_since,
    )
    pk, board = game.pk, game.board
    where = (board.round.tournament.slug, board.round.number) if board is not None else None
    transaction.on_commit(lambda: multiboard.game_changed(pk, where))


def _flag_if_fallen(game: Game, eg: EngineGame, user: Actor, now: datetime) -> bool:
    """If the mover's clock has run out, the game ends on time (§6) and True is returned."""
    c = selectors.clock(game, eg, now)
    if c is None or c.fallen is None:
        return False
    side = c.fallen
    eg.terminate("time", side)
    _touch(
        game,
        at=now,
        ply=eg.ply,
        termination="time",
        termination_side=side,
        clock_running_since=None,
        **{f"clock_{side}_ms": 0},
    )
    _sheet_changed(game, eg, user, overrule=True)  # the server's clock decides
    return True


# --- Turn by turn -------------------------------------------------------------------------
def turn_add(
    *,
    game: Game,
    text: str,
    user: Actor,
    expected_ply: int | None = None,
    clock_text_written: str = "",
    overrule: bool = False,
    from_clock: bool = False,
    tablet: bool = False,
    now: datetime | None = None,
) -> Turn:
    """Validate and record the next turn. With the application as the clock the mover's time
    is taken from the server (not from the browser) and the other side's clock starts.
    ``tablet``: entered at the board's tablet, whose link works only while the game's round
    is open (``selectors.tablet_round_refusal``, checked here under the lock: the tablet's
    view reads nothing before)."""
    if len(text) > MAX_TURN_CHARS:
        raise GameError(_("A turn is a card and two steps, for example 4:5 24/20 13/8."))
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock(game, turn=True)
        if tablet and (reason := selectors.tablet_round_refusal(game)) is not None:
            raise GameError(reason)  # the link's round, checked under the lock
        turns = selectors.turns_of(game)
        eg = selectors.replay(game, turns)
        if expected_ply is not None and expected_ply != len(turns):
            raise GameError(
                ngettext(
                    "The sheet changed meanwhile: it now has %(n)d turn. Check the board "
                    "and enter the turn again.",
                    "The sheet changed meanwhile: it now has %(n)d turns. Check the board "
                    "and enter the turn again.",
                    len(turns),
                )
                % {"n": len(turns)}
            )
        if from_clock and game.clock_running_since is None and eg.outcome is None:
            raise GameError(_("Start the clock first."))
        flagged = _flag_if_fallen(game, eg, user, now)
        if not flagged:
            turn = _record_turn(
                game, eg, text, user, now, clock_text_written, overrule, tablet=tablet
            )
    if flagged:  # committed: the flag stands whatever happens to the turn
        raise GameError(_("The flag fell before the turn: the game ended on time."))
    return turn


def _record_turn(
    game: Game,
    eg: EngineGame,
    text: str,
    user: Actor,
    now: datetime,
    clock_text_written: str,
    overrule: bool,
    *,
    tablet: bool = False,
) -> Turn:
    """Play ``text`` on the locked game's sheet and store it with the mover's clock."""
    if game.adjourned:
        raise GameError(_("The game is adjourned: resume it first."))
    before = selectors.clock(game, eg, now)
    try:
        played = eg.play(text)
    except EngineError as exc:
        raise _engine_error(exc) from None
    mover = played.side
    fields: dict[str, Any] = {"adjourned": False}
    written = clock_text_written.strip()
    if before is not None and before.running is not None:
        ms = before.left(mover)
        written = clock_text(ms)
        fields[f"clock_{mover}_ms"] = ms
        fields["clock_running_since"] = now if eg.outcome is None else None
        if played.ply == PHASE_PLIES:  # fresh phase-2 clocks for both (§6)
            fields["clock_white_ms"] = fields["clock_black_ms"] = game.phase2_seconds * 1000
    elif written and not valid_clock_text(written):
        raise GameError(_("Write the clock as h:mm:ss, for example 0:29:31."))
    played.clock = written or None
    fields.update(at=now, ply=played.ply)
    try:
        turn = Turn.objects.create(
            game=game,
            ply=played.ply,
            text=played.text,
            clock=written,
            entered_by=user_or_none(user),
            from_tablet=tablet,
        )
    except IntegrityError:  # a database without row locks let a parallel turn in first
        raise GameError(
            _("The sheet changed meanwhile. Check the board and enter the turn again.")
        ) from None
    _touch(game, **fields)
    # A turn is played only on an undecided sheet (the engine refuses one after the end).
    _sheet_changed(game, eg, user, overrule=overrule, was_undecided=True)
    turn.replay_after = eg
    return turn


def turn_undo(
    *, game: Game, user: Actor, expected_ply: int | None = None, now: datetime | None = None
) -> Turn:
    """Take back the last turn (and a termination recorded after it)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock(game)
        turns = selectors.turns_of(game)
        if expected_ply is not None and expected_ply != len(turns):
            raise GameError(
                ngettext(
                    "The sheet changed meanwhile: it now has %(n)d turn.",
                    "The sheet changed meanwhile: it now has %(n)d turns.",
                    len(turns),
                )
                % {"n": len(turns)}
            )
        if not turns:
            raise GameError(_("There is no turn to take back."))
        eg = selectors.sheet(game, turns)
        fields: dict[str, Any] = {"termination": "", "termination_side": "", "adjourned": False}
        spent = stopped(selectors.clock(game, eg, now))
        if spent:
            # The time spent so far stays spent; the previous mover's clock runs again.
            fields.update(spent, clock_running_since=now)
        last = turns[-1]
        last.delete()
        eg = selectors.sheet(game, turns[:-1], terminations=False)
        _touch(game, at=now, ply=len(turns) - 1, **fields)
        _sheet_changed(game, eg, user, overrule=True)  # other moves: the analysis is gone
    return last


# --- Whole sheets -------------------------------------------------------------------------
def _check_record_size(text: str) -> None:
    if len(text) > MAX_RECORD_BYTES or len(text.encode()) > MAX_RECORD_BYTES:
        raise GameError(
            _("This is longer than any game's record (at most %(kb)d KB). Nothing was saved.")
            % {"kb": MAX_RECORD_BYTES // 1024}
        )


def sheet_replace(*, game: Game, text: str, user: Actor, overrule: bool = False) -> EngineGame:
    """Replace the sheet by a record (RULES.md §8.3), validated as a whole."""
    _check_record_size(text)
    try:
        record = parse_record(text)
    except EngineError as exc:
        raise _engine_error(exc) from None
    eg = record.game
    with transaction.atomic():
        game = _lock(game)
        termination = eg.terminated.termination if eg.terminated is not None else ""
        game.turns.all().delete()
        Turn.objects.bulk_create(
            Turn(
                game=game,
                ply=t.ply,
                text=t.text,
                clock=t.clock or "",
                comments=list(t.comments),
                entered_by=user_or_none(user),
            )
            for t in eg.turns
        )
        fields: dict[str, Any] = {
            "termination": termination,
            "termination_side": termination_side(eg),
            "adjourned": False,
        }
        if game.board is None:
            tags = dict(record.tags)
            if not game.white_name and tags.get("White"):
                fields["white_name"] = tags["White"][:150]
            if not game.black_name and tags.get("Black"):
                fields["black_name"] = tags["Black"][:150]
        _touch(game, ply=len(eg.turns), **fields)
        _sheet_changed(game, eg, user, overrule=overrule)
    return eg


def termination_side(eg: EngineGame) -> str:
    """The side a termination recorded on the sheet concerns (the loser; for a draw on time
    the mover)."""
    outcome = eg.terminated
    if outcome is None:
        return ""
    if outcome.winner is not None:
        return BLACK if outcome.winner == WHITE else WHITE
    return eg.state.to_move if outcome.termination == "time" else ""


# --- Terminations recorded on the sheet, and adjournment -----------------------------------
def _terminated(eg: EngineGame, termination: str, side: str) -> Outcome:
    """End ``eg`` by an organiser's ``termination`` concerning ``side`` (see
    ``game_terminate``), or say why it cannot be (``GameError``)."""
    if termination not in {code for code, _label in ORGANISER_TERMINATIONS}:
        raise GameError(_("Choose how the game ended."))
    if side not in ("", WHITE, BLACK, BOTH):
        raise GameError(_("Choose White or Black."))
    if termination in ("resign", "forfeit") and not side:
        raise GameError(_("Choose the side that resigned or did not come."))
    if side == BOTH and termination != "forfeit":
        raise GameError(_("Only a forfeit can concern both sides."))
    result = None
    if side == BOTH:
        result = Result.DOUBLE_FORFEIT.value
    elif termination == "adjudication" and not side:
        result = Result.DRAW.value
    concerned = None if side == BOTH else selectors.side_name(side)
    try:
        return eg.terminate(termination, concerned, result=result)
    except EngineError as exc:
        raise _engine_error(exc) from None


def game_termination_preview(*, game: Game, termination: str, side: str) -> Outcome:
    """The outcome ``game_terminate`` would record, without recording it (what the organiser
    is asked to confirm); ``GameError`` if it would be refused."""
    return _terminated(selectors.replay(game), termination, side)


def game_terminate(
    *,
    game: Game,
    termination: str,
    side: str,
    user: Actor,
    overrule: bool = False,
    now: datetime | None = None,
) -> Outcome:
    """Record ``time``, ``resign``, ``agreement``, ``forfeit`` or ``adjudication`` on the
    sheet; refused when the game is already decided (§7). ``side`` is the side concerned:
    the flagged, resigning or absent side, the loser of an adjudication (none: a draw), or
    ``both`` for a double forfeit (neither came)."""
    with transaction.atomic():
        game = _lock(game)
        eg = selectors.replay(game)
        spent = stopped(selectors.clock(game, eg, now))  # the time spent until now stays spent
        outcome = _terminated(eg, termination, side)
        _touch(
            game,
            at=now,
            ply=eg.ply,
            termination=termination,
            termination_side=termination_side(eg),
            adjourned=False,
            clock_running_since=None,
            **spent,
        )
        _sheet_changed(game, eg, user, overrule=overrule)
    return outcome


def game_adjourn(*, game: Game, user: Actor) -> None:
    with transaction.atomic():
        game = _lock(game)
        eg = selectors.replay(game)
        try:
            eg.adjourn()
        except EngineError as exc:
            raise _engine_error(exc) from None
        _touch(game, ply=eg.ply, adjourned=True, clock_running_since=None)


def game_resume(*, game: Game, user: Actor) -> None:
    """Resume an adjourned game: fresh phase-2 clocks (stopped until started)."""
    with transaction.atomic():
        game = _lock(game)
        if not game.adjourned:
            raise GameError(_("The game is not adjourned."))
        fields: dict[str, Any] = {"adjourned": False}
        if game.clock_white_ms is not None:
            fields.update(
                clock_white_ms=game.phase2_seconds * 1000,
                clock_black_ms=game.phase2_seconds * 1000,
                clock_running_since=None,
            )
        _touch(game, **fields)


# --- The clock ----------------------------------------------------------------------------
def clock_start(*, game: Game, user: Actor, now: datetime | None = None) -> None:
    """Start (or restart after a pause) the clock of the side to move."""
    with transaction.atomic():
        game = _lock(game)
        eg = selectors.replay(game)
        if eg.outcome is not None:
            raise GameError(_("The game is over."))
        if game.adjourned:
            raise GameError(_("The game is adjourned: resume it first."))
        if game.clock_running_since is not None:
            return
        now = now or timezone.now()
        fields: dict[str, Any] = {"clock_running_since": now}
        if game.clock_white_ms is None:
            seconds = game.phase1_seconds if eg.state.phase == 1 else game.phase2_seconds
            fields.update(clock_white_ms=seconds * 1000, clock_black_ms=seconds * 1000)
        _touch(game, at=now, ply=eg.ply, **fields)


def clock_pause(*, game: Game, user: Actor, now: datetime | None = None) -> None:
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock(game)
        eg = selectors.replay(game)
        if eg.outcome is not None:
            return  # a finished game's clock is stopped (and its version, analysed, stays)
        if _flag_if_fallen(game, eg, user, now):
            return
        _touch(
            game,
            at=now,
            ply=eg.ply,
            clock_running_since=None,
            **stopped(selectors.clock(game, eg, now)),
        )


def clock_settle(*, game: Game, user: Actor = None, now: datetime | None = None) -> bool:
    """End the game on time if the running clock has run out (the server's time decides).
    Called whenever the clock is looked at; True if a flag fell now. Nothing falls in a
    finished tournament (its results are final)."""
    now = now or timezone.now()
    # Most looks come long before a flag could fall: they need no lock and no replay (the
    # tablet's page and its state every few seconds, the organiser's clock).
    fresh_ms = game.phase2_seconds * 1000
    if not may_have_fallen(selectors.stored_clock(game), now, fresh_ms=fresh_ms) or frozen(game):
        return False
    with transaction.atomic():
        game = _lock(game)
        eg = selectors.replay(game)
        if eg.outcome is not None:
            return False
        return _flag_if_fallen(game, eg, user, now)


# --- The players' word on the result (the board's tablet) ----------------------------------
def _ended(game: Game) -> tuple[Game, EngineGame, str]:
    """The locked game, its replay and its result's key; refused while it goes on."""
    game = _lock(game)
    eg = selectors.replay(game)
    key = selectors.result_key(eg)
    if not key:
        raise GameError(_("The game is not over yet."))
    if game.disputed:
        raise GameError(_("A player did not agree with the result: the arbiter decides."))
    return game, eg, key


def game_confirm(*, game: Game, side: str) -> bool:
    """``side`` confirms the game's result at the board's tablet; True once both players have
    confirmed it (then, for a pairing's game, the result is confirmed in the championship)."""
    if side not in (WHITE, BLACK):
        raise GameError(_("Choose White or Black."))
    with transaction.atomic():
        game, eg, key = _ended(game)
        confirmed: dict[str, Any] = {f"{side}_confirmed": key}
        _touch(game, **confirmed)
        both = game.white_confirmed == game.black_confirmed == key
        outcome = eg.outcome
        if both and game.board is not None and outcome is not None:
            try:
                championship.game_result_players_confirm(
                    board=game.board,
                    number=game.number,
                    result=outcome.result,
                    termination=outcome.termination,
                )
            except championship.TournamentFinished:
                raise Frozen from None
            except championship.ChampionshipError as exc:
                raise GameError(str(exc)) from None
    return both


def game_dispute(*, game: Game, side: str) -> None:
    """``side`` does not agree with the game's result: the arbiter is to decide."""
    if side not in (WHITE, BLACK):
        raise GameError(_("Choose White or Black."))
    with transaction.atomic():
        game, _eg, key = _ended(game)
        _touch(game, disputed=key, disputed_by=side)


def game_dispute_settle(*, game: Game, user: Actor) -> None:
    """The arbiter has settled a disagreement (after correcting the sheet or the result, or
    leaving it as it is): the players confirm again at the tablet if it still works."""
    with transaction.atomic():
        game = _lock(game)
        if not game.disputed:
            raise GameError(_("Nobody disputes this game's result."))
        _touch(game, disputed="", disputed_by="", white_confirmed="", black_confirmed="")
