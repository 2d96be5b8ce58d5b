"""The report on a game (games/engine/report.py): error rates, verdict counts, turning points,
time used — on hand-made analyses and on endings whose exact values the exhaustive solver
knows (tests/engine/solver.py, which shares no code with the search)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import State, legal_plays, playable_cards
from games.engine.analysis import PlyAnalysis, analyse_game, verdict
from games.engine.game import Game
from games.engine.report import (
    band,
    clock_seconds,
    game_report,
    lost,
    reportable,
    time_used,
    turn_accuracy,
    turning_points,
)
from tests.hypothesis_profiles import examples

from .solver import Solver, outcome_after
from .test_search import random_position


def ply(
    n: int,
    best: float,
    played: float,
    *,
    proven: bool = False,
    choices: int = 20,
    verdict_name: str | None = None,
) -> PlyAnalysis:
    side = "white" if n % 2 else "black"
    name = verdict_name or verdict(
        played, best, proven_played=proven, proven_best=proven, same=best == played
    )
    return PlyAnalysis(
        ply=n,
        side=side,
        played=f"played {n}",
        best=f"best {n}" if best != played else f"played {n}",
        value_played=played,
        value_best=best,
        proven_played=proven,
        proven_best=proven,
        verdict=name,
        nodes=1,
        depth=1,
        choices=choices,
    )


# --- Hand-made analyses ---------------------------------------------------------------------
def test_value_lost_error_rate_and_counts_per_side_and_phase() -> None:
    plies = [
        ply(1, 0.1, 0.1),  # White: 0 lost
        ply(2, 0.0, -0.15),  # Black: inaccuracy 0.15
        ply(3, 0.2, -0.05, choices=1),  # White: forced, not counted (lost 0.25 ignored)
        ply(4, 0.3, 0.05),  # Black: mistake 0.25
        *[ply(n, 0.0, 0.0) for n in range(5, 37)],
        ply(37, 0.4, 0.0),  # White, phase 2: blunder 0.4
        ply(38, 0.0, 0.0),
    ]
    report = game_report(plies)
    white, black = report.white, report.black
    # White: 18 counted turns in phase 1 (ply 3 forced), 1 in phase 2.
    assert white.phases[1].turns == 17 and white.phases[2].turns == 1
    assert white.phases[1].error_rate == 0.0
    assert white.phases[2].error_rate == 0.4
    assert white.total.error_rate == round(0.4 / 18, 4)
    assert (white.total.inaccuracies, white.total.mistakes, white.total.blunders) == (0, 0, 1)
    assert black.phases[1].turns == 18
    assert black.phases[1].error_rate == round((0.15 + 0.25) / 18, 4)
    assert (black.total.inaccuracies, black.total.mistakes, black.total.blunders) == (1, 1, 0)
    assert black.phases[2].error_rate == 0.0
    # A forced turn counts for nothing (its verdict is always best in a real analysis).
    forced_only = game_report([ply(1, 0.5, 0.0, choices=1)])
    assert forced_only.white.total.turns == 0
    assert forced_only.white.total.error_rate is None
    assert forced_only.white.total.accuracy is None


def test_accuracy_is_100_for_perfect_play_and_falls_with_the_value_lost() -> None:
    assert turn_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert turn_accuracy(2.0) == 0.0
    assert turn_accuracy(0.1) == pytest.approx(103.1668 * math.exp(-0.2177) - 3.1669)
    report = game_report([ply(1, 0.3, 0.3), ply(2, 0.0, 0.0), ply(3, 0.3, 0.0)])
    assert report.white.total.accuracy == round((turn_accuracy(0) + turn_accuracy(0.3)) / 2, 1)
    assert report.accuracy == round((2 * turn_accuracy(0) + turn_accuracy(0.3)) / 3, 1)


@settings(max_examples=examples(200))
@given(st.floats(0, 2), st.floats(0, 2))
def test_accuracy_never_rises_with_more_value_lost(a: float, b: float) -> None:
    lo, hi = min(a, b), max(a, b)
    assert 0 <= turn_accuracy(hi) <= turn_accuracy(lo) <= 100


def test_bands() -> None:
    assert [band(v) for v in (1.0, 0.5, 0.49, 0.0, -0.49, -0.5, -1.0)] == [2, 2, 1, 1, 1, 0, 0]


def test_a_turning_point_is_a_fall_of_band_by_an_inaccuracy_or_worse() -> None:
    plies = [
        ply(1, 0.55, 0.45),  # winning to drawn, but only 0.1 lost: a turning point
        ply(2, 0.52, 0.48),  # winning to drawn by 0.04: noise, not one
        ply(3, 0.3, -0.6),  # drawn to lost: one
        ply(4, 0.9, 0.6),  # still winning: not one
        ply(5, 0.6, -0.6, choices=1),  # forced: not one
        ply(6, 1.0, 0.0, proven=True),  # a proven win given away: one
    ]
    found = turning_points(plies)
    assert [t.ply for t in found] == [1, 3, 6]
    assert [(t.before, t.after) for t in found] == [
        ("winning", "drawn"),
        ("drawn", "lost"),
        ("winning", "drawn"),
    ]


def test_lowest_value_of_each_side() -> None:
    plies = [ply(1, 0.1, 0.1), ply(2, 0.2, 0.2), ply(3, 0.5, 0.4), ply(4, -0.3, -0.4)]
    report = game_report(plies)
    # White's view after each ply: 0.1, -0.2, 0.4, 0.4 (and 0.1 at the start).
    assert report.white.lowest == -0.2
    assert report.black.lowest == -0.4


def test_reportable() -> None:
    assert reportable(10, "home") and reportable(72, "cards") and reportable(30, None)
    assert not reportable(9, "home")
    assert not reportable(40, "adjudication") and not reportable(0, "forfeit")


def test_time_used_from_the_clocks() -> None:
    clocks = ["0:29:50", "0:29:40", "0:29:00", None, "0:28:58", "0:29:30"]
    assert time_used(clocks, phase1_seconds=1800, phase2_seconds=1800) == [
        10,
        20,
        50,
        None,
        2,
        None,
    ]
    # Phase 2 starts from its own time: ply 37 and 38 count from phase2_seconds.
    clocks = [f"0:{29 - i // 2:02d}:00" for i in range(36)] + ["0:09:30", "0:09:00"]
    used = time_used(clocks, phase1_seconds=1800, phase2_seconds=600)
    assert used[36:] == [30, 60]
    assert used[:2] == [60, 60]
    assert clock_seconds("1:02:03") == 3723
    assert clock_seconds("garbage") is None and clock_seconds("0:61:00") is None


# --- Endings whose exact values the exhaustive solver knows --------------------------------
#: (plies played, seed) of random games whose positions the plain solver settles quickly and
#: where plays of different exact values exist (found by tests/engine/solver.py).
ENDINGS = ((68, 29), (67, 53), (68, 54), (68, 42))


def exact_value(solver: Solver, state: State, play_state: State) -> int:
    """The exact value of a play for its mover (``play_state``: the position after it)."""
    decided = outcome_after(play_state, state.to_move)
    return -decided if decided is not None else -solver.value(play_state)


def exact_game(plies: int, seed: int, wrong: int) -> tuple[Game, list[tuple[int, int]]]:
    """The ending from ``random_position(seed, plies)`` played to its end: the exhaustive
    solver's best play every turn, except turn ``wrong`` (0-based), where the worst play
    is taken. Returns the game and each turn's (exact best, exact played) values."""
    state = random_position(seed, plies)
    assert state is not None
    solver = Solver(max_nodes=100_000)
    game = Game(state)
    values = []
    while game.outcome is None:
        s = game.state
        scored = [
            (exact_value(solver, s, p.position()), p)
            for card in playable_cards(s)
            for p in legal_plays(s, card)
        ]
        best = max(v for v, _ in scored)
        if len(game.turns) == wrong:
            value, chosen = min(scored, key=lambda vp: vp[0])
        else:
            value, chosen = next((v, p) for v, p in scored if v == best)
        values.append((best, value))
        game.play(chosen.text)
    return game, values


