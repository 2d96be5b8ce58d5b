"""Ids posted by forms: only a value a row can have is an id."""

from __future__ import annotations

import pytest

from common.converters import posted_id


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("7", 7), ("000012", 12), ("9" * 18, int("9" * 18))],
)
def test_a_row_id_is_read(raw: str, expected: int) -> None:
    assert posted_id(raw) == expected


@pytest.mark.parametrize("raw", [None, "", "-1", "1.5", "abc", "9" * 19, "١٢", "²", " 7", "7\x00"])
def test_anything_else_is_none(raw: str | None) -> None:
    assert posted_id(raw) is None
