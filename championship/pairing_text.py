"""The pairing engine's explanations and errors in the user's language, the way an arbiter says
them ("both 1½ points; Ivanova gets White: she had Black in round 2"). The engine gives codes
and parameters with players as starting numbers (championship.pairing.explain, .errors); the
names and the words are put in here."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, ngettext_lazy, pgettext

from common.converters import int_or_none

from . import labels
from .pairing import PairingError

NOTES = {
    "pair.same_score": gettext_lazy("both %(score)s"),
    # The second score is a bare number: "2 points against 1½".
    "pair.scores": gettext_lazy("%(white_score)s against %(black_number)s"),
    "float.down": gettext_lazy("%(player)s floats down"),
    "float.up": gettext_lazy("%(player)s floats up"),
    "float.repeated": ngettext_lazy(
        "%(player)s floated %(direction)s %(rounds_ago)d round before as well: no other "
        "pairing avoided it",
        "%(player)s floated %(direction)s %(rounds_ago)d rounds before as well: no other "
        "pairing avoided it",
        "rounds_ago",
    ),
    "bye.pab": gettext_lazy(
        "%(player)s gets the bye: the lowest score that lets everyone else be paired, and no "
        "bye or win without play before"
    ),
    "bye.requested": gettext_lazy("%(player)s asked for a %(kind)s bye"),
    "colour.both_preferences": gettext_lazy(
        "%(player)s gets %(colour)s: both players get the colour they are due"
    ),
    # colour.both_preferences and colour.higher_ranked_preference with the player's latest
    # played game: the colour alternates.
    "colour.due.last": gettext_lazy("%(player)s gets %(colour)s: had %(last)s last round"),
    "colour.due.earlier": gettext_lazy(
        "%(player)s gets %(colour)s: had %(last)s in round %(last_round)s"
    ),
    "colour.no_preferences": gettext_lazy(
        "%(player)s gets %(colour)s: neither has played yet, the higher starting number decides"
    ),
    "colour.stronger_preference": gettext_lazy(
        "%(player)s gets %(colour)s: a %(strength)s claim to it, stronger than the opponent's"
    ),
    "colour.alternate": gettext_lazy(
        "%(player)s gets %(colour)s: had %(previous)s in round %(round)s, when the opponent had "
        "%(opponent_previous)s"
    ),
    # colour.alternate when the round it looks back to is the one just played.
    "colour.alternate.last": gettext_lazy(
        "%(player)s gets %(colour)s: had %(previous)s last round, the opponent "
        "%(opponent_previous)s"
    ),
    "colour.higher_ranked_preference": gettext_lazy(
        "%(player)s gets %(colour)s: the higher ranked player gets the colour due"
    ),
    "colour.pairing_number": gettext_lazy(
        "%(player)s gets %(colour)s: the higher ranked player (pairing number %(number)s)"
    ),
    "colour.preference_not_met": gettext_lazy(
        "%(player)s was due %(preference)s (%(strength)s) and gets %(colour)s"
    ),
    "warning.rematch": gettext_lazy("%(white)s and %(black)s have already played each other"),
    "warning.absolute_colour": gettext_lazy(
        "%(player)s must have %(preference)s and does not get it"
    ),
    "warning.colours_reversed": gettext_lazy("the colours are the other way round from the rule"),
}
ERRORS = {
    "pairing.no_legal_pairing": gettext_lazy(
        "No legal pairing exists for the next round: check the forbidden pairs, requested byes "
        "and withdrawals."
    ),
    "pairing.all_rounds_paired": gettext_lazy(
        "All %(rounds)s rounds are paired: there are no rounds left."
    ),
    "pairing.unfinished_round": gettext_lazy(
        "Player %(player)s has no result in round %(round)s yet."
    ),
    "pairing.unknown_opponent": gettext_lazy(
        "Player %(player)s has an unknown opponent in round %(round)s."
    ),
    "pairing.unknown_ruleset": gettext_lazy("%(ruleset)s is not a pairing ruleset."),
    "pairing.legacy_input": gettext_lazy("The 2017 pairing rules could not read the tournament."),
    "roundrobin.too_few": gettext_lazy("A round robin needs at least two players."),
    "roundrobin.no_such_round": gettext_lazy(
        "The round robin has %(rounds)s rounds; round %(round)s is not one of them."
    ),
    # Refusals of the pairing service before the engine runs (championship.services.rounds).
    "round.too_few_checked_in": gettext_lazy(
        "At least two checked-in entrants are needed to pair round 1."
    ),
    "round.draft_pending": gettext_lazy(
        "Round %(round)s is still a draft: publish or delete it first."
    ),
    "round.results_missing": gettext_lazy("Round %(round)s still has games without a result."),
    "round.unconfirmed": gettext_lazy(
        "Round %(round)s has results not yet confirmed by a second organiser (boards "
        "%(boards)s). Confirm them, or pair anyway."
    ),
}
_PLAYER_KEYS = ("player", "white", "black")
_SCORE_KEYS = ("score", "to", "white_score", "black_score")


def number(text: str) -> str:
    """``1.5`` → ``1½`` (a score without its unit)."""
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return text
    whole, half = divmod(value, 1)
    shown = (str(whole) if whole or not half else "") + ("½" if half == Fraction(1, 2) else "")
    if half and half != Fraction(1, 2):
        shown = labels.shown(f"{float(value):g}")
    return shown or "0"


def points(text: str) -> str:
    """``1.5`` → ``1½ points`` in the user's language."""
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        return text
    whole, half = divmod(value, 1)
    count = int(whole) if not half else 2  # "1½ points", «1½ очка»
    return ngettext("%(n)s point", "%(n)s points", count) % {"n": number(text)}


