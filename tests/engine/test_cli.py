"""The command-line contract of ``python -m games.engine``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORDS = Path(__file__).parent / "records"
START = [0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_plays_json_lines() -> None:
    position = {"white": START, "black": START, "to_move": "white"}
    lines = [
        json.dumps({"position": position, "card": "5:4"}),
        "not json",
        json.dumps({"position": {"white": START, "black": START[:-1]}, "card": "4:5"}),
        json.dumps({"position": position, "card": "3:3"}),
        json.dumps({"position": position, "card": "1:2"}),
    ]
    proc = run("plays", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(out) == 5
    assert len(out[0]["plays"]) == 9 and "4:5 24/20 13/8" in out[0]["plays"]
    assert len(out[0]["positions"]) == 9
    i = out[0]["plays"].index("4:5 24/20 13/8")
    pos = out[0]["positions"][i]
    assert pos["to_move"] == "black"
    assert pos["white"][24] == 1 and pos["white"][20] == 1 and pos["white"][8] == 4
    assert all("error" in o for o in out[1:4])
    assert len(out[4]["plays"]) == 15


def test_replay_ok_and_invalid() -> None:
    proc = run("replay", str(RECORDS / "home.nrd"), str(RECORDS / "invalid_held_point.nrd"))
    assert proc.returncode == 1
    ok, bad = (json.loads(x) for x in proc.stdout.splitlines())
    assert ok["ok"] is True and ok["termination"] == "home" and ok["plies"] == 63
    assert sum(ok["final"]["white"]) == 15
    assert bad == {
        "file": str(RECORDS / "invalid_held_point.nrd"),
        "ok": False,
        "ply": 1,
        "error": "ply 1 (White, 1:5): step 24/19 lands on point 19, held by 5 Black checkers",
    }
    proc = run("replay", str(RECORDS / "home.nrd"))
    assert proc.returncode == 0


def test_show_prints_a_diagram_with_both_hands() -> None:
    proc = run("show", str(RECORDS / "adjourned.nrd"), "--ply", "0")
    assert proc.returncode == 0, proc.stderr
    assert "White's hand: 1:2 1:2 1:4" in proc.stdout
    assert "Black's hand:" in proc.stdout and "O5" in proc.stdout and "X5" in proc.stdout


def test_best_answers_every_line_and_goes_on_after_errors() -> None:
    from games.engine.game import Game
    from games.engine.record import parse_record

    names = ["adjourned.nrd", "home.nrd", "resign.nrd", "cards_double_hit.nrd", "forfeit.nrd"]
    lines = [json.dumps({"record": (RECORDS / n).read_text()}) for n in names]
    lines.insert(2, "not json")
    lines.insert(3, json.dumps({"record": (RECORDS / "invalid_held_point.nrd").read_text()}))
    lines.insert(4, json.dumps({"position": "no record"}))
    proc = run("best", "--ms", "50", stdin="\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(out) == 8
    adjourned, home, bad_json, bad_record, no_record, resign, cards, forfeit = out
    assert "error" in bad_json and "error" in no_record
    assert bad_record["error"].startswith("ply 1 (White, 1:5)")
    # A game the moves have ended has no play: its result instead.
    assert home == {
        "error": "the game is already over (1-0, home)",
        "result": "1-0",
        "termination": "home",
    }
    assert cards["result"] == "1/2-1/2" and cards["termination"] == "cards"
    for name, got in (
        ("adjourned.nrd", adjourned),
        ("resign.nrd", resign),
        ("forfeit.nrd", forfeit),
    ):
        assert set(got) == {"play", "value", "proven", "nodes"}
        assert -1 <= got["value"] <= 1 and isinstance(got["proven"], bool) and got["nodes"] > 0
        game = parse_record((RECORDS / name).read_text()).game
        Game(game.state).check_turn(got["play"])  # legal for the side to move
        assert game.state.to_move == ("white" if game.ply % 2 == 0 else "black")


def test_analyse_writes_one_line_per_ply() -> None:
    proc = run("analyse", str(RECORDS / "resign.nrd"), "--nodes", "200")
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [o["ply"] for o in out] == list(range(1, 13))
    for o in out:
        assert set(o) == {
            "ply",
            "played",
            "best",
            "value_played",
            "value_best",
            "proven",
            "verdict",
        }
        assert o["verdict"] in ("best", "good", "inaccuracy", "mistake", "blunder")
        assert o["value_best"] >= o["value_played"]
    proc = run("analyse", str(RECORDS / "invalid_held_point.nrd"))
    assert proc.returncode == 1 and "error" in json.loads(proc.stdout)


def test_match_prints_games_and_a_summary() -> None:
    proc = run("match", "--opponent", "random", "--games", "2", "--ms", "20")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [x["engine"] for x in lines[:2]] == ["white", "black"]
    summary = lines[2]["summary"]
    assert summary["games"] == 2 and summary["opponent"] == "random"
