"""Pages of what players do with the analysis (issue 24): how the report is computed, the
event's awards, training from a player's own mistakes, and the opening explorer. Thin: the
work is in ``games.reports`` and ``games.openings``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from championship.models import Entrant, Tournament
from common.permissions import organiser_required

from . import analysis, board_svg, openings, reports, selectors
from .engine import BLACK, WHITE
from .engine.analysis import VERDICTS
from .engine.core import CARD_TEXTS, SideName, State, hand_cards, hand_text, other
from .engine.exercise import MARGIN, Judgement
from .engine.game import Game as EngineGame
from .engine.moves import Play, legal_plays
from .engine.report import MIN_PLIES, TURNING_LOSS, WINNING
from .messages import SIDE_NAMES
from .models import EventAwards, Exercise

organiser = organiser_required("championship.change_tournament")


# --- How the report is computed --------------------------------------------------------------
def explained(request: HttpRequest) -> HttpResponse:
    """The definitions behind the report, the awards and the exercises (both languages)."""
    bounds = dict(VERDICTS)
    return render(
        request,
        "games/analysis_explained.html",
        {
            "best": bounds["best"],
            "good": bounds["good"],
            "inaccuracy": bounds["inaccuracy"],
            "mistake": bounds["mistake"],
            "winning": WINNING,
            "turning_loss": TURNING_LOSS,
            "min_plies": MIN_PLIES,
            "min_games": reports.AWARD_MIN_GAMES,
            "margin": MARGIN,
        },
    )


# --- The event's awards ----------------------------------------------------------------------
def _hidden(t: Tournament) -> bool:
    return EventAwards.objects.filter(tournament=t, hidden=True).exists()


def awards(request: HttpRequest, slug: str) -> HttpResponse:
    """The awards of a finished tournament, with links to the games; organisers may hide
    them (the public then gets a 404, organisers the page with a note)."""
    t = get_object_or_404(Tournament, slug=slug)
    can_manage = request.user.has_perm("championship.change_tournament")
    if t.status != Tournament.Status.FINISHED:
        raise Http404(_("The awards are given after the last round."))
    hidden = _hidden(t)
    if hidden and not can_manage:
        raise Http404(_("The organisers have not published the awards."))
    return render(
        request,
        "games/awards.html",
        {"tournament": t, "awards": reports.awards(t), "hidden": hidden, "can_manage": can_manage},
    )


@require_POST
@organiser
def awards_visibility(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_object_or_404(Tournament, slug=slug)
    hide = request.POST.get("hidden") == "1"
    EventAwards.objects.update_or_create(tournament=t, defaults={"hidden": hide})
    messages.success(
        request, _("The awards are hidden.") if hide else _("The awards are shown to everyone.")
    )
    return redirect("games:awards", slug=t.slug)


# --- Training --------------------------------------------------------------------------------
def _player(slug: str, pk: int) -> tuple[Tournament, Entrant]:
    t = get_object_or_404(Tournament, slug=slug)
    entrant = get_object_or_404(Entrant, tournament=t, pk=pk)
    return t, entrant


def _exercise_list(entrant: Entrant) -> list[Exercise]:
    return list(reports.exercises_for(entrants=reports.player_entrants(entrant)))


def training(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A player's page of exercises from their own mistakes, with the summary of their
    analysed games (includable parts: ``games/_player_report.html``,
    ``games/_training_entry.html``)."""
    t, entrant = _player(slug, pk)
    found = _exercise_list(entrant)
    return render(
        request,
        "games/training.html",
        {
            "tournament": t,
            "entrant": entrant,
            "exercises": found,
            "games": reports.reports_for(reports.player_entrants(entrant)),
        },
    )


def _plays_by_card(state: State) -> list[dict[str, Any]]:
    """Every legal play of the side to move, grouped by card (the answer form)."""
    out = []
    for card in hand_cards(state.hand(state.to_move)):
        plays = legal_plays(state, card)
        if plays:
            out.append({"card": f"{card[0]}:{card[1]}", "plays": [p.text for p in plays]})
    return out


