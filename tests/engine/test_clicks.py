"""Click orders of a play (games.engine.clicks): worked examples and a property."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import EngineError, legal_plays, playable_cards, start_state
from games.engine.clicks import click_orders, click_plays
from games.engine.moves import step_text
from games.engine.notation import parse_turn, resolve_turn
from tests.engine.helpers import random_game
from tests.hypothesis_profiles import examples


def _play(text: str):  # type: ignore[no-untyped-def]
    state = start_state()
    return state, next(p for p in legal_plays(state, text.split()[0]) if p.text == text)


def _written(card: str, order: list[tuple[int, int]]) -> str:
    """A turn as clicked, written out: the card, then each step (25 = the bar)."""
    return " ".join([card, *(step_text(a, b, False) for a, b in order)])


def test_two_checkers_may_be_moved_in_either_order() -> None:
    state, play = _play("4:5 24/20 13/8")
    assert click_orders(state, play) == [[(24, 20), (13, 8)], [(13, 8), (24, 20)]]


def test_one_checker_through_a_held_point_has_one_order() -> None:
    # 24/19 would land on Black's six-point (five checkers): only 24/20/15 is legal.
    state, play = _play("4:5 24/20 20/15")
    assert click_orders(state, play) == [[(24, 20), (20, 15)]]


def test_one_checker_through_two_open_points_has_both_routes() -> None:
    state, play = _play("1:2 24/23 23/21")
    assert click_orders(state, play) == [[(24, 23), (23, 21)], [(24, 22), (22, 21)]]


def test_every_card_of_the_start_position_is_offered() -> None:
    offered = click_plays(start_state())
    assert sorted(offered) == ["1:2", "1:4", "1:5", "2:3", "2:5", "2:6", "3:4", "3:6", "4:5"]
    assert len(offered["4:5"]) == 9  # RULES.md §9


@settings(max_examples=examples(25))
@given(st.integers(0, 10_000), st.integers(0, 70))
def test_every_order_gives_the_play_itself(seed: int, plies: int) -> None:
    state = random_game(seed, plies).state
    for card, plays in click_plays(state).items():
        for text, orders in plays:
            for order in orders:
                clicked = resolve_turn(state, parse_turn(_written(card, order))).position()
                assert clicked == resolve_turn(state, parse_turn(text)).position()


@settings(max_examples=examples(25))
@given(st.integers(0, 10_000), st.integers(0, 70))
def test_an_order_is_offered_exactly_when_the_sheet_accepts_it_as_the_same_play(
    seed: int, plies: int
) -> None:
    """The other order of a play's two steps is offered if and only if the sheet, reading it
    as written, takes it for the same play (the notation's own resolver is the oracle)."""
    state = random_game(seed, plies).state
    for card in playable_cards(state):
        for play in legal_plays(state, card):
            steps = [(s.frm, s.to) for s in play.steps]
            if len(steps) != 2:
                assert click_orders(state, play) == [steps]
                continue
            (a, b), (c, d) = steps
            other = [(c, d), (a, b)] if b != c else [(a, a - (c - d)), (a - (c - d), d)]
            text = _written(play.text.split()[0], other)
            try:
                same = resolve_turn(state, parse_turn(text)).position() == play.position()
            except EngineError:
                same = False
            assert click_orders(state, play) == ([steps, other] if same else [steps]), text