@pytest.mark.parametrize(("plies", "seed"), ENDINGS)
@pytest.mark.parametrize("wrong", [0, 1])
def test_verdicts_error_rates_and_turning_points_equal_the_exact_values(
    plies: int, seed: int, wrong: int
) -> None:
    game, values = exact_game(plies, seed, wrong)
    analyses = analyse_game(game, ms_per_ply=None, max_nodes=200_000)
    assert len(analyses) == len(values)
    for a, (best, played) in zip(analyses, values, strict=True):
        # Never a proven value that contradicts the exact one; so close to the end every
        # value is proven.
        assert a.proven, a
        assert (a.value_best, a.value_played) == (best, played), a
        assert a.verdict == ("blunder" if played < best else "best"), a
        assert lost(a) == best - played
    report = game_report(analyses)
    for side in ("white", "black"):
        mine = [(b - p, a) for a, (b, p) in zip(analyses, values, strict=True) if a.side == side]
        counted = [x for x, a in mine if not a.forced]
        expected = round(sum(counted) / len(counted), 4) if counted else None
        assert report.side(side).total.error_rate == expected
        assert report.side(side).total.blunders == sum(1 for x, a in mine if x > 0)
    # A turning point exactly where a proven value changes band for its mover.
    expected_turns = [
        a.ply
        for a, (b, p) in zip(analyses, values, strict=True)
        if band(p) < band(b) and not a.forced
    ]
    assert [t.ply for t in report.turning_points] == expected_turns
    if wrong == 0:  # these endings were chosen for plays of different values at the start
        assert values[0][0] != values[0][1]


def test_the_line_after_a_better_play_ends_as_the_game_would() -> None:
    """Where a proven win is given away, the engine's line after its play reaches the end
    of the game and says how (home, blocked or the cards)."""
    seen = 0
    for plies, seed in ENDINGS:
        game, values = exact_game(plies, seed, 0)
        a = analyse_game(game, ms_per_ply=None, max_nodes=200_000)[0]
        if a.best == a.played:
            continue
        seen += 1
        assert a.line_end in ("home", "blocked", "cards")
        g = Game(game.states[0])
        g.play(a.best)
        for text in a.line:
            g.play(text)
        outcome = g.outcome
        assert outcome is not None and outcome.termination == a.line_end
        # The line keeps the proven value of the engine's play.
        mover = game.states[0].to_move
        score = 0 if outcome.winner is None else 1 if outcome.winner == mover else -1
        assert score == a.value_best
    assert seen


@pytest.mark.parametrize(("plies", "seed"), ENDINGS)
@pytest.mark.parametrize("budget", [30, 300, 3000])
def test_with_any_budget_a_proven_value_and_a_verdict_on_proven_values_are_exact(
    plies: int, seed: int, budget: int
) -> None:
    """Small node budgets leave some values unproven; what is proven is still exact, and a
    verdict between two proven values says exactly whether the play gave value away."""
    game, values = exact_game(plies, seed, 0)
    for a, (best, played) in zip(
        analyse_game(game, ms_per_ply=None, max_nodes=budget), values, strict=True
    ):
        if a.proven_played:
            assert a.value_played == played, a
        if a.proven_best:
            assert a.value_best == best, a
        if a.proven:
            assert (a.verdict == "blunder") == (played < best), a
            assert (a.verdict == "best") == (played == best), a
