"""Reads of the games app: a sheet replayed through the engine, the names and entrants of a
game, its clock now, and what its sheet says for the championship."""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime

from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from championship.models import Entrant, GameResult, Round, Tournament
from championship.services import describe

from .clock import Clock, StoredClock, clock_at
from .engine import BLACK, WHITE, EngineError
from .engine.core import SideName
from .engine.game import Game as EngineGame
from .engine.vocabulary import ENGINE_TERMINATIONS, Result, Termination
from .models import Game, GameAnalysis, Turn


def turns_of(game: Game) -> list[Turn]:
    return list(game.turns.order_by("ply"))


def turns_of_games(games: list[Game]) -> dict[int, list[Turn]]:
    """The turns of each of ``games`` in ply order, in one query (the hall and the multiboard
    replay the games missing from their cache this way)."""
    turns: dict[int, list[Turn]] = {g.pk: [] for g in games}
    for turn in Turn.objects.filter(game__in=list(turns)).order_by("game", "ply"):
        turns[turn.game_id].append(turn)
    return turns


def sheet(game: Game, turns: list[Turn] | None = None, *, terminations: bool = True) -> EngineGame:
    """The engine's game for the sheet alone (``turns`` in ply order; read if not given): its
    moves and, with ``terminations``, a termination recorded on it and an adjournment."""
    if turns is None:
        turns = turns_of(game)
    eg = played_turns(turns)
    if terminations:
        if game.termination:
            terminate_stored(eg, game.termination, game.termination_side)
        elif game.adjourned and eg.can_adjourn:
            eg.adjourned = True
    return eg


# The sheets replayed lately in this process, by their turns as stored (each turn's text,
# clock and comments), least recently used first. The replay is a function of these alone,
# so a sheet seen again — the tablet's page after its turn, the multiboard, a game's page,
# the next poll — is a copy of the one kept, and a sheet a few turns longer (the next turn,
# wherever it is looked at first) plays only those turns on a copy (docs/
# performance.md, "The hall"). Nothing can make a kept replay stale: the key is its input.
_PLAYED: OrderedDict[tuple[tuple[str, str | None, tuple[str, ...]], ...], EngineGame] = (
    OrderedDict()
)
_PLAYED_LOCK = threading.Lock()
#: How many sheets each process keeps (a round of 30 boards, each a turn or two back), and
#: how many turns back a kept one is looked for.
PLAYED_KEPT = 128
PLAYED_BACK = 10


def played_turns(turns: list[Turn]) -> EngineGame:
    """The engine's game after ``turns`` (in ply order) from the start; raises EngineError
    (as the engine does) if one of them is not legal. The caller's to change."""
    key = tuple((t.text, t.clock or None, tuple(t.comments or ())) for t in turns)
    found, done = None, 0
    with _PLAYED_LOCK:
        for n in range(len(key), max(len(key) - PLAYED_BACK, 0) - 1, -1):
            found = _PLAYED.get(key[:n])
            if found is not None:
                _PLAYED.move_to_end(key[:n])
                done = n
                break
    eg = found.copy() if found is not None else EngineGame()
    for t in turns[done:]:
        played = eg.play(t.text, clock=t.clock or None)
        played.comments.extend(t.comments or [])
    if done < len(key) or found is None:
        kept = eg.copy()
        with _PLAYED_LOCK:
            _PLAYED[key] = kept
            while len(_PLAYED) > PLAYED_KEPT:
                _PLAYED.popitem(last=False)
    return eg


def terminate_stored(eg: EngineGame, termination: str, side: str) -> None:
    """Apply a termination as the sheet stores it (``Game.termination`` and the side it
    concerns): a forfeit without a side is a double forfeit, an adjudication without one a
    draw."""
    concerned = side_name(side)
    result = None
    if concerned is None and termination == Termination.FORFEIT:
        result = Result.DOUBLE_FORFEIT.value
    elif concerned is None and termination == Termination.ADJUDICATION:
        result = Result.DRAW.value
    eg.terminate(termination, concerned, result=result)


def side_name(value: str) -> SideName | None:
    """A stored side ("white", "black" or empty) as the engine names it."""
    return WHITE if value == WHITE else BLACK if value == BLACK else None


