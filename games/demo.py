"""Demo games: whole sheets played by the engine, for the demo tournament and benchmarks.

The stronger player races home (the play that brings most checkers home and the fewest pips
left), the weaker one picks a playable card and a play at random; clocks tick by a few
seconds a turn. Organiser terminations are entered part-way through.
"""

from __future__ import annotations

import random
from typing import Any

from .engine import BLACK, WHITE, legal_plays, playable_cards
from .engine.core import PHASE_PLIES, State
from .engine.game import Game as EngineGame
from .services import clock_text, termination_side

ORGANISER_ENDS = ("time", "resign", "agreement")


def _pips(state: State, side: str) -> int:
    return sum(i * n for i, n in enumerate(state.board(side)))  # type: ignore[arg-type]


def _choose(eg: EngineGame, rng: random.Random, strong: bool) -> str:
    state = eg.state
    cards = playable_cards(state)
    side = state.to_move
    if not strong:
        return rng.choice(legal_plays(state, rng.choice(cards))).text
    best: tuple[float, str] | None = None
    for card in cards:
        for play in legal_plays(state, card):
            after = play.position()
            score = 10 * after.home_count(side) - _pips(after, side) + rng.random()
            if best is None or score > best[0]:
                best = (score, play.text)
    assert best is not None
    return best[1]


def play_game(
    rng: random.Random,
    *,
    strong: str | None,
    termination: str | None = None,
    stop_at: int | None = None,
    phase_seconds: tuple[int, int] = (1800, 1800),
) -> EngineGame:
    """A game's sheet. ``termination``: the one wanted (retried until the moves give it, for
    home/blocked/cards; entered part-way for time/resign/agreement; no turns for forfeit).
    ``stop_at``: stop undecided after that many plies (a game still being played)."""
    loser = BLACK if strong == WHITE else WHITE
    if termination == "forfeit":
        eg = EngineGame()
        eg.terminate("forfeit", loser)
        return eg
    organiser = termination in ORGANISER_ENDS
    for _attempt in range(30):
        eg = EngineGame()
        left = {WHITE: phase_seconds[0], BLACK: phase_seconds[0]}
        limit = stop_at
        if organiser:
            limit = rng.randint(8, 66) if termination != "time" else rng.randint(20, 60)
        while eg.outcome is None and (limit is None or eg.ply < limit):
            side = eg.state.to_move
            text = _choose(eg, rng, strong is not None and side == strong)
            left[side] = max(left[side] - rng.randint(5, 70), 1)
            eg.play(text, clock=clock_text(left[side] * 1000))
            if eg.ply == PHASE_PLIES:
                left = {WHITE: phase_seconds[1], BLACK: phase_seconds[1]}
        if organiser:
            if eg.outcome is not None:
                continue
            if termination == "agreement":
                eg.terminate("agreement")
            elif termination == "resign":
                eg.terminate("resign", loser if strong else eg.state.to_move)
            else:
                eg.terminate("time", eg.state.to_move)
            return eg
        if stop_at is not None:
            if eg.outcome is None:
                return eg
            continue
        if termination is None or eg.termination == termination:
            return eg
    return eg


def game_rows(eg: EngineGame) -> dict[str, Any]:
    """The stored fields of a played game (the turns come from ``eg.turns``)."""
    return {
        "termination": eg.terminated.termination if eg.terminated else "",
        "termination_side": termination_side(eg),
    }
