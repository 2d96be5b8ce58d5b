"""Reads for a round in the hall: every board's game as the arbiter watches it (players, ply,
whose turn, clocks, a fallen flag, the result and its confirmation, the sheet's problems).

The number of queries does not grow with the boards: the round's boards, games and results are
read in one query each, and each game's replay summary (ply, side to move, outcome) is cached by
the game's version and its result's version, so only games that changed since are replayed,
with their turns read in one query."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from championship.models import Board, GameResult, Round
from championship.services import describe

from . import selectors
from .clock import clock_at, clock_text
from .engine import BLACK, WHITE
from .messages import SIDE_NAMES
from .models import Game

#: A game's state in the hall, in words.
STATES = {
    "over": gettext_lazy("over"),
    "playing": gettext_lazy("playing"),
    "adjourned": gettext_lazy("adjourned"),
    "waiting": gettext_lazy("not started"),
}
#: How long a game's replay summary stays cached (it is keyed by version: never stale).
SUMMARY_SECONDS = 6 * 3600


@dataclass
class HallGame:
    """One game of a pairing as the hall view shows it."""

    board: Board
    number: int
    white: str
    black: str
    game: Game | None = None
    result: GameResult | None = None
    ply: int = 0
    to_move: str = WHITE
    outcome: tuple[str, str] | None = None
    white_ms: int | None = None
    black_ms: int | None = None
    running: str | None = None
    fallen: str | None = None
    players_confirmed: dict[str, bool] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def attention(self) -> bool:
        """Does this board need the arbiter (a problem, or a result to confirm)?"""
        return bool(self.problems)

    @property
    def state(self) -> str:
        if self.result is not None and self.result.result:
            return "over"
        if self.outcome is not None:
            return "over"
        if self.game is None or (self.ply == 0 and self.white_ms is None):
            return "waiting"
        if self.game.adjourned:
            return "adjourned"
        return "playing"


def _summary_key(game: Game, result: GameResult | None) -> str:
    return f"hall:g{game.pk}:v{game.version}:r{result.version if result else '-'}"


def _summaries(games: list[Game], results: dict[tuple[int, int], GameResult]) -> dict[int, Any]:
    """Each game's (ply, side to move, outcome), from the cache or replayed (turns of all the
    games missing from the cache in one query)."""
    keys = {g.pk: _summary_key(g, results.get((g.board_id or 0, g.number))) for g in games}
    cached = cache.get_many(list(keys.values()))
    out = {pk: cached[key] for pk, key in keys.items() if key in cached}
    missing = [g for g in games if g.pk not in out]
    if missing:
        turns = selectors.turns_of_games(missing)
        fresh = {}
        for g in missing:
            eg = selectors.sheet(g, turns[g.pk])
            row = results.get((g.board_id or 0, g.number))
            by_hand = row is not None and row.result and row.source == GameResult.Source.ORGANISER
            if eg.outcome is None and row is not None and by_hand:
                selectors.apply_entered(eg, (row.result, row.termination))
            outcome = eg.outcome
            summary = {
                "ply": eg.ply,
                "to_move": eg.state.to_move,
                "outcome": (outcome.result, outcome.termination) if outcome else None,
            }
            out[g.pk] = summary
            fresh[keys[g.pk]] = summary
        cache.set_many(fresh, SUMMARY_SECONDS)
    return out


def round_rows(rnd: Round) -> tuple[list[Game], dict[tuple[int, int], GameResult], list[Board]]:
    """The round's boards (players), games and results: three queries."""
    boards = list(
        rnd.boards.exclude(black=None).select_related("white", "black").order_by("number")
    )
    games = list(Game.objects.filter(board__round=rnd))
    results = {(r.board_id, r.number): r for r in GameResult.objects.filter(board__round=rnd)}
    return games, results, boards


def etag(
    rnd: Round, games: list[Game], results: dict[tuple[int, int], GameResult], extra: str = ""
) -> str:
    """Changes whenever anything the hall view shows changes (a game, a result, a name, and
    ``extra``: the no-shows' state)."""
    digest = hashlib.blake2b(digest_size=10)
    digest.update(f"{rnd.tournament.version}:{rnd.pk}:{extra}".encode())
    for g in sorted(games, key=lambda g: g.pk):
        digest.update(f"g{g.pk}.{g.version}".encode())
    for key in sorted(results):
        digest.update(f"r{results[key].pk}.{results[key].version}".encode())
    return f'"{digest.hexdigest()}"'


def hall_games(
    rnd: Round,
    rows: tuple[list[Game], dict[tuple[int, int], GameResult], list[Board]] | None = None,
    now: datetime | None = None,
) -> list[HallGame]:
    """Every game of the round's pairings, the ones needing the arbiter first."""
    games, results, boards = rows or round_rows(rnd)
    now = now or timezone.now()
    by_board = {(g.board_id, g.number): g for g in games}
    summaries = _summaries(games, results)
    out = []
    for board in boards:
        board.round = rnd
        for number in range(1, rnd.tournament.games_per_pairing + 1):
            first, second = str(board.white), str(board.black)
            white, black = (first, second) if number == 1 else (second, first)
            item = HallGame(board=board, number=number, white=white, black=black)
            item.game = by_board.get((board.pk, number))
            item.result = results.get((board.pk, number))
            if item.game is not None:
                _fill(item, item.game, summaries[item.game.pk], now)
            _problems(item)
            out.append(item)
    order = {"over": 2, "playing": 1, "adjourned": 1, "waiting": 1}
    out.sort(key=lambda i: (not i.attention, order[i.state], i.board.number, i.number))
    return out


