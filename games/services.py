"""Writes of the games app: turns one by one, whole sheets, organiser terminations,
adjournment and the clock. Each is one transaction on the game's locked row; a user error is
``GameError`` (translated, nothing saved).

A game of a pairing gives its result to the pairing's board (and so to the standings) as soon
as the sheet decides it. A result already on the board must agree with the sheet; when it does
not, ``ResultConflict`` asks the organiser which stands (``overrule=True``: the sheet).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from championship.models import Board, Round

from .engine import BLACK, WHITE, EngineError
from .engine.core import PHASE_PLIES
from .engine.game import ENGINE_TERMINATIONS, Outcome
from .engine.game import Game as EngineGame
from .engine.record import parse_record
from .messages import TERMINATION_NAMES, message
from .models import Game, Turn


class GameError(Exception):
    """A request that cannot be carried out; the message says why and nothing changed."""


class ResultConflict(GameError):
    """The sheet and the result entered on the board disagree: the organiser decides."""

    def __init__(self, sheet: Outcome | None, entered: tuple[str, str]) -> None:
        self.sheet = sheet
        self.entered = entered
        super().__init__(
            _(
                "The result entered for this game is %(entered)s, but the sheet gives "
                "%(sheet)s. Which one stands?"
            )
            % {"entered": describe(*entered), "sheet": describe_outcome(sheet)}
        )


def describe(result: str, termination: str) -> str:
    if not result:
        return _("no result")
    name = TERMINATION_NAMES.get(termination, termination)
    return f"{result.replace('1/2-1/2', '½-½')} ({name})" if termination else result


def describe_outcome(outcome: Outcome | None) -> str:
    if outcome is None:
        return _("an unfinished game")
    return describe(outcome.result, outcome.termination)


# --- Reading ------------------------------------------------------------------------------
def replay(game: Game, turns: list[Turn] | None = None, *, terminations: bool = True) -> EngineGame:
    """The engine's game for a sheet (``turns`` in ply order; read from the database if not
    given). With ``terminations`` the organiser termination and adjournment are applied."""
    if turns is None:
        turns = list(game.turns.order_by("ply"))
    eg = EngineGame()
    for t in turns:
        played = eg.play(t.text, clock=t.clock or None)
        played.comments.extend(t.comments or [])
    if terminations:
        if game.termination:
            eg.terminate(game.termination, game.termination_side or None)
        elif game.adjourned and eg.can_adjourn:
            eg.adjourned = True
    return eg


def names(game: Game) -> tuple[str, str]:
    """White's and Black's names in this game (game 2 of a pairing has the colours reversed)."""
    board = game.board
    if board is None:
        return game.white_name or _("White"), game.black_name or _("Black")
    first, second = str(board.white), str(board.black) if board.black_id else "—"
    return (first, second) if game.number == 1 else (second, first)


def entrants(game: Game) -> tuple[Any, Any]:
    board = game.board
    if board is None:
        return None, None
    return (board.white, board.black) if game.number == 1 else (board.black, board.white)


def _board_fields(game: Game) -> tuple[str, str]:
    return ("result", "termination") if game.number == 1 else ("result2", "termination2")


def board_value(game: Game) -> tuple[str, str]:
    if game.board is None:
        return "", ""
    r, t = _board_fields(game)
    return getattr(game.board, r), getattr(game.board, t)


def game_for(board: Any, number: int = 1) -> Game:
    """The game ``number`` of a pairing, created on first use with the tournament's clock."""
    if board.black_id is None:
        raise GameError(_("A bye has no game."))
    t = board.round.tournament
    if number not in (1, 2) or number > t.games_per_pairing:
        raise GameError(_("This pairing has no game %(n)d.") % {"n": number})
    game, created = Game.objects.get_or_create(
        board=board,
        number=number,
        defaults={
            "event": t.name,
            "phase1_seconds": t.phase1_minutes * 60,
            "phase2_seconds": t.phase2_minutes * 60,
        },
    )
    if created:  # the public pages link to the new game
        from championship.services import bump_versions

        bump_versions(t)
    return game


