"""Writes of the championship app, one module a topic: entrants, rounds, results, and the one
place that makes public pages new (changes). Each is a transaction; user errors are
``ChampionshipError`` with a clear, translated message."""

from .changes import tournament_changed
from .entrants import entrant_add, entrant_withdraw, entrants_import_registrations
from .errors import ChampionshipError
from .results import (
    ConcurrentEdit,
    ResultConflict,
    ResultEntry,
    ResultsRefused,
    describe,
    game_result_players_confirm,
    game_result_set,
    game_result_sheet_removed,
    game_result_sheet_set,
    game_results_confirm,
)
from .rounds import (
    board_swap_colours,
    boards_swap_players,
    boards_without_results,
    edit_warnings,
    round_delete_draft,
    round_pair_next,
    round_publish,
)

__all__ = [
    "ChampionshipError",
    "ConcurrentEdit",
    "ResultConflict",
    "ResultEntry",
    "ResultsRefused",
    "board_swap_colours",
    "boards_swap_players",
    "boards_without_results",
    "describe",
    "edit_warnings",
    "entrant_add",
    "entrant_withdraw",
    "entrants_import_registrations",
    "game_result_players_confirm",
    "game_result_set",
    "game_result_sheet_removed",
    "game_result_sheet_set",
    "game_results_confirm",
    "round_delete_draft",
    "round_pair_next",
    "round_publish",
    "tournament_changed",
]
