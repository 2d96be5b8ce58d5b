"""The opening explorer (issue 24 point 4, docs/analysis.md "Opening explorer"): how every
recorded game opened, as a tree of its first plies with how often each was played and the
results after it, filtered by player and colour.

Precomputed: each finished game keeps its first :data:`OPENING_PLIES` plies as
``OpeningMove`` rows (the line before the ply and after it as short keys, the turn, both
players and the result), rewritten in the transaction that changes its sheet
(:func:`sheet_changed`, called by ``games.services``). A node of the tree is then one
grouped query over an index, whatever the number of games (benchmarks/explorer_bench.py).

A game counts once its sheet finished it (its moves, or a termination recorded on the sheet);
a result entered by hand on an unfinished sheet is not a game the explorer knows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q

from common.cache import computed

from .engine import EngineError
from .engine.game import Game as EngineGame
from .models import Game, OpeningMove
from .selectors import names

#: The plies of each game the explorer keeps (five turns a side).
OPENING_PLIES = 10
#: Results counted (a double forfeit has no turns).
RESULTS = ("1-0", "1/2-1/2", "0-1")
#: The longest line the page accepts (the rest is ignored).
MAX_LINE = OPENING_PLIES


def line_key(texts: Sequence[str]) -> str:
    """The key of a line of turns (the root, no turn, is the empty string)."""
    if not texts:
        return ""
    return hashlib.blake2b("\n".join(texts).encode(), digest_size=8).hexdigest()


def player_key(name: str) -> str:
    """A player's name as the filter compares it: case and spacing do not matter."""
    return " ".join(name.split()).casefold()[:150]


def rows_of(game: Game, eg: EngineGame) -> list[OpeningMove]:
    """The explorer's rows of a game (none unless its sheet finished it)."""
    outcome = eg.outcome
    if outcome is None or outcome.result not in RESULTS or not eg.turns:
        return []
    white, black = names(game)
    texts = [t.text for t in eg.turns[:OPENING_PLIES]]
    out = []
    for i, text in enumerate(texts):
        out.append(
            OpeningMove(
                game_id=game.pk,
                ply=i + 1,
                parent=line_key(texts[:i]),
                key=line_key(texts[: i + 1]),
                text=text,
                white=white[:150],
                black=black[:150],
                white_key=player_key(white),
                black_key=player_key(black),
                result=outcome.result,
            )
        )
    return out


def sheet_changed(game: Game, eg: EngineGame, *, had_rows: bool = True) -> None:
    """Called by ``games.services`` in every transaction that changes a game's sheet (``eg``
    the sheet now): the game's rows are written again. ``had_rows=False``: the caller knows
    the game had none (its sheet was undecided before the change: rows are kept only for a
    finished sheet), so there is nothing to delete (a turn added at the board)."""
    if had_rows:
        OpeningMove.objects.filter(game_id=game.pk).delete()
    OpeningMove.objects.bulk_create(rows_of(game, eg))


def games_recorded(pairs: Iterable[tuple[Game, EngineGame]]) -> None:
    """Rows for games stored in bulk (the demo, an import): ``(game, sheet)`` pairs."""
    rows = [row for game, eg in pairs for row in rows_of(game, eg)]
    OpeningMove.objects.bulk_create(rows, batch_size=2000)


@dataclass(frozen=True)
class Branch:
    """One turn played from a node: how often, and the results of those games."""

    text: str
    key: str
    games: int
    white: int
    draws: int
    black: int

    @property
    def white_pct(self) -> int:
        return round(100 * self.white / self.games) if self.games else 0

    @property
    def draw_pct(self) -> int:
        return round(100 * self.draws / self.games) if self.games else 0

    @property
    def black_pct(self) -> int:
        return max(0, 100 - self.white_pct - self.draw_pct) if self.games else 0


def filters(player: str = "", colour: str = "") -> Q:
    """The rows of a player's games (as White, Black, or either)."""
    key = player_key(player)
    if not key:
        return Q()
    if colour == "white":
        return Q(white_key=key)
    if colour == "black":
        return Q(black_key=key)
    return Q(white_key=key) | Q(black_key=key)


def branches(line: Sequence[str], *, player: str = "", colour: str = "") -> list[Branch]:
    """The turns played after ``line`` (most played first) in the games that match: one
    query."""
    rows = (
        OpeningMove.objects.filter(filters(player, colour), parent=line_key(line))
        .values("text", "key")
        .annotate(
            games=Count("id"),
            white=Count("id", filter=Q(result="1-0")),
            draws=Count("id", filter=Q(result="1/2-1/2")),
            black=Count("id", filter=Q(result="0-1")),
        )
        .order_by("-games", "text")
    )
    return [Branch(**row) for row in rows]


def players(limit: int = 500) -> list[str]:
    """Names to suggest in the player filter (those who played the most games first; kept
    five minutes: a suggestion may be a little behind)."""
    return computed("explorer:players", lambda: _players(limit), seconds=300)


def _players(limit: int) -> list[str]:
    rows = (
        OpeningMove.objects.filter(ply=1)
        .values("white")
        .annotate(n=Count("id"))
        .order_by("-n", "white")[:limit]
    )
    seen = {r["white"] for r in rows}
    blacks = (
        OpeningMove.objects.filter(ply=1)
        .values("black")
        .annotate(n=Count("id"))
        .order_by("-n", "black")[:limit]
    )
    return sorted(seen | {r["black"] for r in blacks}, key=str.casefold)


def parse_line(text: str) -> list[str]:
    """A line as the page's address carries it (turns separated by commas or semicolons),
    at most :data:`MAX_LINE` turns."""
    parts = [" ".join(p.split()) for p in text.replace(";", ",").split(",")]
    return [p for p in parts if p][:MAX_LINE]


def playable_line(texts: Sequence[str]) -> tuple[list[str], EngineGame]:
    """The longest legal beginning of a line (each turn canonical) and the game after it."""
    eg = EngineGame()
    valid: list[str] = []
    for text in texts:
        try:
            eg.play(text)
        except EngineError:
            break
        valid.append(eg.turns[-1].text)
    return valid, eg


def totals(branches_found: list[Branch]) -> dict[str, Any]:
    games = sum(b.games for b in branches_found)
    return {
        "games": games,
        "white": sum(b.white for b in branches_found),
        "draws": sum(b.draws for b in branches_found),
        "black": sum(b.black for b in branches_found),
    }
