"""An independent, deliberately naive implementation of RULES.md §3–§5 for tests.

It copies whole boards at every step and tries every source in both orders; the engine's fast
generator must find exactly the same set of resulting boards.
"""

from __future__ import annotations

Board = tuple[tuple[int, ...], tuple[int, ...]]  # (mover, opponent), own numberings


def _step(mine: list[int], opp: list[int], frm: int, n: int) -> tuple[list[int], list[int]] | None:
    if mine[25] > 0 and frm != 25:
        return None  # the bar first
    if mine[frm] == 0:
        return None
    to = 25 - n if frm == 25 else frm - n
    if to < 1:
        return None  # no bearing off
    opp_here = opp[25 - to]
    if opp_here >= 2:
        return None
    mine, opp = mine[:], opp[:]
    mine[frm] -= 1
    mine[to] += 1
    if opp_here == 1:
        opp[25 - to] = 0
        opp[25] += 1
    return mine, opp


def _home(mine: list[int]) -> bool:
    return sum(mine[1:7]) == 15


def reference_boards(
    mine: tuple[int, ...], opp: tuple[int, ...], card: tuple[int, int]
) -> set[Board]:
    """Every distinct (mover, opponent) board a card can lead to."""
    out: set[Board] = set()
    a, b = card
    start_home = _home(list(mine))
    for x, y in ((a, b), (b, a)):
        for f1 in range(1, 26):
            r1 = _step(list(mine), list(opp), f1, x)
            if r1 is None:
                continue
            if _home(r1[0]) and not start_home:
                out.add((tuple(r1[0]), tuple(r1[1])))
                continue
            for f2 in range(1, 26):
                r2 = _step(r1[0], r1[1], f2, y)
                if r2 is not None:
                    out.add((tuple(r2[0]), tuple(r2[1])))
    return out
