"""Template helpers of the game pages."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from common.html import json_script

register = template.Library()


def turn_pairs(turns: list[Any]) -> list[dict[str, Any]]:
    """Turns as numbered entries: White's turn, then Black's (RULES.md §8.3)."""
    rows: dict[int, list[Any]] = {}
    for t in turns:
        rows.setdefault((t.ply + 1) // 2, [None, None])[(t.ply + 1) % 2] = t
    return [{"number": n, "turns": pair} for n, pair in sorted(rows.items())]


@register.filter
def sheet_rows(turns: list[Any]) -> SafeString:
    """The move sheet's rows: number, White's turn, Black's turn, each a link to its ply (a
    game of 72 plies is ~1,000 template nodes otherwise, a third of the game page's time)."""
    out = []
    for pair in turn_pairs(turns):
        cells = []
        for t in pair["turns"]:
            if t is None:
                cells.append("<td></td>")
                continue
            clock = f' <span class="small text-muted">{escape(t.clock)}</span>' if t.clock else ""
            cells.append(
                f'<td><a href="#ply-{t.ply}" class="ply-link font-monospace" '
                f'data-ply="{t.ply}">{escape(t.text)}</a>{clock}</td>'
            )
        out.append(f"<tr><td>{pair['number']}</td>{''.join(cells)}</tr>")
    return mark_safe("".join(out))  # noqa: S308 - the turns' texts and clocks are escaped


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


@register.filter
def item(sequence: Any, index: int) -> Any:
    """``sequence[index]`` in a template (None when out of range)."""
    try:
        return sequence[index]
    except (IndexError, KeyError, TypeError):
        return None


@register.filter
def clock_duration(seconds: int | None) -> str:
    """Seconds as ``m:ss`` (``h:mm:ss`` from an hour); a dash when unknown."""
    if seconds is None:
        return "–"
    h, rest = divmod(int(seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


@register.filter
def percent(value: float | None) -> str:
    """An accuracy (0–100) with one decimal in the page's language, or a dash."""
    return "–" if value is None else number_format(value, 1)


@register.filter
def rate(value: float | None) -> str:
    """An error rate (value lost per turn) with three decimals in the page's language, or a
    dash."""
    return "–" if value is None else number_format(value, 3)


@register.filter
def duration_hm(value: Any) -> str:
    """A ``timedelta`` as ``h:mm`` (how long a round has run)."""
    if value is None:
        return ""
    minutes = max(int(value.total_seconds()) // 60, 0)
    return f"{minutes // 60}:{minutes % 60:02d}"


@register.filter
def shown_result(value: str) -> str:
    """A result as the pages write it: ``½-½`` for a draw (``1/2-1/2`` is the files' and the
    database's key), other results as they are."""
    return "½-½" if value == "1/2-1/2" else value
