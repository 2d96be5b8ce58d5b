"""How ratings are written on the pages: whole points, "?" after a provisional one (RD 110 or
more, as lichess does), changes with their sign."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from championship.rating import PROVISIONAL_RD

register = template.Library()


@register.simple_tag
def rating(value: float | None, rd: float | None = None) -> SafeString | str:
    """``1523`` or ``1523?`` (provisional)."""
    if value is None:
        return "–"
    if rd is not None and rd >= PROVISIONAL_RD:
        return format_html(
            '{}<span class="prov-rating" title="{}">?</span>',
            round(value),
            _("provisional: fewer games than the rating needs to be reliable"),
        )
    return str(round(value))


@register.filter
def rating_change(value: float | None) -> str:
    """``+12``, ``−7``, ``0``; a dash without a change."""
    if value is None:
        return "–"
    rounded = round(value)
    if rounded > 0:
        return f"+{rounded}"
    if rounded < 0:
        return f"−{-rounded}"
    return "0"
