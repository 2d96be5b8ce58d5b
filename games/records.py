"""Game records (RULES.md §8.3) of stored games, for downloads."""

from __future__ import annotations

from .engine.game import Game as EngineGame
from .engine.record import format_record
from .models import Game, Turn
from .selectors import names, replay


def tags(game: Game) -> list[tuple[str, str]]:
    white, black = names(game)
    board = game.board
    if board is not None:
        rnd = board.round
        t = rnd.tournament
        day = (rnd.published_at or rnd.created_at).date()
        event, site = t.name, t.venue
        round_tag = f"{rnd.number}.{board.number}" + (f".{game.number}" if game.number > 1 else "")
    else:
        day = game.created_at.date()
        event, site, round_tag = game.event, "", "-"
    return [
        ("Event", event or "-"),
        ("Site", site or "-"),
        ("Date", day.strftime("%Y.%m.%d")),
        ("Round", round_tag),
        ("White", white),
        ("Black", black),
        ("TimeControl", f"{game.phase1_seconds}/{game.phase2_seconds}"),
        ("Result", "*"),
    ]


def game_record(game: Game, turns: list[Turn], eg: EngineGame | None = None) -> str:
    """The canonical record of a stored game; Result and Termination follow the sheet
    (``eg``: the sheet already replayed)."""
    return format_record(tags(game), eg or replay(game, turns))
