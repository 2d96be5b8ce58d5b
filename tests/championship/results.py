"""Entering results in tests, through the one write door (``game_result_set``)."""

from __future__ import annotations

from typing import Any

from championship import services
from championship.models import Board, GameResult


def enter(
    board: Board,
    result: str,
    termination: str,
    *,
    game: int = 1,
    user: Any = None,
    expected: int | None = None,
) -> list[GameResult]:
    """Game ``game`` of ``board``'s result, as an organiser enters it."""
    board = Board.objects.select_related("round__tournament").get(pk=board.pk)
    return services.game_result_set(
        entries=[services.ResultEntry(board, game, result, termination, expected)], user=user
    )


def result_of(board: Board, game: int = 1) -> GameResult:
    return GameResult.objects.get(board=board, number=game)


def value(board: Board, game: int = 1) -> tuple[str, str]:
    """(result, termination) of a game of a pairing."""
    row = GameResult.objects.filter(board=board, number=game).values_list("result", "termination")
    return row.first() or ("", "")
