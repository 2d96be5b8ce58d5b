"""In which orders a play's steps may be made on a board by clicking checkers (RULES.md §3:
the two numbers are played in either order, by one checker or two, wherever both orders are
legal and give the same board)."""

from __future__ import annotations

from .core import State, card_text
from .errors import EngineError
from .moves import Play, after, legal_plays, playable_cards
from .notation import WrittenStep, simulate

Order = list[tuple[int, int]]


def _same_play(state: State, play: Play, steps: Order) -> bool:
    """Is ``steps`` (in this order) legal, and does it give the same board as ``play``?

    The steps are played as a sheet's written turn is (``notation.simulate``: §3, §5), without
    writing and parsing its text: the tablet's page asks this of every legal play."""
    try:
        done = simulate(state, play.card, [WrittenStep(a, b, False) for a, b in steps])
    except EngineError:
        return False
    mine, theirs = after(state, done), after(state, play.steps)
    return mine.white == theirs.white and mine.black == theirs.black


def click_orders(state: State, play: Play) -> list[Order]:
    """The orders (each a list of (from, to) in the mover's numbering, 25 = bar) in which the
    steps of ``play`` may be clicked: its own, and the other one where that is legal too."""
    steps: Order = [(s.frm, s.to) for s in play.steps]
    orders = [steps]
    if len(steps) == 2:
        (a, b), (c, d) = steps
        if b != c:  # two checkers: the other one first
            other: Order = [(c, d), (a, b)]
        else:  # one checker: its other route (from the bar too: 25 - n)
            mid = a - (c - d)
            other = [(a, mid), (mid, d)]
        if _same_play(state, play, other):
            orders.append(other)
    return orders


def click_plays(state: State) -> dict[str, list[tuple[str, list[Order]]]]:
    """For each playable card, each legal play's canonical text with its click orders."""
    return {
        card_text(card): [
            (play.text, click_orders(state, play)) for play in legal_plays(state, card)
        ]
        for card in playable_cards(state)
    }
