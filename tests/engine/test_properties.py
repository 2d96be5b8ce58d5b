"""Property-based tests over random reachable positions (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import CARDS, State, can_play, legal_plays
from games.engine.game import Game
from games.engine.moves import after
from games.engine.notation import parse_turn, resolve_turn
from games.engine.record import format_record, parse_record
from tests.hypothesis_profiles import examples

from .reference import reference_boards

SETTINGS = settings(max_examples=examples(150))


@st.composite
def reachable(draw: st.DrawFn) -> State:
    """A position reached by random legal turns from the start."""
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(0, 71))
    rng = random.Random(seed)
    game = Game()
    while game.outcome is None and game.ply < plies:
        card = rng.choice(game.playable_cards())
        game.play(rng.choice(legal_plays(game.state, card)).text)
    return game.state


def mover_view(state: State, board: dict) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(mover, opponent) counts of a §8.1 board, the mover being ``state.to_move``."""
    mover = state.to_move
    opponent = "black" if mover == "white" else "white"
    return tuple(board[mover]), tuple(board[opponent])


def check_invariants(board: dict) -> None:
    w, b = board["white"], board["black"]
    assert sum(w) == 15 and sum(b) == 15
    assert w[0] == 0 and b[0] == 0
    assert all(n >= 0 for n in w + b)
    for p in range(1, 25):
        assert not (w[p] and b[25 - p]), "two colours on one point"


@SETTINGS
@given(reachable(), st.sampled_from(CARDS))
def test_plays_match_the_naive_reference(state: State, card: tuple[int, int]) -> None:
    plays = legal_plays(state, card)
    got = [mover_view(state, p.board) for p in plays]
    assert len(got) == len(set(got)), "plays are not distinct by resulting board"
    mover, opp = mover_view(state, state.to_json())
    assert set(got) == reference_boards(mover, opp, card)
    assert can_play(state, card) == bool(plays)


@SETTINGS
@given(reachable(), st.sampled_from(CARDS))
def test_invariants_of_every_play(state: State, card: tuple[int, int]) -> None:
    mover, opp = mover_view(state, state.to_json())
    for play in legal_plays(state, card):
        board = play.board
        check_invariants(board)
        assert board["to_move"] != state.to_move
        their = list(opp)
        for step in play.steps:
            # No step lands on a point held by two or more opposing checkers.
            assert their[25 - step.to] < 2
            if their[25 - step.to] == 1:
                assert step.hit
                their[25 - step.to] = 0
                their[25] += 1
            else:
                assert not step.hit
        # Hits go to the bar.
        assert list(mover_view(state, board)[1]) == their


@SETTINGS
@given(reachable(), st.sampled_from(CARDS))
def test_every_listed_play_replays_through_validation(state: State, card: tuple[int, int]) -> None:
    for play in legal_plays(state, card):
        again = resolve_turn(state, parse_turn(play.text))
        assert again.text == play.text
        assert again.board == play.board
        assert parse_turn(play.text).text == play.text


@SETTINGS
@given(reachable(), st.sampled_from(CARDS), st.data())
def test_every_validated_turn_is_among_the_listed_plays(
    state: State, card: tuple[int, int], data: st.DataObject
) -> None:
    """Write random step sequences; whatever validation accepts must be a listed play."""
    a, b = card
    sources = [25] + list(range(1, 25))
    boards = {str(p.board) for p in legal_plays(state, card)}
    for _ in range(20):
        f1 = data.draw(st.sampled_from(sources))
        f2 = data.draw(st.sampled_from(sources))
        x, y = data.draw(st.sampled_from([(a, b), (b, a)]))
        t1 = (25 - x) if f1 == 25 else f1 - x
        t2 = (25 - y) if f2 == 25 else f2 - y
        if t1 < 1 or t2 < 1:
            continue
        fr1 = "bar" if f1 == 25 else str(f1)
        fr2 = "bar" if f2 == 25 else str(f2)
        text = f"{a}:{b} {fr1}/{t1} {fr2}/{t2}"
        try:
            play = resolve_turn(state, parse_turn(text))
        except Exception:
            continue
        assert str(play.board) in boards, text
        steps = play.steps
        assert str(after(state, steps).to_json()) in boards


@settings(max_examples=examples(40))
@given(st.integers(0, 2**32 - 1))
def test_records_round_trip(seed: int) -> None:
    rng = random.Random(seed)
    game = Game()
    while game.outcome is None:
        card = rng.choice(game.playable_cards())
        turn = game.play(rng.choice(legal_plays(game.state, card)).text)
        if rng.random() < 0.3:
            turn.clock = f"0:{rng.randrange(30):02d}:{rng.randrange(60):02d}"
    text = format_record([("Event", "Test"), ("White", 'A "quoted" name')], game)
    record = parse_record(text)
    assert format_record(record.tags, record.game) == text
    assert record.result == game.result and record.termination == game.termination
    assert [t.clock for t in record.game.turns] == [t.clock for t in game.turns]
