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
