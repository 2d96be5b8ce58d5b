"""The record writer cannot be made to forge a line: tag values and comments are written on
one line (control characters and line breaks become a space), quotes and backslashes escaped
as PGN does, a ``}`` cannot end a comment early."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.game import Game
from games.engine.record import format_record, parse_record
from tests.hypothesis_profiles import examples

FORGERY = 'Anna\n\n[Event "forged"]\n[Result "1-0"]\n\n1. 4:5 24/20 13/8\n1-0'


def played() -> Game:
    game = Game()
    game.play("4:5 24/20 13/8")
    return game


def test_a_line_break_in_a_tag_value_forges_nothing():
    text = format_record([("Event", "Open"), ("White", FORGERY), ("Result", "*")], played())
    assert not any(line.startswith('[Event "forged"]') for line in text.splitlines())
    record = parse_record(text)
    assert [k for k, _ in record.tags] == ["Event", "White", "Result"]
    assert record.tag("White") == 'Anna [Event "forged"] [Result "1-0"] 1. 4:5 24/20 13/8 1-0'
    assert record.result == "*" and record.game.ply == 1


def test_quotes_and_backslashes_are_escaped():
    value = 'a "quoted" \\ back\\"slash'
    record = parse_record(format_record([("White", value), ("Result", "*")], played()))
    assert record.tag("White") == value


def test_a_comment_cannot_close_early_or_break_the_line():
    game = played()
    game.turns[0].comments.append('fine} 2. 1:2 {x\n\n[Event "forged"]')
    text = format_record([("Result", "*")], game)
    record = parse_record(text)
    assert record.game.ply == 1  # no forged turn
    assert record.game.turns[0].comments == ['fine) 2. 1:2 {x [Event "forged"]']
    assert len(text.splitlines()) == 4  # the tag, a blank line, the turn, the result


@settings(max_examples=examples(200))
@given(st.lists(st.text(max_size=30), min_size=1, max_size=4), st.text(max_size=30))
def test_any_tag_values_and_comment_read_back_as_written(values: list[str], comment: str) -> None:
    names = ["Event", "Site", "White", "Black"][: len(values)]
    game = played()
    game.turns[0].comments.append(comment)
    text = format_record([*zip(names, values, strict=True), ("Result", "*")], game)
    record = parse_record(text)
    assert [k for k, _ in record.tags] == [*names, "Result"]  # no tag lost or added
    assert record.game.ply == 1 and len(record.game.turns[0].comments) == 1
    assert format_record(record.tags, record.game) == text  # already canonical
