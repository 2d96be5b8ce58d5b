"""Building positions for engine tests."""

from __future__ import annotations

import random

from games.engine import State, from_board_json, legal_plays
from games.engine.game import Game


def position(
    white: dict[int, int], black: dict[int, int], to_move: str = "white", **extra: object
) -> State:
    """A state from ``{point: count}`` in each side's own numbering (25 = bar)."""
    w = [0] * 26
    b = [0] * 26
    for p, n in white.items():
        w[p] = n
    for p, n in black.items():
        b[p] = n
    return from_board_json({"white": w, "black": b, "to_move": to_move, **extra})


def random_game(seed: int, max_plies: int = 72) -> Game:
    """A game of random legal turns (random playable card, random play), up to max_plies."""
    rng = random.Random(seed)
    game = Game()
    while game.outcome is None and game.ply < max_plies:
        card = rng.choice(game.playable_cards())
        game.play(rng.choice(legal_plays(game.state, card)).text)
    return game