def _colour(code: str) -> str:
    return {
        "w": pgettext("colour in a sentence", "White"),
        "b": pgettext("colour in a sentence", "Black"),
    }.get(code, code)


def note(note: Mapping[str, Any], names: Mapping[int, str], round_number: int | None = None) -> str:
    """One note of an explanation, with the players' names (``round_number``: the round the
    explanation belongs to, so that the round before it is said "last round")."""
    code = note.get("code", "")
    params_in = note.get("params", {})
    if not isinstance(params_in, Mapping):
        return ""
    previous = round_number - 1 if round_number is not None else None
    if code == "colour.alternate" and str(params_in.get("round")) == str(previous):
        code = "colour.alternate.last"
    elif (
        code in ("colour.both_preferences", "colour.higher_ranked_preference")
        and params_in.get("last") in ("w", "b")
        and params_in.get("last") != params_in.get("colour")
    ):
        last = str(params_in.get("last_round")) == str(previous)
        code = "colour.due.last" if last else "colour.due.earlier"
    template = NOTES.get(code)
    if template is None:
        return ""
    params = dict(note.get("params", {}))
    for key in _PLAYER_KEYS:
        if key in params:
            params[key] = names.get(params[key], str(params[key]))
    if "black_score" in params:
        params["black_number"] = number(str(params["black_score"]))
    for key in _SCORE_KEYS:
        if key in params:
            params[key] = points(str(params[key]))
    for key in ("colour", "previous", "opponent_previous", "preference", "last"):
        if key in params:
            params[key] = _colour(params[key])
    if "strength" in params:
        params["strength"] = {
            "absolute": _("absolute"),
            "strong": _("strong"),
            "mild": _("mild"),
        }.get(params["strength"], params["strength"])
    if "direction" in params:
        params["direction"] = {"up": _("up"), "down": _("down")}.get(
            params["direction"], params["direction"]
        )
    if "kind" in params:
        params["kind"] = {
            "half-point": _("half-point"),
            "full-point": _("full-point"),
            "zero-point": _("zero-point"),
        }.get(params["kind"], params["kind"])
    if "rounds_ago" in params:  # an int for the plural's form (a stored note may hold text)
        params["rounds_ago"] = int_or_none(str(params["rounds_ago"]))
    try:
        return template % params  # (not str(template): a plural's form follows the count)
    except (KeyError, TypeError, ValueError):
        return str(note.get("code", ""))


def explanation(
    data: Mapping[str, Any], names: Mapping[int, str], round_number: int | None = None
) -> str:
    """A board's stored explanation (``Board.explanation``) as one line."""
    notes = data.get("notes", []) if isinstance(data, Mapping) else []
    return "; ".join(
        text for n in notes if isinstance(n, Mapping) and (text := note(n, names, round_number))
    )


def error_text(code: str, params: Mapping[str, Any], fallback: str = "") -> str:
    """The pairing's error ``code`` in the user's language (``fallback`` for an unknown one)."""
    template = ERRORS.get(code)
    if template is None:
        return fallback or code
    try:
        return str(template) % dict(params)
    except (KeyError, TypeError, ValueError):
        return str(template)


def error(exc: PairingError) -> str:
    """A pairing error in the user's language."""
    return error_text(exc.code, exc.params, str(exc))


def plain(params: Mapping[str, Any]) -> dict[str, Any]:
    """An error's params as JSON keeps them (numbers and text), for the job's status."""
    return {
        str(k): v if isinstance(v, int | float | str) or v is None else str(v)
        for k, v in params.items()
    }
