"""Game pages: the public replay, record downloads, the organisers' move sheet (turn by turn,
by clicks or notation, or a whole record at once) and the clock for a tablet at the board."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db.models import Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from championship.models import Board, Round, Tournament
from championship.services import describe
from common.cache import anonymous, computed, page_for
from common.converters import NumberError, parse_int
from common.permissions import organiser_required
from common.responses import text_download, version_json
from common.types import Actor

from . import analysis, board_svg, delay, multiboard, records, reports, selectors, services
from .clock import Clock, StoredClock, clock_at, clock_text
from .engine import BLACK, WHITE, card_text, playable_cards
from .engine.clicks import click_plays as engine_click_plays
from .engine.core import CARD_TEXTS, CARDS, GAME_PLIES, hand_text
from .engine.game import Game as EngineGame
from .messages import SIDE_NAMES, TERMINATION_NAMES
from .models import ORGANISER_TERMINATIONS, Game, GameAnalysis, Turn

PERM = "games.change_game"


#: Anonymous visitors go to the login page; users without the permission get 403.
organiser = organiser_required(PERM)


def _games() -> Any:
    return Game.objects.select_related("board__round__tournament", "board__white", "board__black")


def _public_game(pk: int) -> Game:
    game = get_object_or_404(_games(), pk=pk)
    if game.board is not None and game.board.round.status != Round.Status.PUBLISHED:
        raise Http404(_("This round is not published yet."))
    return game


def _public_key(pk: int) -> tuple[int, int | None, str, int]:
    """(game version, tournament version, analysis stamp, spectators' delay in minutes) of a
    public game page, in one query, with the 404s of ``_public_game``."""
    found = selectors.page_key(pk)
    if found is None:
        raise Http404
    version, tournament, stamp, round_status, minutes = found
    if round_status and round_status != Round.Status.PUBLISHED:
        raise Http404(_("This round is not published yet."))
    return version, tournament, stamp, minutes


def _moment(request: HttpRequest, pk: int, minutes: int) -> delay.Moment | None:
    """The moment of the game this request sees (None: as it is now): a spectator of a
    tournament with a delay sees it as it was that many minutes ago."""
    minutes = delay.delay_minutes_for(request, minutes)
    return delay.moment(pk, delay.cutoff(minutes)) if minutes else None


def _spectated(game: Game, moment: delay.Moment | None) -> tuple[Game, list[Turn]]:
    """The game and its turns as the request sees them (``_moment``)."""
    return delay.as_of(game, moment), delay.cut(_turns(game), moment)


def _turns(game: Game) -> list[Turn]:
    return list(game.turns.order_by("ply"))


# --- What the pages show ------------------------------------------------------------------
def hand_cells(hand: tuple[int, ...], playable: set[tuple[int, int]] | None = None) -> list[Any]:
    """A hand as the nine cards with their counts (and whether each can be played now)."""
    return [
        {
            "card": card_text(card),
            "count": n,
            "playable": playable is not None and card in playable,
        }
        for card, n in zip(CARDS, hand, strict=True)
    ]


def click_plays(eg: EngineGame) -> dict[str, list[dict[str, Any]]]:
    """Every legal play of every playable card with the orders its steps may be clicked in
    (the engine's answer, as the page's click entry wants it)."""
    if eg.outcome is not None or eg.adjourned:
        return {}
    return {
        card: [
            {"text": text, "orders": [[list(step) for step in order] for order in orders]}
            for text, orders in plays
        ]
        for card, plays in engine_click_plays(eg.state).items()
    }


def _side_info(eg: EngineGame, side: str, clock: Clock | None) -> dict[str, Any]:
    state = eg.state
    mover = state.to_move == side and eg.outcome is None
    playable = set(playable_cards(state)) if mover and not eg.adjourned else None
    return {
        "side": side,
        "label": SIDE_NAMES[side],
        "hand": hand_cells(state.hand(side), playable),
        "received": hand_text(state.received_pile(side)),
        "home": state.home_count(side),
        "bar": state.board(side)[25],
        "to_move": mover,
        "clock_ms": clock.left(side) if clock else None,
        "clock": clock_text(clock.left(side)) if clock else "",
        "running": bool(clock and clock.running == side),
    }


def game_context(game: Game, turns: list[Turn], eg: EngineGame | None = None) -> dict[str, Any]:
    eg = eg or selectors.replay(game, turns)
    white, black = selectors.names(game)
    clock = selectors.clock(game, eg)
    outcome = eg.outcome
    state = eg.state
    return {
        "game": game,
        "eg": eg,
        "turns": turns,
        "white_name": white,
        "black_name": black,
        "state": state,
        "outcome": outcome,
        "termination_name": TERMINATION_NAMES.get(outcome.termination, "") if outcome else "",
        "sides": [_side_info(eg, WHITE, clock), _side_info(eg, BLACK, clock)],
        "to_move_name": SIDE_NAMES[state.to_move],
        "board_svg": board_svg.board(
            state,
            numbering=state.to_move,
            label=ngettext("Position after %(n)d turn", "Position after %(n)d turns", state.ply)
            % {"n": state.ply},
        ),
        "clock": clock,
        # Before the clock is first started: the time each side will start with (the phase's
        # time control), so that the players at the board see their time, not dashes.
        "start_clock": (
            clock_text(1000 * (game.phase1_seconds if state.phase == 1 else game.phase2_seconds))
            if clock is None and outcome is None
            else ""
        ),
        "tournament": game.board.round.tournament if game.board else None,
        # The position as counts per point (each side in its own numbering, 25 the bar): the
        # click entry moves the checkers on the board as the steps are clicked.
        "position": {"white": list(state.white), "black": list(state.black)},
        # A finished tournament's games change only after a reopen: no controls offered.
        "frozen": services.frozen(game),
    }


def _ply_frames(eg: EngineGame) -> list[dict[str, Any]]:
    """What the replay shows at each ply: the board layer and the cards, clocks and turn."""
    frames = []
    last = len(eg.states) - 1
    side_names = {side: str(name) for side, name in SIDE_NAMES.items()}
    for i, state in enumerate(eg.states):
        turn = eg.turns[i - 1] if i else None
        numbering = turn.side if turn else WHITE
        frames.append(
            {
                "ply": i,
                "layer": board_svg.layer(state, numbering),
                "turn": turn.text if turn else "",
                "side": side_names[turn.side] if turn else "",
                "clock": (turn.clock or "") if turn else "",
                "white_hand": hand_text(state.hand(WHITE)),
                "black_hand": hand_text(state.hand(BLACK)),
                "white_received": hand_text(state.received_pile(WHITE)),
                "black_received": hand_text(state.received_pile(BLACK)),
                "phase": state.phase,
                "white_home": state.home_count(WHITE),
                "black_home": state.home_count(BLACK),
                # The side panels at this ply: cards in hand as [card, count], the bar.
                "white_cards": _hand_pairs(state.hand(WHITE)),
                "black_cards": _hand_pairs(state.hand(BLACK)),
                "white_bar": state.board(WHITE)[25],
                "black_bar": state.board(BLACK)[25],
                "to_move": state.to_move if (eg.outcome is None or i < last) else "",
            }
        )
    return frames


def _hand_pairs(hand: tuple[int, ...]) -> list[list[Any]]:
    """The cards in a hand as [card, count] (the side panels of the replay)."""
    return [[text, n] for text, n in zip(CARD_TEXTS, hand, strict=True) if n]


# --- Public pages -------------------------------------------------------------------------
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The public game page: replay with buttons and arrow keys; reloads itself while the
    game goes on. Kept whole for anonymous visitors per version of the game and (for a
    pairing's game: names, a result entered by hand) of its tournament. A spectator of a
    tournament with a delay sees the game as it was then (``games.delay``)."""
    version, tournament, stamp, minutes = _public_key(pk)
    moment = _moment(request, pk, minutes)
    if delay.behind(moment, version):
        assert moment is not None
        version, stamp = moment.version, "-"  # an analysis is of the game as it is now

    def render_page() -> HttpResponse:
        game, turns = _spectated(_public_game(pk), moment)
        eg = selectors.replay(game, turns)
        context = game_context(game, turns, eg)
        frames = _ply_frames(eg)
        context.update(
            frames=frames,
            last_frame=frames[-1],
            poll_seconds=settings.LIVE_POLL_SECONDS,
            live=eg.outcome is None and not game.adjourned,
            can_manage=request.user.has_perm(PERM),
        )
        context["analysis"] = analysis.page(game, eg, can_manage=context["can_manage"])
        if context["analysis"] and "lines" in context["analysis"]:
            context["report"] = reports.game_page(
                game, eg, [line.ply for line in context["analysis"]["lines"]], turns
            )
        return render(request, "games/detail.html", context)

    if not anonymous(request):
        return render_page()
    key = f"game{pk}:v{version}:t{tournament or ''}:a{stamp}:{get_language()}"
    return page_for(request, key, render_page)


@never_cache
def version(request: HttpRequest, pk: int) -> JsonResponse:
    """Polled by a game in progress (static/js/live.js) to reload when a turn is entered (for
    a spectator of a tournament with a delay: when it is shown, that much later)."""
    found = selectors.page_key(pk)
    if found is None:
        raise Http404
    moment = _moment(request, pk, found[4])
    if delay.behind(moment, found[0]):
        assert moment is not None
        return JsonResponse({"version": moment.version})
    return version_json(Game.objects.filter(pk=pk))


# --- The engine's analysis (games/analysis.py) -----------------------------------------
@never_cache
def analysis_status(request: HttpRequest, pk: int) -> JsonResponse:
    """Polled by a finished game's page while its analysis is queued or running
    (static/js/analysis.js). Nothing for a game in progress (for a spectator of a tournament
    with a delay: nothing while the game they see goes on)."""
    version, _tournament, _stamp, minutes = _public_key(pk)
    if delay.behind(_moment(request, pk, minutes), version):
        raise Http404(_("The game is not over."))
    game = _public_game(pk)
    eg = selectors.replay(game)
    if not analysis.finished(eg):
        raise Http404(_("The game is not over."))
    row = analysis.shown(game, eg)
    if row is None:
        return JsonResponse({"state": "none", "percent": 0})
    return JsonResponse({"state": analysis.state(row), "percent": row.progress})


@require_POST
@organiser
def analysis_start(request: HttpRequest, pk: int) -> HttpResponse:
    """An organiser asks for the analysis of a finished game (a friendly game, or one whose
    analysis failed); once per version of the game."""
    game = get_object_or_404(Game, pk=pk)
    row = analysis.request(game.pk)
    if row is not None:  # without a worker the analysis ran inline
        row = GameAnalysis.objects.filter(pk=row.pk).first()
    if row is None:
        messages.error(request, _("Only a finished game can be analysed."))
    elif analysis.state(row) == GameAnalysis.Status.DONE:
        messages.success(request, _("The game is analysed."))
    elif analysis.state(row) == GameAnalysis.Status.FAILED:
        messages.error(request, _("The analysis failed."))
    else:
        messages.success(request, _("The engine is analysing the game."))
    return redirect(game.get_absolute_url() + "#analysis")


def analysis_ply(request: HttpRequest, pk: int, ply: int) -> HttpResponse:
    """The better play of an analysed ply drawn on the board, beside the turn played."""

    def render_page() -> HttpResponse:
        game = _public_game(pk)
        turns = _turns(game)
        eg = selectors.replay(game, turns)
        row = analysis.shown(game, eg)
        if row is None or analysis.state(row) != GameAnalysis.Status.DONE:
            raise Http404(_("This game has no analysis."))
        plies = analysis.plies_of(row)
        if not 1 <= ply <= len(plies):
            raise Http404(_("This game has no such ply."))
        p = plies[ply - 1]
        before, after_played, after_best = analysis.better_play(eg, p)
        white, black = selectors.names(game)
        line = analysis.lines([p])[0]
        marked = [q.ply for q in plies if q.best != q.played]
        words = None
        board_line = None
        if p.best != p.played:
            words = reports.line_words(
                p.side, p.best, p.line, p.line_end, p.value_best, p.proven_best
            )
            shown = words["line"]
            if shown:
                board_line = board_svg.board(
                    reports.after_line(before, [p.best, *shown]),
                    numbering=p.side,
                    label=_("After the engine's line (%(n)d turns)") % {"n": len(shown) + 1},
                )
        return render(
            request,
            "games/analysis_ply.html",
            {
                "game": game,
                "white_name": white,
                "black_name": black,
                "line": line,
                "side_name": SIDE_NAMES[p.side],
                "board_before": board_svg.board(
                    before, numbering=p.side, label=_("Before ply %(n)d") % {"n": p.ply}
                ),
                "board_played": board_svg.board(
                    after_played,
                    numbering=p.side,
                    label=_("After the turn played: %(t)s") % {"t": p.played},
                ),
                "board_best": board_svg.board(
                    after_best,
                    numbering=p.side,
                    label=_("After the engine's play: %(t)s") % {"t": p.best},
                ),
                "words": words,
                "board_line": board_line,
                "previous": max((q for q in marked if q < ply), default=None),
                "next": min((q for q in marked if q > ply), default=None),
                "tournament": game.board.round.tournament if game.board else None,
            },
        )

    version, _tournament, stamp, minutes = _public_key(pk)
    if delay.behind(_moment(request, pk, minutes), version):
        raise Http404(_("This game has no analysis."))  # not over yet for this spectator
    if not anonymous(request):
        return render_page()
    return page_for(request, f"game{pk}:v{version}:a{stamp}:ply{ply}:{get_language()}", render_page)


def _live_summary(pk: int, moment: delay.Moment | None = None) -> dict[str, Any]:
    game, turns = _spectated(_public_game(pk), moment)
    eg = selectors.replay(game, turns)
    return {"ply": eg.ply, "to_move": eg.state.to_move, "over": eg.outcome is not None}


@never_cache
def live(request: HttpRequest, pk: int) -> HttpResponse:
    """What a spectator's game page polls (static/js/game_live.js): the game's version and
    its clocks now. What the viewer sees of the game (``multiboard.game_seen``: for a
    spectator of a tournament with a delay, the game as it was then) is kept a second and
    forgotten at the game's commit, so a poll reads the cache; the replay it needs (ply, side
    to move) is computed once per version of the game and of its tournament, and a poller
    that has this version already gets ``304`` without a body (ETag)."""
    spectator = delay.delay_minutes_for(request, 1) > 0
    seen = multiboard.game_seen(pk, spectator=spectator)
    if seen is None:
        raise Http404
    now = timezone.now()
    if seen.moment is not None:
        now = delay.cutoff(seen.minutes, now)
    versions = f"{seen.version}.{seen.tournament_version}"
    tag = f'"live-{pk}-{versions}"'
    if request.headers.get("If-None-Match") == tag:
        response = HttpResponse(status=304)
    else:
        moment = seen.moment
        summary = computed(f"live:g{pk}:v{versions}", lambda: _live_summary(pk, moment))
        stored = StoredClock(seen.clock_white_ms, seen.clock_black_ms, seen.clock_running_since)
        clock = clock_at(stored, to_move=summary["to_move"], over=summary["over"], now=now)
        response = JsonResponse(
            {
                "version": seen.version,
                "versions": versions,
                **summary,
                "white_ms": clock.white_ms if clock else None,
                "black_ms": clock.black_ms if clock else None,
                "running": clock.running if clock else None,
            }
        )
    response["ETag"] = tag
    return response


def record(request: HttpRequest, pk: int) -> HttpResponse:
    game = _public_game(pk)
    version, _tournament, _stamp, minutes = _public_key(pk)
    game, turns = _spectated(game, _moment(request, pk, minutes))
    text = records.game_record(game, turns)
    return text_download(text, f"game-{game.pk}.nrd")


def tournament_records(request: HttpRequest, slug: str, number: int | None = None) -> HttpResponse:
    """All games of a published round (or of the whole tournament) as one file."""
    t = get_object_or_404(Tournament, slug=slug)
    rounds = Q(board__round__tournament=t, board__round__status=Round.Status.PUBLISHED)
    if number is not None:
        if not t.round_set.filter(number=number, status=Round.Status.PUBLISHED).exists():
            raise Http404(_("This round is not published yet."))
        rounds &= Q(board__round__number=number)
    games = (
        _games()
        .filter(rounds)
        .order_by("board__round__number", "board__number", "number")
        .prefetch_related(Prefetch("turns", queryset=Turn.objects.order_by("ply")))
    )
    games = list(games)
    minutes = delay.delay_minutes_for(request, t.spectator_delay_minutes)
    moments = delay.moments([g.pk for g in games], delay.cutoff(minutes)) if minutes else {}
    text = "\n".join(
        records.game_record(
            delay.as_of(g, moments.get(g.pk)), delay.cut(list(g.turns.all()), moments.get(g.pk))
        )
        for g in games
    )
    name = f"{t.slug}-round-{number}.nrd" if number is not None else f"{t.slug}-games.nrd"
    return text_download(text, name)


def _standalone_games() -> list[Game]:
    return list(Game.objects.filter(board=None).order_by("-created_at", "-pk")[:200])


def game_list(request: HttpRequest) -> HttpResponse:
    """Games that stand alone (friendly and master-class games); organisers start new ones."""
    games = _standalone_games()
    return render(
        request,
        "games/list.html",
        {"games": games, "can_manage": request.user.has_perm(PERM)},
    )


@require_POST
@organiser
def new_game(request: HttpRequest) -> HttpResponse:
    white = request.POST.get("white_name", "").strip()[:150]
    black = request.POST.get("black_name", "").strip()[:150]
    event = request.POST.get("event", "").strip()[:200]
    try:
        p1 = parse_int(request.POST.get("phase1_minutes") or "30", minimum=1, maximum=600)
        p2 = parse_int(request.POST.get("phase2_minutes") or "30", minimum=1, maximum=600)
    except NumberError:
        p1 = p2 = 0
    if not white or not black or not (p1 and p2):
        messages.error(
            request,
            _("Enter both players' names and minutes per side from 1 to 600 for each phase."),
        )
        return render(
            request,
            "games/list.html",
            {
                "games": _standalone_games(),
                "can_manage": True,
                "form": request.POST,
            },
            status=400,
        )
    game = Game.objects.create(
        white_name=white,
        black_name=black,
        event=event,
        phase1_seconds=p1 * 60,
        phase2_seconds=p2 * 60,
    )
    return redirect("games:sheet", pk=game.pk)


@organiser
def board_game(request: HttpRequest, board: int, number: int) -> HttpResponse:
    """The sheet of game ``number`` of a pairing (made on first use)."""
    b = get_object_or_404(Board.objects.select_related("round__tournament"), pk=board)
    if b.round.status != Round.Status.PUBLISHED:
        raise Http404(_("This round is not published yet."))
    try:
        game = services.game_for(b, number)
    except services.Frozen as exc:  # a finished tournament gets no new sheet
        messages.error(request, str(exc))
        return redirect(
            "championship:round_manage", slug=b.round.tournament.slug, number=b.round.number
        )
    except services.GameError as exc:
        raise Http404(str(exc)) from None
    return redirect("games:sheet", pk=game.pk)


def pairing_game(request: HttpRequest, board: int, number: int) -> HttpResponse:
    """The public page of game ``number`` of a pairing (the tournament's pages link here by the
    board, without knowing the games)."""
    game = get_object_or_404(
        Game, board_id=board, number=number, board__round__status=Round.Status.PUBLISHED
    )
    return redirect("games:detail", pk=game.pk)


# --- The organisers' move sheet -----------------------------------------------------------
def posted_ply(request: HttpRequest) -> int | None:
    """The number of turns the posting page showed (its hidden ``ply``; the clock's script
    sends it too), so that a turn entered on an out-of-date page is refused: None if not
    sent, otherwise 0 to 72 turns, or ``GameError`` (a damaged form must not pass unchecked)."""
    value = request.POST.get("ply", "")
    if value == "":
        return None
    try:
        return parse_int(value, maximum=GAME_PLIES)
    except NumberError:
        raise services.GameError(
            _("The page sent no valid number of turns (%(value)s): reload it and try again.")
            % {"value": value[:10]}
        ) from None


def _ending(game: Game, typed: dict[str, str]) -> dict[str, str]:
    """What ending the game as ``typed`` would record, for the organiser to confirm."""
    outcome = services.game_termination_preview(
        game=game, termination=typed["termination"], side=typed["side"]
    )
    return {
        "result": describe(outcome.result, outcome.termination),
        "termination": typed["termination"],
        "side": typed["side"],
    }


@organiser
def sheet(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(_games(), pk=pk)
    typed: dict[str, str] = {}
    conflict: services.ResultConflict | None = None
    ending: dict[str, str] | None = None
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        overrule = request.POST.get("overrule") == "sheet"
        typed = {
            k: request.POST.get(k, "") for k in ("text", "clock", "record", "termination", "side")
        }
        try:
            if action == "terminate" and request.POST.get("confirm") != "1":
                # Ending a game asks first: say what would be recorded, record nothing yet.
                ending = _ending(game, typed)
            else:
                _sheet_action(request, game, action, typed, overrule)
                return redirect("games:sheet", pk=game.pk)
        except services.ResultConflict as exc:
            conflict = exc
            typed["action"] = action
            status = 409
        except services.GameError as exc:
            messages.error(request, str(exc))
            status = error_status(exc)
        game = get_object_or_404(_games(), pk=pk)
    turns = _turns(game)
    context = game_context(game, turns)
    eg = context["eg"]
    context.update(
        typed=typed,
        conflict=conflict,
        plays=click_plays(eg),
        terminations=ORGANISER_TERMINATIONS,
        ending=ending,
        can_adjourn=eg.can_adjourn and not game.adjourned,
        record_text=records.game_record(game, turns, eg),
    )
    return render(request, "games/sheet.html", context, status=status)


def _sheet_action(
    request: HttpRequest, game: Game, action: str, typed: dict[str, str], overrule: bool
) -> None:
    user = request.user
    expected_ply = posted_ply(request)
    if action == "turn":
        if not typed["text"].strip():
            raise services.GameError(_("Enter the turn, for example 4:5 24/20 13/8."))
        turn = services.turn_add(
            game=game,
            text=typed["text"],
            user=user,
            expected_ply=expected_ply,
            clock_text_written=typed["clock"],
            overrule=overrule,
        )
        messages.success(request, _("Ply %(n)d: %(turn)s") % {"n": turn.ply, "turn": turn.text})
    elif action == "undo":
        turn = services.turn_undo(game=game, user=user, expected_ply=expected_ply)
        messages.success(
            request, _("Ply %(n)d (%(turn)s) taken back.") % {"n": turn.ply, "turn": turn.text}
        )
    elif action == "terminate":
        typed["confirm"] = "1"  # a conflict's form sends the confirmed ending again
        outcome = services.game_terminate(
            game=game,
            termination=typed["termination"],
            side=typed["side"],
            user=user,
            overrule=overrule,
        )
        messages.success(
            request,
            _("The game is over: %(result)s.")
            % {"result": describe(outcome.result, outcome.termination)},
        )
    elif action == "upload":
        text = typed["record"]
        upload = request.FILES.get("file")
        if upload is not None:
            if upload.size and upload.size > services.MAX_RECORD_BYTES:
                raise services.GameError(_("The file is too large for a game record."))
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise services.GameError(_("The file is not UTF-8 text.")) from None
            typed["record"] = text
        if not text.strip():
            raise services.GameError(_("Paste the record or choose a file."))
        eg = services.sheet_replace(game=game, text=text, user=user, overrule=overrule)
        n = len(eg.turns)
        messages.success(
            request,
            ngettext("The sheet is saved: %(n)d turn.", "The sheet is saved: %(n)d turns.", n)
            % {"n": n},
        )
    elif action == "adjourn":
        services.game_adjourn(game=game, user=user)
    elif action == "resume":
        services.game_resume(game=game, user=user)
    else:
        raise services.GameError(_("Unknown action."))


# --- The clock ----------------------------------------------------------------------------
@organiser
def clock_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(_games(), pk=pk)
    services.clock_settle(game=game, user=request.user)
    game.refresh_from_db()
    turns = _turns(game)
    context = game_context(game, turns)
    context.update(
        plays=click_plays(context["eg"]),
        state_url=reverse("games:clock_state", kwargs={"pk": game.pk}),
        action_url=reverse("games:clock_action", kwargs={"pk": game.pk}),
    )
    return render(request, "games/clock.html", context)


def clock_state_data(game: Game, eg: EngineGame | None = None) -> dict[str, Any]:
    """The clock as the pages' scripts read it; ``eg``: the game's replay, if just made."""
    eg = eg or selectors.replay(game)
    c = selectors.clock(game, eg)
    return {
        "version": game.version,
        "ply": eg.ply,
        "to_move": eg.state.to_move,
        "running": c.running if c else None,
        "white_ms": c.white_ms if c else None,
        "black_ms": c.black_ms if c else None,
        "result": eg.result,
        "server_time": timezone.now().isoformat(),
    }


@never_cache
@organiser
def clock_state(request: HttpRequest, pk: int) -> JsonResponse:
    """The clock as the server sees it (and a fallen flag settled)."""
    game = get_object_or_404(Game, pk=pk)
    services.clock_settle(game=game, user=request.user)
    game.refresh_from_db()
    return JsonResponse(clock_state_data(game))


@require_POST
@organiser
def clock_action(request: HttpRequest, pk: int) -> JsonResponse:
    game = get_object_or_404(_games(), pk=pk)
    return clock_press(request, game, user=request.user)


def clock_press(
    request: HttpRequest, game: Game, *, user: Actor, tablet: bool = False
) -> JsonResponse:
    """A press of the clock (the organiser's clock page, the board's tablet): start, pause,
    or a turn with the mover's clock; answered with the clock as it is now."""
    action = request.POST.get("action")
    turn: Turn | None = None
    try:
        if action == "start":
            services.clock_start(game=game, user=user)
        elif action == "pause":
            services.clock_pause(game=game, user=user)
        elif action == "turn":
            turn = services.turn_add(
                game=game,
                text=request.POST.get("text", ""),
                user=user,
                expected_ply=posted_ply(request),
                from_clock=True,
                overrule=True,
                tablet=tablet,
            )
        else:
            raise services.GameError(_("Unknown action."))
    except services.GameError as exc:
        game = get_object_or_404(_games(), pk=game.pk)  # as it is now (a turn's: not read yet)
        return JsonResponse({"error": str(exc), **clock_state_data(game)}, status=error_status(exc))
    if turn is None:
        game.refresh_from_db()
        return JsonResponse(clock_state_data(game))
    # After a turn, the game and its replay as the service left them under the game's lock
    # (the sheet with this turn, the clocks it stored): the answer reads and replays nothing.
    return JsonResponse(clock_state_data(turn.game, turn.replay_after))


def error_status(exc: services.GameError) -> int:
    """The status of a refused clock press or turn: 409 when the tournament is finished (the
    game's state forbids it), otherwise 400 (the request itself is wrong or out of date)."""
    return 409 if isinstance(exc, services.Frozen) else 400
