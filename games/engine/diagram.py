"""A text diagram of a position, for a person at a terminal."""

from __future__ import annotations

from .core import BAR, BLACK, WHITE, State, hand_text


def diagram(state: State, *, title: str = "") -> str:
    """White's numbering: White's points 13–24 on top, 12–1 below (White's home bottom right).
    ``O`` is White, ``X`` is Black; counts over 5 are written as a number."""
    w, b = state.white, state.black

    def cell(p: int) -> str:
        if w[p]:
            return f" O{w[p]:<2}" if w[p] > 1 else " O  "
        if b[25 - p]:
            return f" X{b[25 - p]:<2}" if b[25 - p] > 1 else " X  "
        return "  . "

    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    rule = "+" + "-" * 24 + "+" + "-" * 24 + "+"
    lines = []
    if title:
        lines.append(title)
    lines.append(
        " " + "".join(f"{p:>4}" for p in top[:6]) + " " + "".join(f"{p:>4}" for p in top[6:])
    )
    lines.append(rule)
    lines.append(
        "|" + "".join(cell(p) for p in top[:6]) + "|" + "".join(cell(p) for p in top[6:]) + "|"
    )
    lines.append("|" + " " * 24 + "|" + " " * 24 + "|")
    lines.append(
        "|"
        + "".join(cell(p) for p in bottom[:6])
        + "|"
        + "".join(cell(p) for p in bottom[6:])
        + "|"
    )
    lines.append(rule)
    lines.append(
        " " + "".join(f"{p:>4}" for p in bottom[:6]) + " " + "".join(f"{p:>4}" for p in bottom[6:])
    )
    lines.append(f"Bar: White (O) {w[BAR]}, Black (X) {b[BAR]}")
    lines.append(f"Home: White {state.home_count(WHITE)}/15, Black {state.home_count(BLACK)}/15")
    lines.append(
        f"Ply {state.ply} played, phase {state.phase}, {state.to_move.capitalize()} to move"
    )
    lines.append(f"White's hand: {hand_text(state.hand(WHITE))}")
    lines.append(f"Black's hand: {hand_text(state.hand(BLACK))}")
    return "\n".join(lines)