# --- Results: sheet → board ---------------------------------------------------------------
def _sheet_agrees(eg: EngineGame, entered: tuple[str, str], *, strict: bool) -> bool:
    """Does a result entered on the board agree with the sheet? An undecided sheet agrees while
    it is still being written (``strict`` False), or when the entered organiser termination can
    be applied to it (it then is, on ``eg``)."""
    if not entered[0]:
        return True
    outcome = eg.outcome
    if outcome is not None:
        return (outcome.result, outcome.termination) == entered
    if not strict:
        return True
    return _apply_entered(eg, entered) is not None


def _apply_entered(eg: EngineGame, entered: tuple[str, str]) -> tuple[str, str] | None:
    """Apply an organiser termination entered on the board to an undecided sheet; return the
    (termination, side) stored on the game, or None if the engine gives another result."""
    result, termination = entered
    if termination in ENGINE_TERMINATIONS or not termination:
        return None
    side = ""
    if result in ("1-0", "0-1") and termination in ("resign", "forfeit", "time"):
        side = BLACK if result == "1-0" else WHITE  # the losing side
    if termination == "time" and not side:
        side = eg.state.to_move
    try:
        outcome = eg.terminate(termination, side or None)
    except EngineError:
        return None
    if outcome.result != result:
        eg.terminated = None
        return None
    return termination, side


def _to_board(game: Game, eg: EngineGame, user: Any) -> None:
    """Give the sheet's outcome to the pairing's board (the standings follow)."""
    if game.board is None:
        return
    from championship import services as champ

    board = Board.objects.select_for_update().get(pk=game.board_id)
    game.board = board
    outcome = eg.outcome
    wanted = (outcome.result, outcome.termination) if outcome else ("", "")
    if board_value(game) == wanted:
        return
    kwargs: dict[str, str] = {}
    if game.number == 1:
        kwargs.update(result=wanted[0], termination=wanted[1])
    else:
        kwargs.update(
            result=board.result,
            termination=board.termination,
            result2=wanted[0],
            termination2=wanted[1],
        )
    try:
        champ.result_enter(
            board=board, user=user, expected_version=board.version, from_sheet=True, **kwargs
        )
    except champ.ChampionshipError as exc:
        raise GameError(str(exc)) from None
    game.board.refresh_from_db()


def _lock(game: Game) -> Game:
    locked = (
        # ``of=("self",)``: only the game's row is locked; PostgreSQL refuses FOR UPDATE on the
        # nullable side of the outer join to the board (a friendly game has none).
        Game.objects.select_for_update(of=("self",))
        .select_related("board__round__tournament")
        .get(pk=game.pk)
    )
    if locked.board is not None and locked.board.round.status != Round.Status.PUBLISHED:
        raise GameError(_("Games are recorded once the round is published."))
    return locked


def _touch(game: Game, **fields: Any) -> None:
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1, **fields)
    for key, value in fields.items():
        setattr(game, key, value)
    game.version += 1


def _engine_error(exc: EngineError) -> GameError:
    return GameError(message(exc))


def _reconcile(game: Game, eg: EngineGame, user: Any, *, overrule: bool) -> None:
    """Give the sheet's outcome to the board unless it contradicts a result entered there
    (then the organiser decides: ``overrule`` means the sheet stands)."""
    if not overrule and not _sheet_agrees(eg, board_value(game), strict=False):
        raise ResultConflict(eg.outcome, board_value(game))
    _to_board(game, eg, user)


# --- Turn by turn -------------------------------------------------------------------------
@dataclass
class Clock:
    """The application as the clock, as of ``now``: time left for each side in ms."""

    white_ms: int
    black_ms: int
    running: str | None  # the side whose clock runs, or None
    now: datetime

    def left(self, side: str) -> int:
        return self.white_ms if side == WHITE else self.black_ms


