"""The venue screen (``championship.screen``): public, no menus, for a TV in the hall."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from common.cache import anonymous, page_for

from . import screen, tables
from .models import Tournament


def _mode(request: HttpRequest) -> str:
    """``?lang=ru|en|both``; anything else: the visitor's language."""
    wanted = request.GET.get("lang", "")
    if wanted in screen.MODES:
        return wanted
    current = translation.get_language() or "en"
    return current if current in screen.MODES else "en"


def venue_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The current round's pairings and the standings, rotating (a finished tournament: its
    final standings), with the schedule and a clock; reloads itself when the results change
    (between two turns of the slides). Kept whole per version of the tournament and
    language."""
    mode = _mode(request)
    languages = screen.MODES[mode]

    def render_page() -> HttpResponse:
        t = Tournament.objects.filter(slug=slug).first()
        if t is None:
            raise Http404
        with translation.override(languages[0]):
            now = screen.progress(t)
            slides = []
            if now.current is not None and not now.finished:  # finished: the final table
                slides += screen.pairing_slides(t, now.current, languages)
            slides += screen.standings_slides(t, languages, now)
            names = screen.names(t, languages)
            return render(
                request,
                "championship/screen.html",
                {
                    "tournament": t,
                    "name": " · ".join(names),
                    "names": names,
                    "lang": languages[0],
                    "mode": mode,
                    "labels": screen.labels(languages),
                    "slides": slides,
                    "schedule": screen.schedule(t, languages, now),
                    "finished": now.finished,
                    "current": now.current,
                    "slide_seconds": screen.SLIDE_SECONDS,
                    "page_version": t.version,
                },
            )

    if not anonymous(request):
        return render_page()
    key = tables.tournament_key(slug)
    if key is None:
        raise Http404
    return page_for(request, f"screen:t{key.pk}:v{key.version}:{mode}", render_page)