def turn_reads() -> dict[str, Subquery]:
    """What a turn reads after its game's lock, as annotations of the lock's statement (each a
    round trip to the database of its own otherwise; docs/performance.md, "The hall"): the
    result entered by hand (``entered_result``), whether a later round is paired
    (``tablet_round_refusal``) and whether the game has an analysis
    (``analysis.sheet_changed``); the first two are ``link_reads``, which the tablet's page and
    its state read with the game.

    Each is read once: the first of those functions to ask takes it off the game (``taken``),
    and any later question in the transaction, after its writes, reads the database. Read with
    the lock (as the statement began, before any wait for it) is as good as read after it: an
    analysis is made under the game's lock and only of a finished game, on which no turn is
    played, so one made while the turn waited is of a game the turn then refuses; the entered
    result and the later rounds are not kept by the game's lock either way (the championship
    checks the result again under its own)."""
    return {
        **link_reads(),
        "read_analysis": Exists(GameAnalysis.objects.filter(game_id=OuterRef("pk"))),
    }


def link_reads() -> dict[str, Subquery]:
    """What the tablet's link reads with its game (``turn_reads``): the result entered by hand
    and whether a later round is paired."""
    entered = GameResult.objects.filter(
        board_id=OuterRef("board_id"), number=OuterRef("number")
    ).order_by()  # one row, no join for the default order
    later = Round.objects.filter(
        tournament_id=OuterRef("board__round__tournament_id"),
        number__gt=OuterRef("board__round__number"),
    )
    return {
        **{f"read_entered_{f}": Subquery(entered.values(f)[:1]) for f in _ENTERED},
        "read_later_round": Exists(later),
    }


_ENTERED = ("result", "termination", "source")


def taken(game: Game, name: str) -> str | bool | None:
    """What ``turn_reads`` read along with the game under ``name``, taken off it (None: not
    read, taken already, or nothing there to read; a text or a yes or no)."""
    value = game.__dict__.pop(f"read_{name}", None)
    return value if isinstance(value, str | bool) else None


def entered_result(game: Game) -> tuple[str, str] | None:
    """The result an organiser entered by hand for this game of a pairing, if any."""
    if game.board_id is None:
        return None
    row: tuple[str | bool | None, ...] | None
    if f"read_entered_{_ENTERED[0]}" in game.__dict__:  # read with the game (link_reads)
        row = tuple(taken(game, f"entered_{f}") for f in _ENTERED)
    else:
        row = (
            GameResult.objects.filter(board_id=game.board_id, number=game.number)
            .values_list(*_ENTERED)
            .first()
        )
    if row is None or not row[0] or row[2] != GameResult.Source.ORGANISER:
        return None
    return str(row[0]), str(row[1] or "")


def apply_entered(eg: EngineGame, entered: tuple[str, str]) -> bool:
    """End an undecided game by a result entered by hand (its termination applied to the
    losing side, or for a draw on time the side to move); False if the engine cannot."""
    result, termination = entered
    if eg.outcome is not None or termination in ENGINE_TERMINATIONS or not termination:
        return False
    side: SideName | None = None
    if result in ("1-0", "0-1") and termination != Termination.AGREEMENT:
        side = BLACK if result == "1-0" else WHITE  # the losing side
    if termination == Termination.TIME and side is None:
        side = eg.state.to_move
    decided = termination in (Termination.ADJUDICATION, Termination.FORFEIT)
    try:
        outcome = eg.terminate(termination, side, result=result if decided else None)
    except EngineError:
        return False
    if outcome.result != result:
        eg.terminated = None
        return False
    return True


def replay(game: Game, turns: list[Turn] | None = None, *, terminations: bool = True) -> EngineGame:
    """The game as the pages show it: its sheet, and, on an undecided sheet of a pairing, the
    result an organiser entered by hand (so that the game is over and shows it)."""
    eg = sheet(game, turns, terminations=terminations)
    if terminations and eg.outcome is None and (entered := entered_result(game)) is not None:
        apply_entered(eg, entered)
    return eg


def sheet_facts(eg: EngineGame) -> tuple[int, tuple[str, str] | None]:
    """What a sheet says for its pairing's result: its turns, and the result its moves or a
    termination recorded on it decide (None while undecided)."""
    outcome = eg.outcome
    return eg.ply, (outcome.result, outcome.termination) if outcome is not None else None


