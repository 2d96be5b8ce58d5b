"""The analysis API: verdicts, whole games from the record corpus, JSON round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.analysis import (
    PlyAnalysis,
    analyse_game,
    analyse_position,
    best_for_record,
    best_play,
    verdict,
)
from games.engine.errors import EngineError
from games.engine.game import Game
from games.engine.notation import parse_turn, resolve_turn
from games.engine.record import parse_record

RECORDS = Path(__file__).parent / "records"
EXPECTED = json.loads((RECORDS / "expected.json").read_text())
PLAYED = sorted(n for n, e in EXPECTED.items() if e["ok"] and e["plies"] > 0)


def test_verdict_thresholds() -> None:
    assert verdict(0.2, 0.2) == "best"
    assert verdict(0.1, 0.5, same=True) == "best"
    assert verdict(0.15, 0.2) == "good"
    assert verdict(0.05, 0.2) == "inaccuracy"
    assert verdict(-0.05, 0.2) == "mistake"
    assert verdict(-0.2, 0.2) == "blunder"


def test_a_proven_value_below_the_best_proven_value_is_always_a_blunder() -> None:
    assert verdict(0.0, 1.0, proven_played=True, proven_best=True) == "blunder"
    assert verdict(-1.0, 0.0, proven_played=True, proven_best=True) == "blunder"
    assert verdict(1.0, 1.0, proven_played=True, proven_best=True) == "best"
    # Not both proven: the thresholds decide.
    assert verdict(0.95, 1.0, proven_played=False, proven_best=True) == "good"


@pytest.mark.parametrize("name", PLAYED)
def test_analyse_game_on_the_corpus(name: str) -> None:
    text = (RECORDS / name).read_text()
    game = parse_record(text).game
    calls: list[tuple[int, int]] = []
    analyses = analyse_game(
        text, ms_per_ply=None, max_nodes=100, progress=lambda d, t, a: calls.append((d, t))
    )
    n = len(game.turns)
    assert [a.ply for a in analyses] == list(range(1, n + 1))
    assert calls == [(i, n) for i in range(1, n + 1)]
    for a, turn, state in zip(analyses, game.turns, game.states, strict=False):
        assert a.played == turn.text and a.side == state.to_move
        # The best play is a legal play of that position, in canonical notation.
        assert resolve_turn(state, parse_turn(a.best)).text == a.best
        Game(state).check_turn(a.best)
        for value, proven in ((a.value_played, a.proven_played), (a.value_best, a.proven_best)):
            assert -1.0 <= value <= 1.0
            if proven:
                assert value in (-1.0, 0.0, 1.0)
            else:
                assert -0.99 <= value <= 0.99
        assert a.value_best >= a.value_played
        assert a.verdict == verdict(
            a.value_played,
            a.value_best,
            proven_played=a.proven_played,
            proven_best=a.proven_best,
            same=a.verdict == "best" and a.played == a.best,
        ) or (a.verdict == "best" and a.played == a.best)
    if game.termination == "home":
        last = analyses[-1]
        assert last.proven and last.value_played == 1.0 and last.verdict == "best"
    if game.termination == "cards":
        assert all(a.proven for a in analyses[-2:])


def test_analysis_round_trips_through_json() -> None:
    analyses = analyse_game((RECORDS / "resign.nrd").read_text(), ms_per_ply=None, max_nodes=200)
    stored = json.loads(json.dumps([a.as_dict() for a in analyses]))
    assert [PlyAnalysis.from_json(d) for d in stored] == analyses
    assert set(analyses[0].to_json()) == {
        "ply",
        "played",
        "best",
        "value_played",
        "value_best",
        "proven",
        "verdict",
    }
    white = [a.white_value for a in analyses]
    assert all(-1 <= v <= 1 for v in white)
    assert analyses[1].white_value == -analyses[1].value_played  # Black's ply


def test_analyse_game_takes_turn_texts_or_a_game() -> None:
    game = parse_record((RECORDS / "resign.nrd").read_text()).game
    texts = [t.text for t in game.turns]
    by_texts = analyse_game(texts, ms_per_ply=None, max_nodes=200)
    by_game = analyse_game(game, ms_per_ply=None, max_nodes=200)
    assert [a.played for a in by_texts] == [a.played for a in by_game] == texts
    with pytest.raises(EngineError) as e:
        analyse_game(["4:5 24/20 13/8", "1:5 24/23 24/19"], ms_per_ply=None, max_nodes=100)
    assert e.value.ply == 2


def test_a_blunder_that_gives_away_a_home_win() -> None:
    """White can bring its last checker home now; a play that does not lets Black, one
    step from home, win first: a proven win turned into a proven loss."""
    from .helpers import position

    state = position({1: 14, 12: 1}, {1: 14, 7: 1}, ply=40)
    game = Game(state)
    winning = analyse_position(state, resolve_turn(state, parse_turn("3:6 12/9 9/3")))
    assert winning.verdict == "best" and winning.proven and winning.value_played == 1.0
    slow = resolve_turn(state, parse_turn("1:2 12/11 11/9"))
    analysis = analyse_position(state, slow, ms=None, max_nodes=2000)
    assert analysis.value_best == 1.0 and analysis.proven_best
    assert analysis.value_played == -1.0 and analysis.proven_played
    assert analysis.verdict == "blunder"
    assert game.outcome is None


def test_best_for_a_finished_game_is_an_error_with_the_result() -> None:
    with pytest.raises(EngineError) as e:
        best_for_record((RECORDS / "home.nrd").read_text(), ms=None, max_nodes=100)
    assert e.value.code == "game_over"
    assert (e.value.params["result"], e.value.params["termination"]) == ("1-0", "home")
    # A resignation leaves a position the moves did not decide: it has a best play.
    got = best_for_record((RECORDS / "resign.nrd").read_text(), ms=None, max_nodes=100)
    state = parse_record((RECORDS / "resign.nrd").read_text()).game.state
    Game(state).check_turn(got.play)
    assert best_play(state, ms=None, max_nodes=100).play == got.play
