"""The board as SVG, drawn on the server (one drawing for every page; the pages' scripts only
swap layers and mark points).

White's numbering places White's home (points 1–6) bottom right, as in the text diagram: the
top row runs 13–24 left to right, the bottom row 12–1. Each point is a ``<g class="pt">``
with ``data-w`` (White's number) and ``data-b`` (Black's number); the bar halves carry
``data-bar``. The checkers and point labels are one ``<g class="layer">`` per position.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from .engine import BLACK, WHITE, State
from .engine.core import BAR

PW = 50  # point width
BARW = 44
M = 10  # margin
H = 460  # board height
DEPTH = 190  # triangle depth
R = 21  # checker radius
W = 2 * M + 12 * PW + BARW
LABEL = 10  # the point numbers' distance from the felt (centre of the text)
BAR_X = M + 6 * PW


def _column_x(white_point: int) -> int:
    col = 12 - white_point if white_point <= 12 else white_point - 13
    return M + col * PW + (BARW if col >= 6 else 0)


def _top(white_point: int) -> bool:
    return white_point >= 13


@lru_cache(maxsize=1)
def _points() -> str:
    parts = []
    for p in range(1, 25):
        x = _column_x(p)
        if _top(p):
            tri = f"{x},{M} {x + PW},{M} {x + PW // 2},{M + DEPTH}"
            hit_y = M
        else:
            tri = f"{x},{H - M} {x + PW},{H - M} {x + PW // 2},{H - M - DEPTH}"
            hit_y = H // 2
        shade = "a" if p % 2 else "b"
        parts.append(
            f'<g class="pt" data-w="{p}" data-b="{25 - p}">'
            f'<polygon class="tri tri-{shade}" points="{tri}"/>'
            f'<rect class="hit" x="{x}" y="{hit_y}" width="{PW}" height="{H // 2 - M}"/></g>'
        )
    half = H // 2
    # Black's bar checkers are drawn in the top half, White's in the bottom half.
    parts.append(
        f'<g class="pt barpt" data-bar="black"><rect class="hit" x="{BAR_X}" y="{M}" '
        f'width="{BARW}" height="{half - M}"/></g>'
        f'<g class="pt barpt" data-bar="white"><rect class="hit" x="{BAR_X}" y="{half}" '
        f'width="{BARW}" height="{half - M}"/></g>'
    )
    return "".join(parts)


@lru_cache(maxsize=2048)
def _stack(cx: int, top: bool, n: int, colour: str, edge: int | None = None) -> str:
    if n <= 0:
        return ""
    room = DEPTH + 20 - 2 * R
    step = min(2 * R, room // max(n - 1, 1)) if n > 1 else 0
    start = edge if edge is not None else (M + R if top else H - M - R)
    out = []
    for i in range(n):
        cy = start + i * step if top else start - i * step
        out.append(f'<circle class="ck ck-{colour}" cx="{cx}" cy="{cy}" r="{R - 1}"/>')
    if n > 5:
        last = start + (n - 1) * step if top else start - (n - 1) * step
        out.append(f'<text class="ck-n ck-n-{colour}" x="{cx}" y="{last}">{n}</text>')
    return "".join(out)


@lru_cache(maxsize=2)
def _columns(numbering: str) -> tuple[tuple[int, int, bool, str], ...]:
    """(point, centre x, top row, label element) of the 24 points, labels in ``numbering``'s
    numbers: the same for every position, so built once."""
    out = []
    for p in range(1, 25):
        cx = _column_x(p) + PW // 2
        top = _top(p)
        label = p if numbering == WHITE else 25 - p
        # Outside the felt (above and below it), centred on their y: readable, not clipped,
        # and upright when the board is flipped (static/js/replay.js mirrors around y).
        ly = -LABEL if top else H + LABEL
        out.append((p, cx, top, f'<text class="lbl" x="{cx}" y="{ly}">{label}</text>'))
    return tuple(out)


def layer(state: State, numbering: str = WHITE) -> str:
    """Checkers and point labels of a position; labels in ``numbering``'s numbers."""
    out = [f'<g class="layer" data-ply="{state.ply}">']
    whites, blacks = state.white, state.black
    for p, cx, top, label in _columns(numbering):
        out.append(label)
        white = whites[p]
        black = blacks[25 - p]
        if white:
            out.append(_stack(cx, top, white, "w"))
        elif black:
            out.append(_stack(cx, top, black, "b"))
    bar_cx = BAR_X + BARW // 2
    out.append(_stack(bar_cx, True, state.black[BAR], "b", edge=H // 2 - R - 6 - 60))
    out.append(_stack(bar_cx, False, state.white[BAR], "w", edge=H // 2 + R + 6 + 60))
    out.append("</g>")
    return "".join(out)


def board(state: State, *, numbering: str = WHITE, label: str = "") -> SafeString:
    """The whole board of a position as an inline SVG element."""
    return frame(layer(state, numbering), label=label)


def frame(position: str, *, label: str = "") -> SafeString:
    """The whole board around a position's layer (``layer``) as an inline SVG element."""
    return mark_safe(  # noqa: S308 — built from numbers and an escaped label only
        f'<svg class="nardy-board" viewBox="-4 {-2 * LABEL} {W + 8} {H + 4 * LABEL}" role="img" '
        f'aria-label="{escape(label)}" data-height="{H}" '
        f'data-geometry="{PW},{BARW},{M},{H},{DEPTH},{R}" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(label)}</title>"
        f'<g class="board-body">'
        f'<rect class="felt" x="0" y="0" width="{W}" height="{H}" rx="6"/>'
        f'<rect class="barstrip" x="{BAR_X}" y="0" width="{BARW}" height="{H}"/>'
        f'<rect class="home-w" x="{_column_x(6)}" y="{H // 2}" width="{6 * PW}" height="{H // 2}"/>'
        f"{_points()}{position}</g></svg>"
    )


__all__ = ["BLACK", "WHITE", "board", "frame", "layer"]
