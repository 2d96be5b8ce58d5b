"""Players for matches: a random player, a greedy player and the engine (RULES.md §4–§6).

A player is asked for a play only when the game is undecided, so the side to move has a
playable card.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Protocol

from .core import BAR, CHECKERS, GAME_PLIES, State, hand_cards
from .moves import Play, after, can_play, legal_plays, playable_cards
from .search import Searcher, SearchResult


class Player(Protocol):
    name: str

    def choose(self, state: State) -> Play:
        """A legal play for the side to move (the game is not over)."""
        ...

    def new_game(self) -> None:
        """Forget anything kept from the previous game."""
        ...


def all_plays(state: State) -> list[Play]:
    """Every distinct legal play of every playable card in the mover's hand."""
    return [p for card in playable_cards(state) for p in legal_plays(state, card)]


def distance_home(board: tuple[int, ...]) -> int:
    """Pips a side's checkers still have to travel until all are home (points 1–6); a
    checker on the bar counts 19, the distance from its entry to point 6."""
    return sum(n * (p - 6) for p, n in enumerate(board[7:BAR], start=7)) + 19 * board[BAR]


class RandomPlayer:
    """A random playable card, then a random play of it (both uniformly)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def new_game(self) -> None:
        pass

    def choose(self, state: State) -> Play:
        card = self.rng.choice(playable_cards(state))
        return self.rng.choice(legal_plays(state, card))


def keeps_a_card(state: State, play: Play) -> bool:
    """Whether the mover still has a playable card for its next turn after ``play``, judged
    on the board the play leaves (before the opponent's reply), with the hand it will hold
    then (after ply 36 the received pile, §6)."""
    nxt = play.position()
    if nxt.ply >= GAME_PLIES or nxt.is_home(state.to_move):
        return True
    own_turn = replace(nxt, to_move=state.to_move)
    return any(can_play(own_turn, c) for c in hand_cards(own_turn.hand(state.to_move)))


class GreedyPlayer:
    """The play that brings the most pips home, keeping a playable card for the next turn.

    "Pips home" is the reduction of :func:`distance_home` (a win ends the game and is
    always taken). Plays after which the mover would have no playable card for its next
    turn (on the board it leaves, §4) are used only when every play does that. Ties are
    broken by more checkers home, then at random (seeded).
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def new_game(self) -> None:
        pass

    def choose(self, state: State) -> Play:
        mover = state.to_move
        before = distance_home(state.board(mover))
        scored = []
        for play in all_plays(state):
            board = after(state, play.steps).board(mover)
            home = sum(board[1:7])
            if home == CHECKERS:
                return play
            scored.append((before - distance_home(board), home, play))
        self.rng.shuffle(scored)
        scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
        for _, _, play in scored:
            if keeps_a_card(state, play):
                return play
        return scored[0][2]


class EnginePlayer:
    """The search with a time budget per move (one transposition table per game)."""

    name = "engine"

    def __init__(self, ms: float = 100, max_nodes: int | None = None) -> None:
        self.ms = ms
        self.max_nodes = max_nodes
        self.searcher = Searcher()
        self.last: SearchResult | None = None

    def new_game(self) -> None:
        self.searcher = Searcher()

    def choose(self, state: State) -> Play:
        self.last = self.searcher.search(state, ms=self.ms, max_nodes=self.max_nodes)
        return self.last.best
