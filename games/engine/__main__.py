"""Command line of the rules engine (a stable contract, see README.md).

python -m games.engine plays            JSON lines in, JSON lines out
python -m games.engine replay FILE...   validate records, one JSON line per file
python -m games.engine show FILE [--ply N]
python -m games.engine best [--ms N]       JSON lines {record} in, the best play out
python -m games.engine analyse FILE [--ms N]
python -m games.engine match [--opponent random|greedy] [--games N] [--ms N]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .analysis import DEFAULT_MS, analyse_game, best_for_record
from .core import from_board_json
from .diagram import diagram
from .errors import EngineError
from .moves import legal_plays
from .record import parse_record
from .search import Searcher


def plays_command(stdin: TextIO, stdout: TextIO) -> int:
    for line in stdin:
        if not line.strip():
            continue
        out: dict[str, Any]
        try:
            try:
                obj = json.loads(line)
            except ValueError as exc:
                raise EngineError(
                    "syntax", text=line.strip()[:80], detail=f"not JSON: {exc}"
                ) from None
            if not isinstance(obj, dict) or "position" not in obj or "card" not in obj:
                raise EngineError(
                    "syntax", text=line.strip()[:80], detail="needs 'position' and 'card'"
                )
            if not isinstance(obj["card"], str):
                raise EngineError("bad_card", text=str(obj["card"]))
            state = from_board_json(obj["position"])
            plays = legal_plays(state, obj["card"])
            out = {"plays": [p.text for p in plays], "positions": [p.board for p in plays]}
        except EngineError as exc:
            out = {"error": str(exc)}
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()
    return 0


def replay_command(files: Sequence[str], stdout: TextIO) -> int:
    status = 0
    for name in files:
        out: dict[str, Any]
        try:
            with open(name, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            out = {"file": name, "ok": False, "ply": 0, "error": f"cannot read the file: {exc}"}
            status = 1
        else:
            try:
                record = parse_record(text)
            except EngineError as exc:
                out = {"file": name, "ok": False, "ply": exc.ply or 0, "error": str(exc)}
                status = 1
            else:
                game = record.game
                out = {
                    "file": name,
                    "ok": True,
                    "result": game.result,
                    "termination": game.termination,
                    "plies": game.ply,
                    "final": game.state.to_json(),
                }
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()
    return status


def show_command(name: str, ply: int | None, stdout: TextIO) -> int:
    with open(name, encoding="utf-8") as fh:
        record = parse_record(fh.read())
    game = record.game
    n = game.ply if ply is None else max(0, min(ply, game.ply))
    state = game.states[n]
    white = record.tag("White") or "White"
    black = record.tag("Black") or "Black"
    title = f"{white} (O) – {black} (X), after ply {n} of {game.ply}"
    stdout.write(diagram(state, title=title) + "\n")
    if n:
        turn = game.turns[n - 1]
        stdout.write(f"Last turn: {turn.side.capitalize()} {turn.text}\n")
    if n == game.ply:
        stdout.write(
            f"Result: {game.result}" + (f" ({game.termination})" if game.termination else "") + "\n"
        )
    return 0


def best_command(stdin: TextIO, stdout: TextIO, ms: float, max_nodes: int | None = None) -> int:
    """One JSON line in ({"record": ...}), one out, flushed, for as long as input comes."""
    searcher = Searcher()
    for line in stdin:
        if not line.strip():
            continue
        out: dict[str, Any]
        try:
            try:
                obj = json.loads(line)
            except ValueError as exc:
                raise EngineError(
                    "syntax", text=line.strip()[:80], detail=f"not JSON: {exc}"
                ) from None
            if not isinstance(obj, dict) or not isinstance(obj.get("record"), str):
                raise EngineError(
                    "syntax", text=line.strip()[:80], detail="needs 'record' (a string)"
                )
            out = best_for_record(
                obj["record"], ms=ms, max_nodes=max_nodes, searcher=searcher
            ).to_json()
        except EngineError as exc:
            out = {"error": str(exc)}
            if exc.code == "game_over":
                out["result"] = exc.params["result"]
                out["termination"] = exc.params["termination"]
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()
    return 0


def analyse_command(name: str, ms: float, stdout: TextIO, max_nodes: int | None = None) -> int:
    try:
        with open(name, encoding="utf-8") as fh:
            text = fh.read()
        analyses = analyse_game(text, ms_per_ply=ms, max_nodes=max_nodes)
    except (OSError, UnicodeDecodeError, EngineError) as exc:
        stdout.write(json.dumps({"error": str(exc)}) + "\n")
        return 1
    for analysis in analyses:
        stdout.write(json.dumps(analysis.to_json()) + "\n")
    stdout.flush()
    return 0


def match_command(
    opponents: Sequence[str], games: int, ms: float, seed: int, stdout: TextIO
) -> int:
    from .match import play_match
    from .players import EnginePlayer, GreedyPlayer, Player, RandomPlayer

    for name in opponents:
        opponent: Player = RandomPlayer(seed) if name == "random" else GreedyPlayer(seed)

        def report(result: Any, game: Any, name: str = name) -> None:
            line = {
                "game": result.number,
                "opponent": name,
                "engine": result.colour,
                "result": result.result,
                "termination": result.termination,
                "plies": result.plies,
                "points": result.points,
            }
            stdout.write(json.dumps(line) + "\n")
            stdout.flush()

        match = play_match(EnginePlayer(ms=ms), opponent, games, on_game=report)
        stdout.write(json.dumps({"summary": match.summary(), "ms": ms, "seed": seed}) + "\n")
        stdout.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("plays", help="legal plays for JSON lines {position, card} on stdin")
    replay = sub.add_parser("replay", help="validate game records")
    replay.add_argument("files", nargs="+")
    show = sub.add_parser("show", help="print a position of a record as a diagram")
    show.add_argument("file")
    show.add_argument("--ply", type=int, default=None)
    best = sub.add_parser("best", help="best play after each record read as JSON lines")
    best.add_argument("--ms", type=float, default=DEFAULT_MS, help="time per position (ms)")
    best.add_argument("--nodes", type=int, default=None, help="node budget per position")
    analyse = sub.add_parser("analyse", help="value and verdict of every turn of a record")
    analyse.add_argument("file")
    analyse.add_argument("--ms", type=float, default=DEFAULT_MS, help="time per ply (ms)")
    analyse.add_argument("--nodes", type=int, default=None, help="node budget per ply")
    match = sub.add_parser("match", help="the engine against a random and a greedy player")
    match.add_argument(
        "--opponent", choices=["random", "greedy", "both"], default="both", help="opponent"
    )
    match.add_argument("--games", type=int, default=200, help="games per opponent")
    match.add_argument("--ms", type=float, default=100, help="engine time per move (ms)")
    match.add_argument("--seed", type=int, default=1, help="seed of the opponents' choices")
    args = parser.parse_args(argv)
    if args.command == "best":
        return best_command(sys.stdin, sys.stdout, args.ms, args.nodes)
    if args.command == "analyse":
        return analyse_command(args.file, args.ms, sys.stdout, args.nodes)
    if args.command == "match":
        names = ["random", "greedy"] if args.opponent == "both" else [args.opponent]
        return match_command(names, args.games, args.ms, args.seed, sys.stdout)
    if args.command == "plays":
        return plays_command(sys.stdin, sys.stdout)
    if args.command == "replay":
        return replay_command(args.files, sys.stdout)
    try:
        return show_command(args.file, args.ply, sys.stdout)
    except (OSError, EngineError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 1


if __name__ == "__main__":
    sys.exit(main())
