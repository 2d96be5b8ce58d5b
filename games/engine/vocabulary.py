"""The words of a finished game (RULES.md §7): its result and how it ended. Owned here, by
the engine, and used by every app that stores or shows a result."""

from __future__ import annotations

from enum import StrEnum


class Result(StrEnum):
    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    #: A double forfeit: neither player came, both lose and the game was not played (the
    #: termination is ``forfeit``; PGN and chess-results write it ``0-0``).
    DOUBLE_FORFEIT = "0-0"
    UNFINISHED = "*"


class Termination(StrEnum):
    HOME = "home"  # §5: all fifteen checkers home
    BLOCKED = "blocked"  # §4: no playable card at the start of a turn
    TIME = "time"  # §6: a flag fell (phase 1 a loss, phase 2 a draw)
    CARDS = "cards"  # §6: phase 2 over with no winner
    RESIGN = "resign"
    AGREEMENT = "agreement"
    FORFEIT = "forfeit"  # the game was not played (one side absent, or both: ``0-0``)
    ADJUDICATION = "adjudication"  # the arbiter decided the result of an unfinished game


#: Terminations that follow from the moves alone (the engine detects them).
ENGINE_TERMINATIONS = frozenset({Termination.HOME, Termination.BLOCKED, Termination.CARDS})
#: Terminations an organiser enters, allowed only while the game is undecided.
ORGANISER_TERMINATIONS = frozenset(set(Termination) - ENGINE_TERMINATIONS)
#: Terminations that end a game in a draw / in a win, whatever the position.
DRAWING_TERMINATIONS = frozenset({Termination.CARDS, Termination.AGREEMENT})
WINNING_TERMINATIONS = frozenset(
    {Termination.HOME, Termination.BLOCKED, Termination.RESIGN, Termination.FORFEIT}
)
#: The results of a finished game.
FINISHED = (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW, Result.DOUBLE_FORFEIT)
#: Terminations after which the game was not played over the board (for pairing and
#: tie-breaks it is not a played game).
UNPLAYED_TERMINATIONS = frozenset({Termination.FORFEIT})


def consistent(result: str, termination: str) -> bool:
    """Can a game end with ``result`` by ``termination``? (``time`` can be either: a loss in
    phase 1, a draw in phase 2; an arbiter's ``adjudication`` any of win, loss or draw; only a
    ``forfeit`` can lose for both.)"""
    if result not in FINISHED or termination not in set(Termination):
        return False
    if result == Result.DOUBLE_FORFEIT:
        return termination == Termination.FORFEIT
    if termination in DRAWING_TERMINATIONS:
        return result == Result.DRAW
    if termination in WINNING_TERMINATIONS:
        return result != Result.DRAW
    return True
