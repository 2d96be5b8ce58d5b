"""The spectators' polls, which nearly every request of a round in play is (issue 22: 600 on
the multiboard every 2 s, 300 on a game's page every 2 s): ``games.urls`` takes these very
patterns, and ``games.middleware.EarlyPollMiddleware`` resolves a request against them alone
to answer an unchanged poll before the rest of the middleware."""

from django.urls import path

import common.converters  # noqa: F401  - registers <id:…> (this list is read on its own too)

from . import multiboard_views, views

#: A game's live state, polled by its page (static/js/game_live.js).
LIVE = path("games/<id:pk>/live.json", views.live, name="live")
#: A round's multiboard feed, polled by the multiboard (static/js/multiboard.js).
FEED = path(
    "t/<slug:slug>/round/<id:number>/live.json",
    multiboard_views.feed,
    name="multiboard_feed",
)

urlpatterns = [LIVE, FEED]
