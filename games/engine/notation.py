"""Move notation of one turn (RULES.md §8.2): reading with its leniency, validating, writing.

``CARD STEP STEP``, e.g. ``4:5 24/20 13/8``, ``3:6 bar/22 13/7*``, ``4:5 13/9*/4``. Input may
omit ``*``, may write the card as ``5:4`` and may write one checker's two steps as ``13/4``
when every legal route gives the same board. Output is canonical: every step explicit, every
hit marked, the card smaller number first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .core import BAR, CHECKERS, Card, State, ascii_number, other, parse_card
from .errors import EngineError
from .moves import Play, Step, after, step_text, view

#: A point as written: ``bar``, ``off`` or one or two ASCII digits (``\d`` would take ``٣``).
_POINT = r"(?:bar|off|[0-9]{1,2})"
_STEP_RE = re.compile(rf"^({_POINT})((?:/{_POINT}\*?)+)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class WrittenStep:
    """A step as written: ``star`` is True if it carried ``*``."""

    frm: int
    to: int
    star: bool

    @property
    def text(self) -> str:
        return step_text(self.frm, self.to, self.star)


@dataclass(frozen=True, slots=True)
class WrittenTurn:
    """A turn as written: the card and its step groups (a group of two is ``a/b/c``)."""

    card: Card
    groups: tuple[tuple[WrittenStep, ...], ...]
    text: str


def _point(token: str, text: str) -> int:
    t = token.lower()
    if t == "bar":
        return BAR
    if t == "off":
        return 0
    n = ascii_number(t, 2)
    if n is None or not 0 <= n <= 24:
        raise EngineError("bad_step", text=text)
    return n


def parse_turn(text: str) -> WrittenTurn:
    """Read a turn's text without looking at a position (syntax only)."""
    tokens = text.split()
    if not tokens:
        raise EngineError("syntax", text=text, detail="a turn starts with a card such as 4:5")
    card = parse_card(tokens[0])
    groups: list[tuple[WrittenStep, ...]] = []
    for token in tokens[1:]:
        m = _STEP_RE.match(token)
        if not m:
            raise EngineError("bad_step", text=token)
        points = [m.group(1), *m.group(2)[1:].split("/")]
        frm = _point(points[0], token)
        group = []
        for dest in points[1:]:
            star = dest.endswith("*")
            to = _point(dest.rstrip("*"), token)
            if to == BAR:
                raise EngineError("bad_step", text=token)
            group.append(WrittenStep(frm, to, star))
            frm = to
        if frm == BAR and len(points) == 1:
            raise EngineError("bad_step", text=token)
        groups.append(tuple(group))
    return WrittenTurn(card, tuple(groups), text)


def simulate(state: State, card: Card, steps: list[WrittenStep]) -> list[Step]:
    """Play written steps one by one under §3 and §5; raise at the first illegal one."""
    v = view(state)
    mover = state.to_move
    opponent = other(mover).capitalize()
    mine = list(v.mine)
    theirs = list(v.theirs)
    home = v.home
    remaining = list(card)
    done: list[Step] = []
    won = False
    for ws in steps:
        label = ws.text.rstrip("*")
        if won:
            raise EngineError("won_already", step=label)
        if not remaining:
            raise EngineError("extra_step", step=label)
        if ws.frm == BAR:
            if mine[BAR] == 0:
                raise EngineError("no_checker_on_bar", step=label)
        else:
            if mine[BAR]:
                raise EngineError("bar_first", step=label, count=mine[BAR])
            if not 1 <= ws.frm <= 24 or mine[ws.frm] == 0:
                raise EngineError("no_checker", step=label, point=ws.frm)
        distance = ws.frm - ws.to
        if ws.to < 1:
            raise EngineError("bear_off", step=label)
        if distance not in remaining:
            raise EngineError(
                "wrong_number",
                step=label,
                distance=distance,
                remaining=" or ".join(str(n) for n in remaining),
            )
        if theirs[ws.to] >= 2:
            raise EngineError(
                "point_held", step=label, point=ws.to, count=theirs[ws.to], opponent=opponent
            )
        hit = theirs[ws.to] == 1
        if ws.star and not hit:
            raise EngineError("false_hit", step=label, point=ws.to)
        mine[ws.frm] -= 1
        mine[ws.to] += 1
        if hit:
            theirs[ws.to] = 0
        if ws.to <= 6 < ws.frm:
            home += 1
        remaining.remove(distance)
        done.append(Step(ws.frm, ws.to, hit))
        if home == CHECKERS and v.home < CHECKERS:
            won = True
    if remaining and not won:
        raise EngineError("incomplete", missing=" and ".join(str(n) for n in remaining))
    return done


def _routes(card: Card, group: tuple[WrittenStep, ...]) -> list[list[WrittenStep]]:
    """The ways a written group may be meant: itself, or for a one-step shorthand whose
    length is the sum of the card's numbers, both orders through the intermediate point."""
    if len(group) == 1:
        ws = group[0]
        a, b = card
        if ws.frm - ws.to == a + b:
            routes = []
            for x in (a, b):
                mid = ws.frm - x
                routes.append([WrittenStep(ws.frm, mid, False), WrittenStep(mid, ws.to, ws.star)])
            return routes
    return [list(group)]


def resolve_turn(state: State, written: WrittenTurn) -> Play:
    """The play a written turn means in ``state``, or an EngineError saying which step is
    wrong and why. Does not check that the card is in hand."""
    options: list[list[WrittenStep]] = [[]]
    # A card has two numbers: a third step is already wrong (``simulate`` says so at the
    # latest there), so the steps after it are never read. Without this cut a long garbage
    # turn would cost quadratic time, and shorthand steps of two routes each exponential.
    for group in written.groups[:3]:
        options = [o + r for o in options for r in _routes(written.card, group)]
    results: list[list[Step]] = []
    errors: list[tuple[list[WrittenStep], EngineError]] = []
    for steps in options:
        try:
            results.append(simulate(state, written.card, steps))
        except EngineError as exc:
            errors.append((steps, exc))
    if not results:
        if len(errors) == 1:
            raise errors[0][1]
        reasons = "; ".join(
            f"as {' '.join(s.text for s in steps)}: {exc.detail}" for steps, exc in errors
        )
        error = EngineError(
            "no_route", text=" ".join(g_text(g) for g in written.groups), reasons=reasons
        )
        # Each route tried and why it failed, for saying the reasons in another language.
        error.causes = [(" ".join(s.text for s in steps), exc) for steps, exc in errors]
        raise error
    boards = {(b.white, b.black) for b in (after(state, r) for r in results)}
    if len(boards) > 1:
        names = "; ".join(" ".join(s.text for s in r) for r in results)
        raise EngineError(
            "ambiguous", text=" ".join(g_text(g) for g in written.groups), routes=names
        )
    raw: tuple[object, ...] = tuple(x for step in results[0] for x in step)
    return Play(state, written.card, raw)


def g_text(group: tuple[WrittenStep, ...]) -> str:
    if len(group) == 1:
        return group[0].text
    return group[0].text.split("/")[0] + "".join("/" + s.text.split("/")[1] for s in group)