def exercise(request: HttpRequest, slug: str, pk: int, exercise_id: int) -> HttpResponse:
    """One exercise: the position, the hand, "find the best card and play"; a POST checks
    the answer against the engine's judgement of every play (stored with the exercise) and
    shows the engine's line. Works without JavaScript; with it, the answer feeds the spaced
    repetition kept in the browser (static/js/training.js)."""
    t, entrant = _player(slug, pk)
    found = _exercise_list(entrant)
    index = next((i for i, e in enumerate(found) if e.pk == exercise_id), None)
    if index is None:
        raise Http404(_("There is no such exercise."))
    ex = found[index]
    game = ex.game
    turns = list(game.turns.order_by("ply"))
    eg = selectors.sheet(game, turns, terminations=False)
    state = eg.states[ex.ply - 1]
    judgement = reports.judgement_of(ex)
    side: SideName = WHITE if ex.side == WHITE else BLACK
    groups = _plays_by_card(state)
    choices = [p for g in groups for p in g["plays"]]
    context: dict[str, Any] = {
        "tournament": t,
        "entrant": entrant,
        "exercise": ex,
        "number": index + 1,
        "total": len(found),
        "next": found[index + 1] if index + 1 < len(found) else None,
        "side_name": SIDE_NAMES[ex.side],
        "opponent_name": SIDE_NAMES[other(side)],
        "groups": groups,
        "hand_cards": _hand(state, side),
        "opponent_cards": _hand(state, other(side)),
        "board": board_svg.board(
            state, numbering=ex.side, label=_("The position before ply %(n)d") % {"n": ex.ply}
        ),
        "received": hand_text(state.received_pile(side)) if state.phase == 1 else "",
        "answered": None,
        "typed": "",
    }
    status = 200
    if request.method == "POST":
        written = request.POST.get("typed", "").strip()
        chosen = request.POST.get("play", "")
        typed = written or chosen
        play = reports.answer_play(state, typed)
        if (play is None or play.text not in choices) and written and chosen:
            # A play chosen from the list after a mistake written (which the page keeps in
            # its box): the list's play is the answer, not the old text.
            typed = chosen
            play = reports.answer_play(state, chosen)
        context["typed"] = typed[:60]
        if play is None or play.text not in choices:
            context["error"] = _(
                "Choose one of the plays listed, or write a legal turn such as 4:5 24/20 13/8."
            )
            status = 400
        else:
            context["answered"] = _checked(ex, state, play, judgement)
    return render(request, "games/exercise.html", context, status=status)


def _hand(state: State, side: SideName) -> list[dict[str, Any]]:
    """A side's cards with their counts (the exercise's hands)."""
    hand = state.hand(side)
    return [{"card": text, "count": n} for text, n in zip(CARD_TEXTS, hand, strict=True) if n]


def _checked(ex: Exercise, state: State, play: Play, judgement: Judgement) -> dict[str, Any]:
    """What the page says after an answer: right or not, the engine's play and line."""
    right = judgement.right(play.text)
    mine = next((p for p in judgement.plays if p.play == play.text), None)
    analysed = None
    for p in analysis.plies_of(ex.analysis):
        if p.ply == ex.ply:
            analysed = p
    after_best = EngineGame(state)
    after_best.play(judgement.best)
    if analysed is not None and analysed.best == judgement.best:
        words = reports.line_words(
            ex.side,
            analysed.best,
            analysed.line,
            analysed.line_end,
            analysed.value_best,
            analysed.proven_best,
        )
    else:
        words = reports.line_words(
            ex.side, judgement.best, (), "", judgement.value, judgement.proven
        )
    return {
        "right": right,
        "play": play.text,
        "value": mine.value if mine else None,
        "best": judgement.best,
        "best_value": judgement.value,
        "proven": judgement.proven,
        "answers": judgement.answers[:8],
        "more_answers": max(0, len(judgement.answers) - 8),
        "words": words,
        "board_best": board_svg.board(
            after_best.state,
            numbering=ex.side,
            label=_("After the engine's play: %(t)s") % {"t": judgement.best},
        ),
    }


# --- The opening explorer ----------------------------------------------------------------------
def explorer(request: HttpRequest) -> HttpResponse:
    """Every recorded game's first plies as a tree: the turns played after the line in the
    address (``?line=``, turns separated by commas), how often and with what results,
    filtered by player and colour."""
    line = openings.parse_line(request.GET.get("line", "")[:800])
    player = " ".join(request.GET.get("player", "").split())[:150]
    colour = request.GET.get("colour", "")
    if colour not in (WHITE, BLACK):
        colour = ""
    valid, eg = openings.playable_line(line)
    found = openings.branches(valid, player=player, colour=colour)
    steps = [{"text": text, "line": ",".join(valid[: i + 1])} for i, text in enumerate(valid)]
    return render(
        request,
        "games/explorer.html",
        {
            "line": valid,
            "line_param": ",".join(valid),
            "steps": steps,
            "dropped": len(line) - len(valid),
            "branches": found,
            "totals": openings.totals(found),
            "player": player,
            "colour": colour,
            "players": openings.players(),
            "board": board_svg.board(
                eg.state,
                numbering=eg.state.to_move,
                label=ngettext(
                    "Position after %(n)d turn", "Position after %(n)d turns", eg.state.ply
                )
                % {"n": eg.state.ply},
            ),
            "to_move": SIDE_NAMES[eg.state.to_move],
            "depth": openings.OPENING_PLIES,
        },
    )
