"""The rules engine's errors in the user's language.

The engine raises ``EngineError`` with a stable ``code`` and ``params`` and says it in English;
here each code has a translatable sentence. Record errors carry a ``reason`` as well.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from championship.models import TERMINATIONS
from common.converters import int_or_none

from .engine import EngineError
from .models import SIDES

SIDE_NAMES = dict(SIDES)
TERMINATION_NAMES = dict(TERMINATIONS)

MESSAGES = {
    "syntax": gettext_lazy("cannot read “%(text)s”: a turn starts with a card such as 4:5"),
    "bad_card": gettext_lazy(
        "“%(text)s” is not a card: a card is two different numbers from 1 to 6, like 4:5"
    ),
    "unknown_card": gettext_lazy(
        "%(card)s is not one of the game's cards (1:2 1:4 1:5 2:3 2:5 2:6 3:4 3:6 4:5)"
    ),
    "bad_step": gettext_lazy(
        "cannot read the step “%(text)s”: a step is written from/to, like 13/8 or bar/22"
    ),
    "card_not_in_hand": gettext_lazy("%(side)s has no %(card)s left; cards in hand: %(hand)s"),
    "card_not_playable": gettext_lazy(
        "%(card)s cannot be played in full in this position; playable cards: %(playable)s"
    ),
    "wrong_number": gettext_lazy(
        "step %(step)s moves %(distance)s points, but the card %(card)s has %(remaining)s left"
    ),
    "no_checker": gettext_lazy(
        "step %(step)s starts from point %(point)s, where %(side)s has no checker"
    ),
    "no_checker_on_bar": gettext_lazy(
        "step %(step)s enters from the bar, but %(side)s has no checker there"
    ),
    "bar_first": ngettext_lazy(
        "step %(step)s: %(side)s has %(count)d checker on the bar and must enter it first",
        "step %(step)s: %(side)s has %(count)d checkers on the bar and must enter them first",
        "count",
    ),
    "bear_off": gettext_lazy("step %(step)s goes past point 1; there is no bearing off"),
    "point_held": gettext_lazy(
        "step %(step)s lands on point %(point)s, held by %(count)s %(opponent)s checkers"
    ),
    "false_hit": gettext_lazy(
        "step %(step)s is marked with * but there is no blot on point %(point)s"
    ),
    "incomplete": gettext_lazy(
        "the card %(card)s is not played in full: %(missing)s is still to be played"
    ),
    "extra_step": gettext_lazy(
        "step %(step)s is one too many: the card %(card)s has two numbers and the turn is complete"
    ),
    "won_already": gettext_lazy(
        "step %(step)s comes after the game was won (all 15 checkers home)"
    ),
    "ambiguous": gettext_lazy(
        "%(text)s can be played more than one way with different results: %(routes)s"
    ),
    "no_route": gettext_lazy("%(text)s cannot be played with the card %(card)s: %(reasons)s"),
    "game_over": gettext_lazy("the game is already over (%(result)s, %(termination)s)"),
    "termination_decided": gettext_lazy(
        "%(termination)s is not possible: the game is already decided"
    ),
    "forfeit_played": ngettext_lazy(
        "forfeit means the game was not played, but it has %(plies)d turn",
        "forfeit means the game was not played, but it has %(plies)d turns",
        "plies",
    ),
    "bad_termination": gettext_lazy(
        "“%(termination)s” is not a termination an organiser can enter"
    ),
    "adjudication_result": gettext_lazy(
        "an adjudication needs the arbiter's result: a win for White or Black, or a draw"
    ),
    "not_adjournable": gettext_lazy(
        "the game can be adjourned only right after ply 36, while it is undecided"
    ),
    "bad_board": gettext_lazy("invalid board: %(detail)s"),
}

REASONS = {
    "tag_line": gettext_lazy("the tag section: cannot read the line “%(line)s”"),
    "tag_twice": gettext_lazy("the tag %(name)s is given twice"),
    "no_result": gettext_lazy("the Result tag is missing"),
    "bad_result": gettext_lazy("Result “%(value)s” is not one of 1-0, 0-1, 1/2-1/2, 0-0, *"),
    "bad_termination": gettext_lazy(
        "Termination “%(value)s” is not one of home, blocked, time, cards, resign, agreement, "
        "forfeit, adjudication"
    ),
    "after_result": gettext_lazy("“%(token)s” comes after the result"),
    "unclosed_comment": gettext_lazy("a comment is not closed with }"),
    "move_number": gettext_lazy("move number %(token)s where %(want)s was due"),
    "bad_token": gettext_lazy("“%(token)s” is not a card, a step or a result"),
    "final_token": gettext_lazy("the moves end with %(token)s but the Result tag says %(value)s"),
    "other_termination": gettext_lazy(
        "the moves end the game by %(decided)s (%(result)s), not by %(termination)s"
    ),
    "other_result": gettext_lazy(
        "the moves end the game by %(decided)s with %(decided_result)s, but the Result is "
        "%(result)s"
    ),
    "star_termination": gettext_lazy("a record with result * has no Termination"),
    "needs_termination": gettext_lazy(
        "the moves do not decide the game, so Result %(result)s needs a Termination"
    ),
    "not_by_moves": gettext_lazy("the moves do not end the game by %(termination)s"),
    "termination_refused": gettext_lazy("%(termination)s is not possible at this point"),
    "termination_gives": gettext_lazy(
        "%(termination)s at this point gives %(gives)s, but the Result is %(result)s"
    ),
}

_SIDE_PARAMS = ("side", "opponent")
_TERMINATION_PARAMS = ("termination", "decided")


def _params(exc: EngineError) -> dict[str, Any]:
    params: dict[str, Any] = dict(exc.params)
    params.setdefault("card", exc.card or "")
    params.setdefault("side", exc.side or "")
    for key in _SIDE_PARAMS:
        value = str(params.get(key) or "").lower()
        if value in SIDE_NAMES:
            params[key] = SIDE_NAMES[value]
    for key in _TERMINATION_PARAMS:
        value = params.get(key)
        if value in TERMINATION_NAMES:
            params[key] = TERMINATION_NAMES[value]
    if params.get("playable") == "none":
        params["playable"] = _("none")
    if "remaining" in params:
        params["remaining"] = str(params["remaining"]).replace(" or ", " " + _("or") + " ")
    if "missing" in params:
        params["missing"] = str(params["missing"]).replace(" and ", " " + _("and") + " ")
    if exc.code == "no_route" and exc.causes:
        params["reasons"] = "; ".join(
            _("as %(route)s: %(reason)s") % {"route": route, "reason": detail(cause)}
            for route, cause in exc.causes
        )
    return params


def detail(exc: EngineError) -> str:
    """The sentence without the ply prefix, translated."""
    params = _params(exc)
    reason = params.get("reason")
    if reason in REASONS:
        return str(REASONS[reason]) % params
    template = MESSAGES.get(exc.code)
    if template is None:
        return exc.detail
    for key in ("count", "plies"):  # ints, for the plural's form
        if key in params:
            params[key] = int_or_none(str(params[key]))
            if params[key] is None:
                return exc.detail
    try:
        return template % params  # (not str(template): a plural's form follows the count)
    except (KeyError, TypeError, ValueError):
        return exc.detail


def message(exc: EngineError) -> str:
    """``Ply 17 (Black, 3:6): step …`` in the user's language."""
    text = detail(exc)
    if exc.ply is None:
        return text
    if exc.ply == 0:
        return _("Tags: %(detail)s") % {"detail": text}
    who = ", ".join(str(x) for x in (SIDE_NAMES.get(exc.side or ""), exc.card) if x)
    if who:
        return _("Ply %(ply)d (%(who)s): %(detail)s") % {"ply": exc.ply, "who": who, "detail": text}
    return _("Ply %(ply)d: %(detail)s") % {"ply": exc.ply, "detail": text}
