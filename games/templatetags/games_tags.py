"""Template helpers of the game pages."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from common.html import json_script

register = template.Library()


@register.filter
def turn_pairs(turns: list[Any]) -> list[dict[str, Any]]:
    """Turns as numbered entries: White's turn, then Black's (RULES.md §8.3)."""
    rows: dict[int, list[Any]] = {}
    for t in turns:
        rows.setdefault((t.ply + 1) // 2, [None, None])[(t.ply + 1) % 2] = t
    return [{"number": n, "turns": pair} for n, pair in sorted(rows.items())]


def duration(seconds: int) -> str:
    """A time as people say it: ``30 min``, ``1 h 30 min``, ``45 s``."""
    hours, rest = divmod(max(int(seconds), 0), 3600)
    minutes, secs = divmod(rest, 60)
    parts = []
    if hours:
        parts.append(_("%(n)d h") % {"n": hours})
    if minutes:
        parts.append(_("%(n)d min") % {"n": minutes})
    if secs or not parts:
        parts.append(_("%(n)d s") % {"n": secs})
    return " ".join(parts)


@register.filter
def time_control(obj: Any) -> str:
    """A game's or a tournament's time control as people say it: ``30 min + 30 min`` (phase 1,
    then phase 2; RULES.md §6)."""
    if hasattr(obj, "phase1_seconds"):
        first, second = obj.phase1_seconds, obj.phase2_seconds
    else:
        first, second = obj.phase1_minutes * 60, obj.phase2_minutes * 60
    return _("%(first)s + %(second)s") % {"first": duration(first), "second": duration(second)}


@register.filter
def json_data(value: Any, element_id: str) -> SafeString:
    """Django's ``json_script``, faster on big values (common.html.json_script)."""
    return json_script(value, element_id)