def names(game: Game) -> tuple[str, str]:
    """White's and Black's names in this game (game 2 of a pairing has the colours reversed)."""
    board = game.board
    if board is None:
        return game.white_name or _("White"), game.black_name or _("Black")
    first, second = str(board.white), str(board.black) if board.black_id else "—"
    return (first, second) if game.number == 1 else (second, first)


def entrants(game: Game) -> tuple[Entrant | None, Entrant | None]:
    board = game.board
    if board is None:
        return None, None
    return (board.white, board.black) if game.number == 1 else (board.black, board.white)


def stored_clock(game: Game) -> StoredClock:
    return StoredClock(game.clock_white_ms, game.clock_black_ms, game.clock_running_since)


def clock(game: Game, eg: EngineGame, now: datetime | None = None) -> Clock | None:
    """The game's clock at ``now`` (default: the present)."""
    return clock_at(
        stored_clock(game),
        to_move=eg.state.to_move,
        over=eg.outcome is not None,
        now=now or timezone.now(),
    )


# --- The board's tablet --------------------------------------------------------------------
def result_key(eg: EngineGame) -> str:
    """The game's result as the players confirm it (``1-0 resign``), empty while it goes on."""
    outcome = eg.outcome
    return f"{outcome.result} {outcome.termination}" if outcome is not None else ""


def confirmed_by(game: Game, key: str) -> dict[str, bool]:
    """Which sides have confirmed the result ``key`` at the tablet."""
    return {
        WHITE: bool(key) and game.white_confirmed == key,
        BLACK: bool(key) and game.black_confirmed == key,
    }


def round_closed(rnd: Round) -> bool:
    """A round is closed once the next one is paired (all its results are in) or the
    tournament is over: its tablets' links stop working."""
    if rnd.tournament.status == Tournament.Status.FINISHED:
        return True
    return Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number).exists()


def tablet_round_refusal(game: Game) -> str | None:
    """The part of ``tablet_refusal`` that needs no replay of the sheet: the link is for a
    pairing's game of a published round that is not closed (None: it is)."""
    board = game.board
    if board is None:
        return _("This link is for a game of a tournament.")
    if board.round.status != Round.Status.PUBLISHED:
        return _("This round is not published yet.")
    if board.round.tournament.status == Tournament.Status.FINISHED:
        return _("The tournament is finished: this link no longer works.")
    later = taken(game, "later_round")
    if later if later is not None else round_closed(board.round):
        return _("Round %(n)d is closed: this link no longer works.") % {"n": board.round.number}
    return None


def tablet_refusal(game: Game, eg: EngineGame) -> str | None:
    """Why the tablet link of this game no longer works (None: it works). It works for a
    pairing's game of a published round that is not closed, until the game is over and both
    players have confirmed the result (or one disputed it, or an organiser entered it)."""
    return tablet_round_refusal(game) or tablet_game_refusal(game, eg)


def tablet_game_refusal(game: Game, eg: EngineGame) -> str | None:
    """The part of ``tablet_refusal`` that needs the replay of the sheet (its round checked
    already): the game is over and its result confirmed, disputed or entered by hand."""
    key = result_key(eg)
    if not key:
        return None
    if game.disputed:
        return _("A player did not agree with the result of this game: the arbiter decides.")
    if all(confirmed_by(game, key).values()) or entered_result(game) is not None:
        outcome = eg.outcome
        assert outcome is not None
        return _("This game is finished: %(result)s.") % {
            "result": describe(outcome.result, outcome.termination)
        }
    return None


def page_key(pk: int) -> tuple[int, int | None, str, str, int] | None:
    """What a kept public game page's key needs, in one query: the game's version, its
    tournament's version (None for a friendly game), its analysis' moves and status ("-" if
    none; a change of the moves deletes the analysis of others, and makes a new version), its
    round's status ("" for a friendly game) and its tournament's spectators' delay in minutes
    (``games.delay``). None if there is no such game."""
    row = (
        Game.objects.filter(pk=pk)
        .values_list(
            "version",
            "board__round__tournament__version",
            "analysis__moves",
            "analysis__status",
            "board__round__status",
            "board__round__tournament__spectator_delay_minutes",
        )
        .first()
    )
    if row is None:
        return None
    version, tournament, analysed, status, round_status, minutes = row
    stamp = f"{analysed[:12]}.{status}" if analysed and status else "-"
    return version, tournament, stamp, round_status or "", minutes or 0
