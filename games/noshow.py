"""No-shows in the hall and the round's progress (issue 22, points 4 and 7).

At the round's start (``championship.services.round_began``: its scheduled start, or its
publication when the schedule has none) plus the tournament's ``no_show_minutes``, the hall
proposes a forfeit for every board none of whose games has started: a game at a tablet whose
clock has not started (no turn, no termination), or a board without a sheet and without a
result. Only boards not decided yet (``NoShow``) are proposed. The arbiter confirms with one tap
(who did not come) or dismisses (``board_no_show_confirm``, ``championship.services``).

The round's progress counts its games: finished (with a result; ``confirmed`` those whose
result is confirmed), in play, not started; and the time since the round began."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from championship import services as championship
from championship.models import Board, NoShow, Round
from common.types import Actor

from .hall import HallGame
from .models import Game, Turn
from .services import GameError


def not_started(item: HallGame) -> bool:
    """Has this game of a pairing not started at all? (No result; at a tablet: the clock never
    started and nothing on the sheet; on paper: no sheet either.)"""
    row, game = item.result, item.game
    if row is not None and row.result:
        return False
    if game is None:
        return row is None or not row.has_sheet
    return (
        item.ply == 0
        and game.clock_white_ms is None
        and not game.termination
        and not game.adjourned
        and item.outcome is None
    )


@dataclass(frozen=True)
class Proposal:
    """A board the hall proposes as a no-show."""

    board: Board
    white: str
    black: str

    def as_json(self) -> dict[str, Any]:
        return {"board": self.board.number, "id": self.board.pk}


def due(rnd: Round, began: datetime | None) -> datetime | None:
    """When the hall starts proposing no-shows for ``rnd`` (None: never, a draft)."""
    if began is None:
        return None
    return began + timedelta(minutes=rnd.tournament.no_show_minutes)


def decided_boards(rnd: Round) -> dict[int, str]:
    """Board id → the arbiter's decision, for the round's boards decided (one query)."""
    return dict(NoShow.objects.filter(board__round=rnd).values_list("board_id", "decision"))


def proposals(
    items: list[HallGame], *, decided: dict[int, str], due_at: datetime | None, now: datetime
) -> list[Proposal]:
    """The boards to propose now: due, undecided, none of their games started."""
    if due_at is None or now < due_at:
        return []
    by_board: dict[int, list[HallGame]] = {}
    for item in items:
        by_board.setdefault(item.board.pk, []).append(item)
    out = []
    for board_id, games in by_board.items():
        if board_id in decided or not all(not_started(g) for g in games):
            continue
        board = games[0].board
        out.append(Proposal(board=board, white=str(board.white), black=str(board.black)))
    return sorted(out, key=lambda p: p.board.number)


def board_no_show_confirm(
    *, board: Board, absent: str, user: Actor, now: datetime | None = None
) -> tuple[NoShow, bool]:
    """The arbiter confirms a no-show from the hall: with the board's games locked (a tablet
    starting its clock waits, or goes first and the forfeit is refused), the games are checked
    not started, then the championship records the forfeit and the absences. Idempotent: a
    board decided already changes nothing (False)."""
    with transaction.atomic():
        decided = NoShow.objects.filter(board=board).first()
        if decided is not None:
            return decided, False
        games = list(Game.objects.select_for_update().filter(board=board))
        for game in games:
            started = (
                game.clock_white_ms is not None
                or game.termination
                or game.adjourned
                or Turn.objects.filter(game=game).exists()
            )
            if started:
                raise GameError(
                    _("Board %(n)d has started meanwhile: nothing was recorded.")
                    % {"n": board.number}
                )
        try:
            return championship.board_no_show_forfeit(
                board=board, absent=absent, user=user, now=now
            )
        except championship.ChampionshipError as exc:
            raise GameError(str(exc)) from None


@dataclass(frozen=True)
class Progress:
    """A round's games by state, and since when it runs (until it is over)."""

    total: int
    finished: int
    confirmed: int
    playing: int
    waiting: int
    began: datetime | None
    #: Every game of the round is over, or the tournament is finished: the round runs no more.
    over: bool = False

    def running_for(self, now: datetime) -> timedelta | None:
        """How long the round has run (None before it began, and once it is over)."""
        if self.over or self.began is None or now < self.began:
            return None
        return now - self.began

    def as_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "finished": self.finished,
            "confirmed": self.confirmed,
            "playing": self.playing,
            "waiting": self.waiting,
            "began": int(self.began.timestamp() * 1000) if self.began else None,
            "over": self.over,
        }


def progress(items: list[HallGame], began: datetime | None, *, frozen: bool = False) -> Progress:
    """``frozen``: the tournament is finished (its rounds are over whatever their games say)."""
    finished = [i for i in items if i.state == "over"]
    return Progress(
        total=len(items),
        finished=len(finished),
        confirmed=sum(1 for i in finished if i.result is not None and i.result.confirmed),
        playing=sum(1 for i in items if i.state in ("playing", "adjourned")),
        waiting=sum(1 for i in items if i.state == "waiting"),
        began=began,
        over=frozen or (bool(items) and len(finished) == len(items)),
    )
