"""Game records (RULES.md §8.3): a PGN-like text of tags, numbered turns and the result."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .core import BLACK, WHITE
from .errors import EngineError
from .game import ENGINE_TERMINATIONS, RESULTS, TERMINATIONS, Game, Outcome

_TAG_RE = re.compile(r'^\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]$')
#: A comment runs to its ``}`` or, unclosed, to the end of the text (one pass, no
#: backtracking: many ``{`` without a ``}`` cost no more than one).
_TOKEN_RE = re.compile(r"\{[^}]*\}?|[^\s{}]+|\}")
#: Numbers in a record are ASCII digits (``\d`` would take ``٣``), a move number at most
#: three of them (a game has 36 moves; ``int()`` of thousands of digits fails).
_MOVE_NO_RE = re.compile(r"^([0-9]{1,3})(\.|\.\.\.)$")
_CARD_RE = re.compile(r"^[0-9]:[0-9]$")
_CLOCK_RE = re.compile(r"^clk\s+([0-9]{1,2}:[0-9]{2}:[0-9]{2})$")


@dataclass
class Record:
    """A parsed and validated record. ``game`` holds the turns with clocks and comments."""

    tags: list[tuple[str, str]]
    game: Game
    comments_before: list[str] = field(default_factory=list)

    def tag(self, name: str) -> str | None:
        for key, value in self.tags:
            if key == name:
                return value
        return None

    @property
    def result(self) -> str:
        return self.game.result

    @property
    def termination(self) -> str | None:
        return self.game.termination


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


#: Line breaks (all that ``str.splitlines`` splits on) and the other control characters.
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def _one_line(text: str) -> str:
    """``text`` with each run of control characters (line breaks included) made one space:
    written into a tag or a comment, a line break would start a line of its own in the file,
    a forged tag, turn or record."""
    return _CONTROL_RE.sub(" ", text)


def _escape(value: str) -> str:
    """A tag value as PGN writes it: on one line, ``\\`` and ``"`` escaped."""
    return _one_line(value).replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> str:
    """A comment in braces, on one line and stripped as the reader strips it; a ``}`` inside
    would end it early, so it becomes ``)``."""
    return "{" + _one_line(text).replace("}", ")").strip() + "}"


def _parse_tags(lines: list[str]) -> tuple[list[tuple[str, str]], int]:
    tags: list[tuple[str, str]] = []
    names: set[str] = set()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if not line:
            i += 1
            continue
        if not line.startswith("["):
            break
        m = _TAG_RE.match(line)
        if not m:
            raise EngineError(
                "record_tags",
                detail=f"cannot read tag line {line!r}",
                reason="tag_line",
                line=line,
                ply=0,
            )
        name = m.group(1)
        if name in names:
            raise EngineError(
                "record_tags",
                detail=f"tag {name} is given twice",
                reason="tag_twice",
                name=name,
                ply=0,
            )
        tags.append((name, _unescape(m.group(2))))
        names.add(name)
        i += 1
    return tags, i


def parse_record(text: str) -> Record:
    """Read and validate a record. Raise EngineError whose ``ply`` is the first offending
    turn (0 for the tag section), as §8.3 says."""
    lines = text.splitlines()
    tags, body_start = _parse_tags(lines)
    tag = dict(tags)
    result_tag = tag.get("Result")
    termination_tag = tag.get("Termination")
    if result_tag is None:
        raise EngineError(
            "record_tags", detail="the Result tag is missing", reason="no_result", ply=0
        )
    if result_tag not in RESULTS:
        raise EngineError(
            "record_tags",
            detail=f"Result {result_tag!r} is not one of 1-0, 0-1, 1/2-1/2, 0-0, *",
            reason="bad_result",
            value=result_tag,
            ply=0,
        )
    if termination_tag is not None and termination_tag not in TERMINATIONS:
        raise EngineError(
            "record_tags",
            detail=f"Termination {termination_tag!r} is not one of {', '.join(TERMINATIONS)}",
            reason="bad_termination",
            value=termination_tag,
            ply=0,
        )

    body = "\n".join(lines[body_start:])
    game = Game()
    record = Record(tags=tags, game=game)
    final_token: str | None = None
    pending: list[str] | None = None  # tokens of the turn being read
    pending_comments: list[str] = []

    def flush() -> None:
        nonlocal pending, pending_comments
        if pending is None:
            return
        turn = game.play(" ".join(pending))
        for comment in pending_comments:
            m = _CLOCK_RE.match(comment)
            if m and turn.clock is None:
                turn.clock = m.group(1)
            else:
                turn.comments.append(comment)
        pending, pending_comments = None, []

    for token in _TOKEN_RE.findall(body):
        next_ply = game.ply + 1 + (1 if pending is not None else 0)
        if final_token is not None:
            raise EngineError(
                "record_movetext",
                detail=f"{token!r} after the result",
                reason="after_result",
                token=token,
                ply=next_ply,
            )
        if token.startswith("{"):
            if not token.endswith("}"):
                raise EngineError(
                    "record_movetext",
                    detail="unclosed comment",
                    reason="unclosed_comment",
                    ply=next_ply,
                )
            comment = token[1:-1].strip()
            if pending is not None:
                pending_comments.append(comment)
            elif game.turns:
                record.game.turns[-1].comments.append(comment)
            else:
                record.comments_before.append(comment)
            continue
        if token in RESULTS:
            flush()
            final_token = token
            continue
        m = _MOVE_NO_RE.match(token)
        if m:
            flush()
            number, dots = int(m.group(1)), m.group(2)
            ply = game.ply + 1
            expected = (ply + 1) // 2
            side_ok = (ply % 2 == 1) if dots == "." else (ply % 2 == 0)
            if number != expected or not side_ok:
                want = f"{expected}." if ply % 2 == 1 else f"{expected}..."
                raise EngineError(
                    "record_movetext",
                    detail=f"move number {token} where {want} was due",
                    reason="move_number",
                    token=token,
                    want=want,
                    ply=ply,
                )
            continue
        if _CARD_RE.match(token):
            flush()
            pending = [token]
            continue
        if pending is None:
            raise EngineError(
                "record_movetext",
                detail=f"{token!r} is not a card, a step or a result",
                reason="bad_token",
                token=token,
                ply=game.ply + 1,
            )
        pending.append(token)
    flush()

    last = game.ply
    check_result(game, result_tag, termination_tag, last)
    if final_token is not None and final_token != result_tag:
        raise EngineError(
            "record_result",
            detail=f"the moves end with {final_token} but the Result tag says {result_tag}",
            reason="final_token",
            token=final_token,
            value=result_tag,
            ply=last,
        )
    return record


