"""The corpus of sample records (§8.3): every termination, both phases, bar entries, a
one-checker double hit, a one-step home win, an adjourned game, and invalid records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import EngineError
from games.engine.record import parse_record, write_record

from .reference import reference_boards

RECORDS = Path(__file__).parent / "records"
EXPECTED = json.loads((RECORDS / "expected.json").read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_record(name: str) -> None:
    text = (RECORDS / name).read_text()
    expected = EXPECTED[name]
    if expected["ok"]:
        record = parse_record(text)
        assert record.result == expected["result"]
        assert record.termination == expected["termination"]
        assert record.game.ply == expected["plies"]
        assert write_record(record) == text  # round trip, tags and clocks kept
    else:
        with pytest.raises(EngineError) as e:
            parse_record(text)
        assert (e.value.ply, e.value.code) == (expected["ply"], expected["code"])


def test_corpus_covers_what_the_issue_asks() -> None:
    valid = {n: parse_record((RECORDS / n).read_text()) for n, e in EXPECTED.items() if e["ok"]}
    terminations = {r.termination for r in valid.values()}
    assert terminations >= {"home", "blocked", "time", "cards", "resign", "agreement", "forfeit"}
    assert any(r.game.ply > 36 for r in valid.values()) and any(
        0 < r.game.ply <= 36 for r in valid.values()
    )
    steps = [t.play.steps for r in valid.values() for t in r.game.turns]
    assert any(s.frm == 25 for ss in steps for s in ss), "a bar entry"
    assert any(
        len(ss) == 2 and ss[0].hit and ss[1].hit and ss[1].frm == ss[0].to for ss in steps
    ), "a one-checker double hit"
    one_step = valid["home_one_step.nrd"].game
    assert len(one_step.turns[-1].play.steps) == 1 and one_step.termination == "home"
    adjourned = valid["adjourned.nrd"]
    assert adjourned.game.ply == 36 and adjourned.result == "*"
    assert any(t.clock for r in valid.values() for t in r.game.turns)
    assert sum(not e["ok"] for e in EXPECTED.values()) >= 10


def test_corpus_turns_agree_with_the_reference() -> None:
    for name, e in EXPECTED.items():
        if not e["ok"]:
            continue
        game = parse_record((RECORDS / name).read_text()).game
        for state, turn in zip(game.states, game.turns, strict=False):
            mover = state.to_move
            opp = "black" if mover == "white" else "white"
            board = turn.play.board
            ref = reference_boards(state.board(mover), state.board(opp), turn.play.card)
            assert (tuple(board[mover]), tuple(board[opp])) in ref
