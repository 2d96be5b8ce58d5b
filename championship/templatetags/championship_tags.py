"""Template helpers of the organisers' pages."""

from __future__ import annotations

from django import template

from championship.models import Round, Tournament

register = template.Library()


@register.simple_tag
def latest_round(tournament: Tournament) -> Round | None:
    """The tournament's latest round, draft or published (the organisers' tab row links to
    it); one query."""
    if not getattr(tournament, "pk", None):
        return None
    return tournament.round_set.order_by("-number").first()
