"""The live multiboard of a round (``games.multiboard``): the page and the feed it polls.
Public; a spectator of a tournament with a delay sees the games that much later, the arbiters
and organisers live (``games.delay``)."""

from __future__ import annotations

import time

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language

from championship.models import Tournament
from common.cache import anonymous, page_for

from . import board_svg, delay, multiboard


def _key(request: HttpRequest, slug: str, number: int) -> multiboard.FeedKey:
    spectator = not (
        request.user.is_authenticated and request.user.has_perm(delay.UNDELAYED_PERMISSION)
    )
    key = multiboard.feed_key(slug, number, spectator=spectator)
    if key is None:
        raise Http404
    return key


#: How long the page a spectator opens may be older than the round: the page's script asks for
#: the feed (exact, ``feed``) as soon as it loads, so what it shows is current at once.
PAGE_SECONDS = multiboard.POLL_SECONDS


def page_key(key: multiboard.FeedKey) -> str:
    """The key of the multiboard page a spectator opens: the round as it was within the last
    ``PAGE_SECONDS`` (not each game's version). Spectators open it in crowds when a round
    starts, while every turn makes a new feed (several a second in a 30-board round): one
    render each ``PAGE_SECONDS``, not one a turn (docs/performance.md, "The hall"). A delayed
    spectator's page is never newer than the delay allows: only older."""
    return f"{key.stem}:page:{int(time.time() // PAGE_SECONDS)}"


def page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every game of a published round at once; the page follows them by itself."""
    key = _key(request, slug, number)

    def render_page() -> HttpResponse:
        data = multiboard.feed(key)
        items = [
            dict(item, svg=board_svg.frame(item["layer"], label=item["title"]))
            for item in data["games"]
        ]
        tournament = Tournament.objects.get(pk=key.tournament_id)
        return render(
            request,
            "games/multiboard.html",
            {
                "tournament": tournament,
                "number": number,
                "data": data,
                "items": items,
                "poll_seconds": multiboard.POLL_SECONDS,
            },
        )

    if not anonymous(request):
        response = render_page()
    else:
        response = page_for(
            request,
            f"{page_key(key)}:{get_language()}",
            render_page,
            seconds=PAGE_SECONDS * 5,
        )
    response["X-Now"] = str(multiboard.now_ms())
    return response


def feed(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """What the multiboard polls: kept whole per key (the same for every viewer who sees the
    same), ``304`` for a poller that has it; ``X-Now`` is the server's time for the clocks."""
    key = _key(request, slug, number)
    response = page_for(
        request,
        f"{key.key}:feed:{get_language()}",
        lambda: JsonResponse(multiboard.feed(key)),
    )
    response["X-Now"] = str(multiboard.now_ms())
    patch_cache_control(response, no_cache=True)
    return response
