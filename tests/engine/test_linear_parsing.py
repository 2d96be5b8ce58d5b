"""Parsers read hostile text in one pass: each shape below, a megabyte long, would take
minutes (or forever) with a quadratic or exponential step; read in linear time it is refused
in well under a second. (No timing is asserted: pytest-timeout fails a test that hangs, and
docs/performance.md has the figures.)"""

from __future__ import annotations

import pytest

from games.engine import EngineError, start_state
from games.engine.notation import parse_turn, resolve_turn
from games.engine.record import parse_record

MEGABYTE_SHAPES = {
    "60,000 tags, one given twice at the end": "".join(f'[T{i} "x"]\n' for i in range(60_000))
    + '[T5 "y"]\n',
    "a million unclosed comment braces": '[Result "*"]\n\n' + "{" * 1_000_000,
    "braces and words": '[Result "*"]\n\n' + "{a " * 300_000,
    "one turn of 200,000 steps": '[Result "*"]\n\n1. 4:5 ' + "24/20 " * 200_000,
}


@pytest.mark.parametrize("text", MEGABYTE_SHAPES.values(), ids=MEGABYTE_SHAPES.keys())
def test_megabyte_records_are_refused_in_one_pass(text: str) -> None:
    with pytest.raises(EngineError) as caught:
        parse_record(text)
    assert caught.value.ply is not None


def test_a_duplicate_tag_is_still_named() -> None:
    with pytest.raises(EngineError) as caught:
        parse_record('[Event "a"]\n[Site "b"]\n[Event "c"]\n[Result "*"]\n\n*\n')
    assert caught.value.params["name"] == "Event" and caught.value.ply == 0


def test_an_unclosed_comment_is_still_an_error_with_its_ply() -> None:
    with pytest.raises(EngineError) as caught:
        parse_record('[Result "*"]\n\n1. 4:5 24/20 13/8 {unclosed\n')
    assert caught.value.params["reason"] == "unclosed_comment" and caught.value.ply == 2


@pytest.mark.parametrize("repeat", [3, 40, 100_000])
def test_a_turn_of_many_two_route_steps_is_refused_at_the_third(repeat: int) -> None:
    """``24/21`` with 1:2 has two routes (via 23 or 22): 40 of them were 2**40 routes."""
    with pytest.raises(EngineError) as caught:
        resolve_turn(start_state(), parse_turn("1:2 " + "24/21 " * repeat))
    assert caught.value.code in ("extra_step", "no_route", "wrong_number")
