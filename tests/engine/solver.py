"""A deliberately plain exhaustive solver for tests, independent of the search.

It uses only the rules as the engine's game layer states them (``legal_plays`` for the plays,
``Play.position`` for the next state, ``game.decide`` for the ends of the game) and plain
minimax over every play of every playable card, no pruning and no evaluation. Values are
from the side to move's view: 1 win, 0 draw, -1 loss.
"""

from __future__ import annotations

from games.engine import State, legal_plays, playable_cards
from games.engine.game import decide


class TooBig(Exception):
    """The position has more nodes than the solver was allowed to visit."""


def _key(state: State) -> tuple[object, ...]:
    return (state.white, state.black, state.to_move, state.hands, state.received, state.ply)


def outcome_after(state: State, mover: str) -> int | None:
    """The value for the side to move in ``state`` if the game is over after ``mover``'s
    turn (None: the game goes on)."""
    decided = decide(state, mover)  # type: ignore[arg-type]
    if decided is None:
        return None
    if decided.winner is None:
        return 0
    return 1 if decided.winner == state.to_move else -1


class Solver:
    def __init__(self, max_nodes: int = 200_000) -> None:
        self.max_nodes = max_nodes
        self.nodes = 0
        self.memo: dict[tuple[object, ...], int] = {}
        self.interval_memo: dict[tuple[object, ...], tuple[int, int]] = {}

    def children(self, state: State) -> list[tuple[State, int | None]]:
        out = []
        for card in playable_cards(state):
            for play in legal_plays(state, card):
                nxt = play.position()
                out.append((nxt, outcome_after(nxt, state.to_move)))
        return out

    def value(self, state: State) -> int:
        """The exact value of an undecided position (exhaustive to the end of the game)."""
        key = _key(state)
        found = self.memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise TooBig
        best = -1
        for nxt, decided in self.children(state):
            v = -decided if decided is not None else -self.value(nxt)
            if v > best:
                best = v
                if best == 1:
                    break  # nothing beats a win
        self.memo[key] = best
        return best

    def interval(self, state: State, depth: int) -> tuple[int, int]:
        """What ``depth`` plies of exhaustive search prove about an undecided position:
        (lo, hi) with lo == hi when the value is settled within the horizon."""
        if depth == 0:
            return (-1, 1)
        key = (*_key(state), depth)
        found = self.interval_memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise TooBig
        lo, hi = -1, -1
        for nxt, decided in self.children(state):
            if decided is not None:
                clo = chi = -decided
            else:
                a, b = self.interval(nxt, depth - 1)
                clo, chi = -b, -a
            lo = max(lo, clo)
            hi = max(hi, chi)
        self.interval_memo[key] = (lo, hi)
        return (lo, hi)
