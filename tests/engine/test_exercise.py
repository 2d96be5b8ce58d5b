"""Exercises: every play of a position judged once (games/engine/exercise.py) — with a proven
best value, exactly the plays that keep it are right (checked against the exhaustive solver);
otherwise the plays within the margin of the best estimate."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import legal_plays, playable_cards
from games.engine.exercise import MARGIN, Judgement, judge_position
from games.engine.search import RootMove, Searcher
from tests.hypothesis_profiles import examples

from .solver import Solver, TooBig
from .test_report import ENDINGS, exact_value
from .test_search import random_position


@pytest.mark.parametrize(("plies", "seed"), ENDINGS)
def test_every_play_of_the_best_proven_value_is_right_and_no_other(plies: int, seed: int) -> None:
    state = random_position(seed, plies)
    assert state is not None
    judgement = judge_position(state, ms=None, max_nodes=200_000)
    assert judgement is not None and judgement.proven
    solver = Solver(max_nodes=100_000)
    exact = {
        p.text: exact_value(solver, state, p.position())
        for card in playable_cards(state)
        for p in legal_plays(state, card)
    }
    best = max(exact.values())
    assert judgement.value == best
    assert {p.play for p in judgement.plays} == set(exact)
    for p in judgement.plays:
        assert p.right == (exact[p.play] == best), p
        assert judgement.right(p.play) == p.right
        if p.proven:
            assert p.value == exact[p.play]
    assert sorted(judgement.answers) == sorted(t for t, v in exact.items() if v == best)
    assert len(set(exact.values())) > 1  # some plays are wrong
    assert Judgement.from_json(judgement.as_dict()) == judgement


@pytest.mark.parametrize("seed", [3, 8])
def test_in_the_middle_game_plays_within_the_margin_of_the_best_estimate_are_right(
    seed: int,
) -> None:
    state = random_position(seed, 14)
    assert state is not None
    judgement = judge_position(state, ms=None, max_nodes=3000, searcher=Searcher())
    assert judgement is not None and not judgement.proven
    texts = {p.text for card in playable_cards(state) for p in legal_plays(state, card)}
    assert {p.play for p in judgement.plays} == texts
    best = max(p.value for p in judgement.plays)
    assert judgement.value == best and judgement.right(judgement.best)
    for p in judgement.plays:
        assert p.right == (p.value >= best - MARGIN), p
    assert not all(p.right for p in judgement.plays)


def test_a_budget_too_small_to_settle_every_play_gives_no_exercise() -> None:
    # A proven ending whose plays need more work than one node allows.
    state = random_position(29, 68)
    assert state is not None
    searcher = Searcher()
    first = judge_position(state, ms=None, max_nodes=1, searcher=searcher)
    # Either nothing (not every play settled) or a judgement that is exact.
    if first is not None:
        solver = Solver(max_nodes=100_000)
        for p in first.plays:
            play = next(
                q for c in playable_cards(state) for q in legal_plays(state, c) if q.text == p.play
            )
            assert (
                p.right == (exact_value(solver, state, play.position()) == first.value)
                or not first.proven
            )


@settings(max_examples=examples(12), suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=st.integers(1, 300), plies=st.integers(68, 70))
def test_a_play_reaches_a_value_exactly_when_the_exhaustive_solver_says_so(
    seed: int, plies: int
) -> None:
    """``Searcher.reaches`` (the settling behind verdicts and exercises) never claims a value
    a play does not have, nor denies one it has."""
    state = random_position(seed, plies)
    assume(state is not None)
    assert state is not None
    solver = Solver(max_nodes=20_000)
    searcher = Searcher()
    checked = 0
    for mv in searcher.root_moves(state)[:8]:
        try:
            exact = exact_value(solver, state, mv.play.position())
        except TooBig:
            continue
        for target in (-1, 0, 1):
            fresh = RootMove(play=mv.play, node=mv.node, won=mv.won)
            got = searcher.reaches(fresh, target, ms=None, max_nodes=200_000)
            if got is not None:
                checked += 1
                assert got == (exact >= target), (mv.play.text, target, exact)
                if got and fresh.proven:
                    assert fresh.lo == exact
    assume(checked)