def clock(game: Game, eg: EngineGame, now: datetime | None = None) -> Clock | None:
    if game.clock_white_ms is None or game.clock_black_ms is None:
        return None
    now = now or timezone.now()
    white, black = game.clock_white_ms, game.clock_black_ms
    running = None
    if game.clock_running_since is not None and eg.outcome is None:
        running = eg.state.to_move
        spent = int((now - game.clock_running_since) / timedelta(milliseconds=1))
        if running == WHITE:
            white -= spent
        else:
            black -= spent
    return Clock(max(white, 0), max(black, 0), running, now)


def clock_text(ms: int) -> str:
    seconds = max(ms, 0) // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _flag_if_fallen(game: Game, eg: EngineGame, user: Any, now: datetime) -> bool:
    """If the mover's clock has run out, the game ends on time (§6) and True is returned."""
    c = clock(game, eg, now)
    if c is None or c.running is None or c.left(c.running) > 0:
        return False
    side = c.running
    eg.terminate("time", side)
    _touch(
        game,
        termination="time",
        termination_side=side,
        clock_running_since=None,
        **{f"clock_{side}_ms": 0},
    )
    _to_board(game, eg, user)
    return True


def turn_add(
    *,
    game: Game,
    text: str,
    user: Any,
    expected_ply: int | None = None,
    clock_text_written: str = "",
    overrule: bool = False,
    from_clock: bool = False,
) -> Turn:
    """Validate and record the next turn. With the application as the clock the mover's time
    is taken from the server (not from the browser) and the other side's clock starts."""
    if len(text) > MAX_TURN_CHARS:
        raise GameError(_("A turn is a card and two steps, for example 4:5 24/20 13/8."))
    now = timezone.now()
    with transaction.atomic():
        game = _lock(game)
        turns = list(game.turns.order_by("ply"))
        eg = replay(game, turns)
        if expected_ply is not None and expected_ply != len(turns):
            raise GameError(
                _(
                    "The sheet changed meanwhile: it now has %(n)d turn(s). Check the board "
                    "and enter the turn again."
                )
                % {"n": len(turns)}
            )
        if from_clock and game.clock_running_since is None and eg.outcome is None:
            raise GameError(_("Start the clock first."))
        flagged = _flag_if_fallen(game, eg, user, now)
        if not flagged:
            turn = _record_turn(game, eg, text, user, now, clock_text_written, overrule)
    if flagged:  # committed: the flag stands whatever happens to the turn
        raise GameError(_("The flag fell before the turn: the game ended on time."))
    return turn


def _record_turn(
    game: Game,
    eg: EngineGame,
    text: str,
    user: Any,
    now: datetime,
    clock_text_written: str,
    overrule: bool,
) -> Turn:
    """Play ``text`` on the locked game's sheet and store it with the mover's clock."""
    if game.adjourned:
        raise GameError(_("The game is adjourned: resume it first."))
    before = clock(game, eg, now)
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
    elif written and not _valid_clock(written):
        raise GameError(_("Write the clock as h:mm:ss, for example 0:29:31."))
    played.clock = written or None
    try:
        turn = Turn.objects.create(
            game=game,
            ply=played.ply,
            text=played.text,
            clock=written,
            entered_by=user if getattr(user, "is_authenticated", False) else None,
        )
    except IntegrityError:  # a database without row locks let a parallel turn in first
        raise GameError(
            _("The sheet changed meanwhile. Check the board and enter the turn again.")
        ) from None
    _touch(game, **fields)
    _reconcile(game, eg, user, overrule=overrule)
    return turn


def _valid_clock(text: str) -> bool:
    parts = text.split(":")
    return (
        len(parts) == 3
        and all(p.isdigit() for p in parts)
        and len(parts[1]) == len(parts[2]) == 2
        and int(parts[1]) < 60
        and int(parts[2]) < 60
    )


