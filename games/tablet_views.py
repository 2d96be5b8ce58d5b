"""The tablet at a board: the game's clock and entry page opened from a signed link (its QR
code on the round's sheet), with no account. It enters turns, presses the clocks, records a
resignation or a draw agreed, and at the end takes each player's confirmation of the result,
or a disagreement for the arbiter; nothing else (no taking back, no editing the sheet: the
arbiter does that on the organisers' sheet). Whether the link still works is checked at every
request (``selectors.tablet_refusal``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from . import selectors, services, tablet
from .engine.game import Game as EngineGame
from .models import Game, Turn
from .views import (
    _games,
    _turns,
    click_plays,
    clock_press,
    clock_state_data,
    error_status,
    game_context,
)


class Refused(Exception):
    """The link does not work (for this game, or any more): the message says why. ``over``:
    because the game is over (its result confirmed or entered) — the end of a game played,
    which the page says as such, not as a broken link."""

    def __init__(self, reason: str, *, over: bool = False) -> None:
        super().__init__(reason)
        self.over = over


def _signed_for(pk: int, token: str) -> None:
    """Refused unless the link is signed for game ``pk`` (a check that reads nothing)."""
    if tablet.game_of(token) != pk:
        raise Refused(_("This link is not for this game."))


def _linked(pk: int, token: str) -> Game:
    """The link's game, if the link is for it and its round is open (the checks that need no
    replay of the sheet)."""
    _signed_for(pk, token)
    # With what the link's checks and the replay ask next (two round trips fewer a request:
    # the tablet's page and its state, every few seconds at every board).
    game = get_object_or_404(_games().annotate(**selectors.link_reads()), pk=pk)
    reason = selectors.tablet_round_refusal(game)
    if reason is not None:
        raise Refused(reason)
    return game


def _game(pk: int, token: str) -> tuple[Game, EngineGame, list[Turn]]:
    """The link's game, its replay and its turns (read once: the page and the state reuse
    them unless a flag falls meanwhile)."""
    game = _linked(pk, token)
    turns = _turns(game)
    eg = selectors.replay(game, turns)
    reason = selectors.tablet_game_refusal(game, eg)  # (its round: checked by ``_linked``)
    if reason is not None:
        raise Refused(reason, over=eg.outcome is not None and not game.disputed)
    return game, eg, turns


def _refused(request: HttpRequest, refusal: Refused, *, json: bool = False) -> HttpResponse:
    if json:
        return JsonResponse({"error": str(refusal), "refused": True}, status=403)
    return render(
        request,
        "games/tablet_refused.html",
        {"reason": str(refusal), "over": refusal.over, "kiosk": True},
        status=403,
    )


def _urls(pk: int, token: str) -> dict[str, str]:
    from django.urls import reverse

    kwargs: dict[str, Any] = {"pk": pk, "token": token}
    return {
        "page_url": reverse("games:tablet", kwargs=kwargs),
        "state_url": reverse("games:tablet_state", kwargs=kwargs),
        "action_url": reverse("games:tablet_action", kwargs=kwargs),
    }


@never_cache
def page(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    """GET: the clock and entry page. POST (the page's forms): resign, a draw agreed, a
    player's confirmation of the result or disagreement."""
    try:
        game, eg, turns = _game(pk, token)
    except Refused as exc:
        return _refused(request, exc)
    if request.method == "POST":
        try:
            _result_action(request, game)
        except services.GameError as exc:
            messages.error(request, str(exc))
            return _page(request, game, token, status=error_status(exc))
        return redirect("games:tablet", pk=pk, token=token)
    if not services.clock_settle(game=game, user=None):
        return _page(request, game, token, seen=(eg, turns))
    game.refresh_from_db()  # a flag fell now
    return _page(request, game, token)


def _page(
    request: HttpRequest,
    game: Game,
    token: str,
    *,
    status: int = 200,
    seen: tuple[EngineGame, list[Turn]] | None = None,
) -> HttpResponse:
    """The page; ``seen``: the game's replay and turns as just read (else read again)."""
    eg, turns = seen if seen is not None else (None, _turns(game))
    context = game_context(game, turns, eg)
    eg = context["eg"]
    confirmed = selectors.confirmed_by(game, selectors.result_key(eg))
    for side in context["sides"]:
        side["confirmed"] = confirmed[side["side"]]
    # A kiosk: the players at the board get no way off the page but the language switch.
    context.update(_urls(game.pk, token), plays=click_plays(eg), tablet=True, kiosk=True)
    return render(request, "games/clock.html", context, status=status)


def _result_action(request: HttpRequest, game: Game) -> None:
    action = request.POST.get("action", "")
    side = request.POST.get("side", "")
    if action == "resign":
        services.game_terminate(game=game, termination="resign", side=side or "-", user=None)
        messages.success(request, _("The game is over: confirm the result below."))
    elif action == "agreement":
        services.game_terminate(game=game, termination="agreement", side="", user=None)
        messages.success(request, _("The game is over: confirm the result below."))
    elif action == "confirm":
        if services.game_confirm(game=game, side=side):
            messages.success(request, _("Both players confirmed the result. Thank you!"))
    elif action == "dispute":
        services.game_dispute(game=game, side=side)
        messages.warning(request, _("The arbiter is called to decide the result."))
    else:
        raise services.GameError(_("Unknown action."))


@never_cache
def state(request: HttpRequest, pk: int, token: str) -> JsonResponse:
    try:
        game, eg, _turns_read = _game(pk, token)
    except Refused as exc:
        return _refused(request, exc, json=True)  # type: ignore[return-value]
    if not services.clock_settle(game=game, user=None):
        return JsonResponse(clock_state_data(game, eg))
    game.refresh_from_db()  # a flag fell now
    return JsonResponse(clock_state_data(game))


@require_POST
def action(request: HttpRequest, pk: int, token: str) -> JsonResponse:
    """The clock's presses: start, pause, and a turn with the mover's clock.

    A turn (the hall's busiest write) is let through on the link's signature alone: the game
    is read once, under its lock, where the link's round is checked (``services.turn_add``
    with ``tablet``) and the sheet replayed, and a finished game refuses any turn. Only a
    refused turn has the whole link checked (a finished, confirmed game answers as a link
    that no longer works, as every other request of it does)."""
    turn = request.POST.get("action") == "turn"
    try:
        if turn:
            _signed_for(pk, token)
            game = Game(pk=pk)  # only its key: the turn reads the game under its lock
        else:
            game = _game(pk, token)[0]
    except Refused as exc:
        return _refused(request, exc, json=True)  # type: ignore[return-value]
    response = clock_press(request, game, user=None, tablet=True)
    if turn and response.status_code != 200:
        try:
            _game(pk, token)
        except Refused as exc:
            return _refused(request, exc, json=True)  # type: ignore[return-value]
    return response