def _fill(item: HallGame, game: Game, summary: dict[str, Any], now: datetime) -> None:
    item.ply = summary["ply"]
    item.to_move = summary["to_move"]
    item.outcome = tuple(summary["outcome"]) if summary["outcome"] else None  # type: ignore[assignment]
    clock = clock_at(
        selectors.stored_clock(game), to_move=item.to_move, over=item.outcome is not None, now=now
    )
    if clock is not None:
        item.white_ms, item.black_ms, item.running = clock.white_ms, clock.black_ms, clock.running
        item.fallen = clock.fallen
    if game.termination == "time":
        item.fallen = game.termination_side or None
    key = f"{item.outcome[0]} {item.outcome[1]}" if item.outcome else ""
    item.players_confirmed = selectors.confirmed_by(game, key)


def _problems(item: HallGame) -> None:
    game, row = item.game, item.result
    if game is not None and game.disputed:
        side = SIDE_NAMES.get(game.disputed_by, "")
        item.problems.append(
            _("%(side)s does not agree with the result %(result)s.")
            % {"side": side or _("A player"), "result": describe(*_split(game.disputed))}
        )
    if item.fallen and item.state != "over":
        item.problems.append(
            _("The flag has fallen: %(side)s.") % {"side": SIDE_NAMES[item.fallen]}
        )
    if (
        row is not None
        and row.has_sheet
        and row.result
        and row.sheet_result
        and (row.result, row.termination) != (row.sheet_result, row.sheet_termination)
    ):
        item.problems.append(
            _("The result entered (%(entered)s) differs from the sheet's (%(sheet)s).")
            % {
                "entered": describe(row.result, row.termination),
                "sheet": describe(row.sheet_result, row.sheet_termination),
            }
        )
    if row is not None and row.result and not row.confirmed:
        item.problems.append(_("The result waits for a confirmation."))


def _split(key: str) -> tuple[str, str]:
    result, _space, termination = key.partition(" ")
    return result, termination


def as_json(item: HallGame) -> dict[str, Any]:
    """One game for the hall view's script (texts in the organiser's language)."""
    game, row = item.game, item.result
    result = ""
    if row is not None and row.result:
        result = describe(row.result, row.termination)
    elif item.outcome is not None:
        result = describe(*item.outcome)
    if row is not None and row.result and row.confirmed:
        confirmation = _("confirmed")
    elif row is not None and row.result:
        confirmation = _("not confirmed yet")
    else:
        confirmation = ""
    players = [SIDE_NAMES[s] for s in (WHITE, BLACK) if item.players_confirmed.get(s)]
    if players and item.state == "over":
        confirmation += " · " + _("confirmed at the board by %(sides)s") % {
            "sides": ", ".join(str(p) for p in players)
        }
    title = _("Board %(b)d") % {"b": item.board.number}
    if item.board.round.tournament.games_per_pairing == 2:
        title += " · " + _("game %(n)d") % {"n": item.number}
    if item.state == "over":
        turn = ngettext("%(n)d turn", "%(n)d turns", item.ply) % {"n": item.ply}
    else:
        turn = _("ply %(n)d · %(side)s to move") % {
            "n": item.ply,
            "side": SIDE_NAMES.get(item.to_move, ""),
        }
    return {
        "key": f"{item.board.pk}-{item.number}",
        "title": title,
        "state_label": str(STATES[item.state]),
        "turn": turn,
        "confirmation": confirmation.strip(" ·"),
        "white_clock": clock_text(item.white_ms) if item.white_ms is not None else "",
        "black_clock": clock_text(item.black_ms) if item.black_ms is not None else "",
        "board": item.board.number,
        "number": item.number,
        "white": item.white,
        "black": item.black,
        "ply": item.ply,
        "to_move": item.to_move,
        "to_move_label": str(SIDE_NAMES.get(item.to_move, "")),
        "state": item.state,
        "white_ms": item.white_ms,
        "black_ms": item.black_ms,
        "running": item.running,
        "fallen": item.fallen,
        "result": result,
        "confirmed": bool(row is not None and row.result and row.confirmed),
        "players": [side for side in (WHITE, BLACK) if item.players_confirmed.get(side)],
        "problems": item.problems,
        "attention": item.attention,
        "disputed": bool(game is not None and game.disputed),
        "game_id": game.pk if game is not None else None,
        "sheet_url": reverse("games:board_game", args=[item.board.pk, item.number]),
        "public_url": reverse("games:detail", args=[game.pk]) if game is not None else "",
    }


__all__ = ["BLACK", "WHITE", "HallGame", "as_json", "etag", "hall_games", "round_rows"]