def turn_undo(*, game: Game, user: Any, expected_ply: int | None = None) -> Turn:
    """Take back the last turn (and an organiser termination after it)."""
    now = timezone.now()
    with transaction.atomic():
        game = _lock(game)
        turns = list(game.turns.order_by("ply"))
        if expected_ply is not None and expected_ply != len(turns):
            raise GameError(
                _("The sheet changed meanwhile: it now has %(n)d turn(s).") % {"n": len(turns)}
            )
        if not turns:
            raise GameError(_("There is no turn to take back."))
        eg = replay(game, turns)
        fields: dict[str, Any] = {"termination": "", "termination_side": "", "adjourned": False}
        stopped = _stopped_clock(game, eg, now)
        if stopped:
            # The time spent so far stays spent; the previous mover's clock runs again.
            fields.update(stopped, clock_running_since=now)
        last = turns[-1]
        last.delete()
        eg = replay(game, turns[:-1], terminations=False)
        _touch(game, **fields)
        _to_board(game, eg, user)
    return last


# --- Whole sheets -------------------------------------------------------------------------
#: A whole game's record is a few kilobytes (72 turns, tags, clocks and comments): a pasted
#: text beyond this is not a record, and is refused before it is read.
MAX_RECORD_BYTES = 64 * 1024
#: The longest turn anyone writes is ``3:6 bar/22* 22/16*`` and a comment; beyond this it is
#: not a turn.
MAX_TURN_CHARS = 200


