"""Numbers from outside are read in one place (common.converters): ASCII digits only, a
range, a clear error. ``str.isdigit()`` is true for ``²``, which ``int()`` refuses; ``int()``
reads ``٣``, ``" 7"`` and ``"-1"``."""

from __future__ import annotations

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from common.converters import NumberError, int_or_none, parse_int
from tests.hypothesis_profiles import examples


@pytest.mark.parametrize(
    ("raw", "expected"), [("0", 0), ("7", 7), ("007", 7), ("72", 72), ("9" * 18, 10**18 - 1)]
)
def test_ascii_digits_in_range_are_a_number(raw: str, expected: int) -> None:
    assert parse_int(raw, maximum=10**18) == expected
    assert int_or_none(raw, maximum=10**18) == expected


BAD = [None, "", "²", "³", "²²", "٣", "１", "-1", "+1", "1.0", " 0", "0 ", "1e3", "9" * 19, "a"]


@pytest.mark.parametrize("raw", BAD)
def test_anything_else_is_refused_with_a_clear_message(raw: str | None) -> None:
    with pytest.raises(NumberError, match="whole number from 0 to 72"):
        parse_int(raw, maximum=72)
    assert int_or_none(raw, maximum=72) is None


def test_the_range_is_part_of_the_number_and_the_message_is_translated() -> None:
    assert int_or_none("73", maximum=72) is None
    assert int_or_none("0", minimum=1, maximum=600) is None
    with translation.override("ru"), pytest.raises(NumberError) as caught:
        parse_int("²", minimum=1, maximum=600)
    assert "1" in str(caught.value) and "600" in str(caught.value)
    assert "whole number" not in str(caught.value)


@settings(max_examples=examples(500))
@given(st.text(max_size=25))
def test_any_text_is_a_number_in_range_or_refused(text: str) -> None:
    try:
        number = parse_int(text, minimum=1, maximum=500)
    except NumberError:
        assert int_or_none(text, minimum=1, maximum=500) is None
        return
    assert text.isascii() and text.isdigit() and 1 <= number <= 500 and int(text) == number
