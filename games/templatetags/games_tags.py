"""Template helpers of the game pages."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def turn_pairs(turns: list[Any]) -> list[dict[str, Any]]:
    """Turns as numbered entries: White's turn, then Black's (RULES.md §8.3)."""
    rows: dict[int, list[Any]] = {}
    for t in turns:
        rows.setdefault((t.ply + 1) // 2, [None, None])[(t.ply + 1) % 2] = t
    return [{"number": n, "turns": pair} for n, pair in sorted(rows.items())]