def _check_record_size(text: str) -> None:
    if len(text) > MAX_RECORD_BYTES or len(text.encode()) > MAX_RECORD_BYTES:
        raise GameError(
            _("This is longer than any game's record (at most %(kb)d KB). Nothing was saved.")
            % {"kb": MAX_RECORD_BYTES // 1024}
        )


def sheet_replace(*, game: Game, text: str, user: Any, overrule: bool = False) -> EngineGame:
    """Replace the sheet by a record (RULES.md §8.3), validated as a whole."""
    _check_record_size(text)
    try:
        record = parse_record(text)
    except EngineError as exc:
        raise _engine_error(exc) from None
    eg = record.game
    with transaction.atomic():
        game = _lock(game)
        entered = board_value(game)
        if not overrule and not _sheet_agrees(eg, entered, strict=True):
            raise ResultConflict(eg.outcome, entered)
        termination = eg.terminated.termination if eg.terminated is not None else ""
        side = termination_side(eg)
        game.turns.all().delete()
        Turn.objects.bulk_create(
            Turn(
                game=game,
                ply=t.ply,
                text=t.text,
                clock=t.clock or "",
                comments=list(t.comments),
                entered_by=user if getattr(user, "is_authenticated", False) else None,
            )
            for t in eg.turns
        )
        fields: dict[str, Any] = {
            "termination": termination,
            "termination_side": side,
            "adjourned": False,
        }
        if game.board is None:
            tags = dict(record.tags)
            if not game.white_name and tags.get("White"):
                fields["white_name"] = tags["White"][:150]
            if not game.black_name and tags.get("Black"):
                fields["black_name"] = tags["Black"][:150]
        _touch(game, **fields)
        _to_board(game, eg, user)
    return eg


def termination_side(eg: EngineGame) -> str:
    """The side an organiser termination concerns (the loser; for a draw on time the mover)."""
    outcome = eg.terminated
    if outcome is None:
        return ""
    if outcome.winner is not None:
        return BLACK if outcome.winner == WHITE else WHITE
    return eg.state.to_move if outcome.termination == "time" else ""


# --- Organiser terminations and adjournment -----------------------------------------------
def game_terminate(
    *, game: Game, termination: str, side: str, user: Any, overrule: bool = False
) -> Outcome:
    """Enter ``time``, ``resign``, ``agreement`` or ``forfeit``; refused when the sheet already
    decides the game (§7)."""
    with transaction.atomic():
        game = _lock(game)
        eg = replay(game)
        if side not in ("", WHITE, BLACK):
            raise GameError(_("Choose White or Black."))
        if termination in ("resign", "forfeit") and not side:
            raise GameError(_("Choose the side that resigned or did not come."))
        stopped = _stopped_clock(game, eg)  # the time spent until now stays spent
        try:
            outcome = eg.terminate(termination, side or None)
        except EngineError as exc:
            raise _engine_error(exc) from None
        _touch(
            game,
            termination=termination,
            termination_side=termination_side(eg),
            adjourned=False,
            clock_running_since=None,
            **stopped,
        )
        _reconcile(game, eg, user, overrule=overrule)
    return outcome


def _stopped_clock(game: Game, eg: EngineGame, now: datetime | None = None) -> dict[str, int]:
    """The running side's time left, to store when its clock stops ({} if none runs)."""
    c = clock(game, eg, now)
    if c is None or c.running is None:
        return {}
    return {f"clock_{c.running}_ms": c.left(c.running)}


def game_adjourn(*, game: Game, user: Any) -> None:
    with transaction.atomic():
        game = _lock(game)
        eg = replay(game)
        try:
            eg.adjourn()
        except EngineError as exc:
            raise _engine_error(exc) from None
        _touch(game, adjourned=True, clock_running_since=None)


def game_resume(*, game: Game, user: Any) -> None:
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
def clock_start(*, game: Game, user: Any) -> None:
    """Start (or restart after a pause) the clock of the side to move."""
    with transaction.atomic():
        game = _lock(game)
        eg = replay(game)
        if eg.outcome is not None:
            raise GameError(_("The game is over."))
        if game.adjourned:
            raise GameError(_("The game is adjourned: resume it first."))
        if game.clock_running_since is not None:
            return
        fields: dict[str, Any] = {"clock_running_since": timezone.now()}
        if game.clock_white_ms is None:
            seconds = game.phase1_seconds if eg.state.phase == 1 else game.phase2_seconds
            fields.update(clock_white_ms=seconds * 1000, clock_black_ms=seconds * 1000)
        _touch(game, **fields)


def clock_pause(*, game: Game, user: Any) -> None:
    with transaction.atomic():
        game = _lock(game)
        eg = replay(game)
        if _flag_if_fallen(game, eg, user, timezone.now()):
            return
        fields = _stopped_clock(game, eg)
        _touch(game, clock_running_since=None, **fields)


def clock_settle(*, game: Game, user: Any = None) -> bool:
    """End the game on time if the running clock has run out (the server's time decides).
    Called whenever the clock is looked at; True if a flag fell now."""
    if game.clock_running_since is None:
        return False
    with transaction.atomic():
        game = _lock(game)
        eg = replay(game)
        if eg.outcome is not None:
            return False
        return _flag_if_fallen(game, eg, user, timezone.now())


# --- Result entered on the board → sheet --------------------------------------------------
def check_board_result(board: Any, number: int, result: str, termination: str) -> None:
    """Called when an organiser enters a pairing's result directly: a sheet that decides the
    game must agree; on an undecided sheet an organiser termination is recorded on the game.
    Raises GameError if the sheet says otherwise."""
    game = Game.objects.filter(board=board, number=number).first()
    if game is None:
        return
    turns = list(game.turns.order_by("ply"))
    if not turns and not game.termination:
        return
    eg = replay(game, turns, terminations=False)
    if eg.outcome is not None:
        if (eg.outcome.result, eg.outcome.termination) != (result, termination):
            raise GameError(
                _("The sheet of this game decides it: %(sheet)s. Correct the sheet instead.")
                % {"sheet": describe_outcome(eg.outcome)}
            )
        return
    if not result:
        _touch(game, termination="", termination_side="")
        return
    applied = _apply_entered(eg, (result, termination))
    if applied is None:
        raise GameError(
            _("The sheet of this game (%(n)d turns) does not allow %(entered)s.")
            % {"n": len(turns), "entered": describe(result, termination)}
        )
    _touch(
        game,
        termination=applied[0],
        termination_side=applied[1],
        adjourned=False,
        clock_running_since=None,
    )