def check_result(game: Game, result: str, termination: str | None, last: int) -> None:
    """Check Result and Termination against the moves (ply of the error: ``last``)."""

    def fail(detail: str, reason: str, **params: str | None) -> EngineError:
        return EngineError("record_result", detail=detail, reason=reason, ply=last, **params)

    decided = game.outcome
    if decided is not None:
        if termination is not None and termination != decided.termination:
            raise fail(
                f"the moves end the game by {decided.termination} ({decided.result}), "
                f"not by {termination}",
                "other_termination",
                decided=decided.termination,
                result=decided.result,
                termination=termination,
            )
        if result != decided.result:
            raise fail(
                f"the moves end the game by {decided.termination} with {decided.result}, "
                f"but the Result is {result}",
                "other_result",
                decided=decided.termination,
                decided_result=decided.result,
                result=result,
            )
        return
    if result == "*":
        if termination is not None:
            raise fail("a record with result * has no Termination", "star_termination")
        return
    if termination is None:
        raise fail(
            f"the moves do not decide the game, so Result {result} needs a Termination",
            "needs_termination",
            result=result,
        )
    if termination in ENGINE_TERMINATIONS:
        raise fail(
            f"the moves do not end the game by {termination}",
            "not_by_moves",
            termination=termination,
        )
    side = None
    if termination in ("resign", "forfeit") and result in ("1-0", "0-1"):
        side = BLACK if result == "1-0" else WHITE  # the losing side
    try:
        outcome: Outcome = game.terminate(
            termination, side, result=result if termination in ("adjudication", "forfeit") else None
        )
    except EngineError as exc:
        raise fail(exc.detail, "termination_refused", termination=termination) from None
    if outcome.result != result:
        raise fail(
            f"{termination} at this point gives {outcome.result}, but the Result is {result}",
            "termination_gives",
            termination=termination,
            gives=outcome.result,
            result=result,
        )


def write_record(record: Record) -> str:
    """The canonical text of a record: tags, one line per numbered entry, the result."""
    return format_record(record.tags, record.game, record.comments_before)


def format_record(
    tags: list[tuple[str, str]], game: Game, comments_before: list[str] | None = None
) -> str:
    """Write a game with its tags; Result and Termination tags follow the game."""
    out_tags = [(k, v) for k, v in tags if k not in ("Result", "Termination")]
    out_tags.append(("Result", game.result))
    if game.termination is not None:
        out_tags.append(("Termination", game.termination))
    # Keep the original tag order where Result/Termination were given.
    names = [k for k, _ in tags]
    if "Result" in names:
        order = {k: i for i, k in enumerate(names)}
        big = len(names)
        if "Termination" not in order:
            order["Termination"] = order["Result"] + 0.5  # type: ignore[assignment]
        out_tags.sort(key=lambda kv: order.get(kv[0], big))
    lines = [f'[{k} "{_escape(v)}"]' for k, v in out_tags]
    lines.append("")
    if comments_before:
        lines.append(" ".join(_comment(c) for c in comments_before))
    entry: list[str] = []
    for turn in game.turns:
        if turn.ply % 2 == 1:
            if entry:
                lines.append(" ".join(entry))
            entry = [f"{(turn.ply + 1) // 2}."]
        elif not entry:
            entry = [f"{turn.ply // 2}..."]
        entry.append(turn.text)
        if turn.clock:
            entry.append("{clk " + turn.clock + "}")
        entry.extend(_comment(c) for c in turn.comments)
    if entry:
        lines.append(" ".join(entry))
    lines.append(game.result)
    return "\n".join(lines) + "\n"
