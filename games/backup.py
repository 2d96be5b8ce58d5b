"""The move sheets' part of a tournament backup (championship.backup calls these through its
board sections; a sheet travels with its board)."""

from __future__ import annotations

from typing import Any

from championship.backup import BoardSection, row_of
from championship.models import Board, Tournament

from . import openings, selectors
from .models import Game, Turn

GAME_FIELDS = [
    "number",
    "event",
    "white_name",
    "black_name",
    "phase1_seconds",
    "phase2_seconds",
    "termination",
    "termination_side",
    "adjourned",
    "clock_white_ms",
    "clock_black_ms",
    "clock_running_since",
    "version",
    "created_at",
]
TURN_FIELDS = ["ply", "text", "clock", "comments", "entered_at"]


def export(t: Tournament) -> dict[int, Any]:
    """Board id → its games with their turns and who entered them."""
    out: dict[int, list[dict[str, Any]]] = {}
    games = (
        Game.objects.filter(board__round__tournament=t)
        .order_by("board_id", "number")
        .prefetch_related("turns__entered_by")
    )
    for g in games:
        out.setdefault(g.board_id, []).append(
            {
                **row_of(g, GAME_FIELDS),
                "turns": [
                    {
                        **row_of(turn, TURN_FIELDS),
                        "entered_by": turn.entered_by.get_username() if turn.entered_by else None,
                    }
                    for turn in sorted(g.turns.all(), key=lambda turn: turn.ply)
                ],
            }
        )
    return out


def restore(board: Board, games: list[dict[str, Any]], users: dict[str, Any]) -> None:
    for data in games:
        fields = {k: data[k] for k in GAME_FIELDS}
        created_at = fields.pop("created_at")
        game = Game.objects.create(board=board, **fields)
        Game.objects.filter(pk=game.pk).update(created_at=created_at)
        Turn.objects.bulk_create(
            Turn(
                game=game,
                entered_by=users.get(t["entered_by"]),
                **{k: t[k] for k in TURN_FIELDS if k != "entered_at"},
            )
            for t in data["turns"]
        )
        for t in data["turns"]:
            Turn.objects.filter(game=game, ply=t["ply"]).update(entered_at=t["entered_at"])
        # A damaged sheet is refused here (EngineError, a ValueError: the restore says the
        # backup is damaged and keeps nothing), not stored to fail every page that replays it.
        eg = selectors.sheet(game)
        if data["turns"]:  # the opening explorer knows the restored game (derived, not saved)
            openings.sheet_changed(game, eg)


SECTION = BoardSection(key="games", export=export, restore=restore)
