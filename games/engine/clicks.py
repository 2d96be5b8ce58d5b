"""In which orders a play's steps may be made on a board by clicking checkers (RULES.md §3:
the two numbers are played in either order, by one checker or two, wherever both orders are
legal and give the same board)."""

from __future__ import annotations

from .core import State, card_text
from .errors import EngineError
from .moves import Play, legal_plays, playable_cards, step_text
from .notation import parse_turn, resolve_turn

Order = list[tuple[int, int]]


def _same_play(state: State, play: Play, steps: Order) -> bool:
    """Is ``steps`` (in this order) legal, and does it give the same board as ``play``?"""
    text = " ".join([card_text(play.card), *(step_text(a, b, False) for a, b in steps)])
    try:
        return resolve_turn(state, parse_turn(text)).position() == play.position()
    except EngineError:
        return False


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
