"""Why each board is as it is, by the criteria of the 2025 Dutch text (C.04.3): the score
group, who floats and why, which rule of Article 5.2 gave the colours, and warnings after
manual edits.

Notes are structured — ``{"code": "colour.alternate", "params": {...}}`` with starting
numbers, colours (``"w"``/``"b"``), scores as decimal strings (``"1.5"``) and 1-based round
numbers — so the web layer can say them in the organiser's language, like the rules
engine's error codes. ``NOTE_MESSAGES`` holds the English sentence of each code; an
explanation also carries its notes rendered in English (``floats``, ``colours``,
``warnings``) for pages that do not translate them yet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypedDict

from .dutch.colours import (
    ALTERNATE,
    BOTH_PREFERENCES,
    HIGHER_PREFERENCE,
    PAIRING_NUMBER,
    STRONGER_PREFERENCE,
    colour_rule,
    ranks_higher,
)
from .dutch.state import BLACK, DOWN, NO_COLOUR, UP, WHITE, Entrant, Field, build_field
from .model import Colour, Pair, Player, TournamentData

#: A note's parameter: a starting number, a 1-based round number, or a text (a colour
#: ``"w"``/``"b"``, a score like ``"1.5"``, a strength, a rule).
NoteParam = int | str


class Note(TypedDict):
    code: str
    params: dict[str, NoteParam]


#: English sentence of each note code (``str.format`` fields are the params; players are
#: starting numbers, the web layer puts names in).
NOTE_MESSAGES: dict[str, str] = {
    "pair.same_score": "both players have {score} points",
    "pair.scores": "{white_score} points against {black_score}",
    "float.down": "{player} floats down from {score} to {to} points (1.4.2)",
    "float.up": "{player} floats up from {score} to {to} points (1.4.2)",
    "float.repeated": (
        "{player} had a {direction}float {rounds_ago} round(s) before as well "
        "(C14-C21 could not avoid it)"
    ),
    "bye.pab": (
        "{player} gets the pairing-allocated bye: the lowest score that lets the round be "
        "paired ({score}, C5), and no earlier bye or unplayed win (C2)"
    ),
    "bye.requested": "{player} asked for a {kind} bye",
    "colour.both_preferences": "{player} gets {colour}: both colour preferences are met (5.2.1)",
    "colour.no_preferences": "{player} gets {colour}: neither player has played yet (5.2.5)",
    "colour.stronger_preference": (
        "{player} gets {colour}: a {strength} colour preference, stronger than the "
        "opponent's (5.2.2)"
    ),
    "colour.alternate": (
        "{player} gets {colour}: had {previous} in round {round}, when the opponent had "
        "{opponent_previous} (5.2.3)"
    ),
    "colour.higher_ranked_preference": (
        "{player} gets {colour}: the higher ranked player's preference (5.2.4)"
    ),
    "colour.pairing_number": (
        "{player} gets {colour}: the higher ranked player, pairing number {number} (5.2.5)"
    ),
    "colour.preference_not_met": "{player} wanted {preference} ({strength}) and gets {colour}",
    "warning.rematch": "{white} and {black} have already played each other",
    "warning.absolute_colour": "{player}'s absolute colour preference ({preference}) is not met",
    "warning.colours_reversed": "the colours are the other way round from rule {rule}",
}

_COLOUR = {WHITE: "w", BLACK: "b"}
_COLOUR_NAME = {"w": "White", "b": "Black"}


def note_text(note: Note) -> str:
    """The English sentence of a note."""
    params = {
        k: _COLOUR_NAME.get(v, v) if k in _COLOUR_KEYS and isinstance(v, str) else v
        for k, v in note.get("params", {}).items()
    }
    try:
        return NOTE_MESSAGES[note["code"]].format(**params)
    except (KeyError, IndexError, ValueError):
        return str(note.get("code", ""))


_COLOUR_KEYS = frozenset({"colour", "previous", "opponent_previous", "preference"})


@dataclass(frozen=True)
class ColourNeed:
    colour: Colour | None
    strength: str  # "absolute", "strong", "mild" or "" (none)


def colour_need(colours: list[Colour]) -> ColourNeed:
    """Colour preference per C.04.3 1.7 from the colours of the games played so far."""
    if not colours:
        return ColourNeed(None, "")
    whites = colours.count("w")
    diff = whites - (len(colours) - whites)
    last = colours[-1]
    other: Colour = "b" if last == "w" else "w"
    if diff > 1 or (len(colours) >= 2 and colours[-1] == colours[-2] == "w"):
        return ColourNeed("b", "absolute")
    if diff < -1 or (len(colours) >= 2 and colours[-1] == colours[-2] == "b"):
        return ColourNeed("w", "absolute")
    if diff == 1:
        return ColourNeed("b", "strong")
    if diff == -1:
        return ColourNeed("w", "strong")
    return ColourNeed(other, "mild")


@dataclass
class Explanation:
    """Why a board is as it is: what a player asking "why him, why Black?" needs."""

    white_score: str
    black_score: str
    score_group: str
    notes: list[Note] = field(default_factory=list)
    floats: list[str] = field(default_factory=list)  # the float and bye notes, in English
    colours: list[str] = field(default_factory=list)  # the colour notes, in English
    warnings: list[str] = field(default_factory=list)  # the warnings, in English
    white: int = 0
    black: int | None = None

    def add(self, code: str, **params: NoteParam) -> None:
        note: Note = {"code": code, "params": params}
        self.notes.append(note)
        kind = code.split(".", 1)[0]
        text = note_text(note)
        if kind == "colour":
            self.colours.append(text)
        elif kind == "warning":
            self.warnings.append(text)
        elif kind in ("float", "bye"):
            self.floats.append(text)


def _fmt(value: Fraction) -> str:
    return f"{float(value):g}"


def _strength(e: Entrant) -> str:
    if e.preference == NO_COLOUR:
        return ""
    return "absolute" if e.absolute else "strong" if e.strong else "mild"


def explain(
    data: TournamentData, pairs: list[Pair], round_number: int, *, ruleset: str = "dutch-2025"
) -> list[Explanation]:
    """One explanation per pair, from the state before ``round_number`` (the 2025 articles
    are cited for both rulesets: the colour rules did not change in substance)."""
    del ruleset
    upto = round_number - 1
    before = TournamentData(
        data.name,
        [Player(p.number, p.name, p.rating, p.club, p.rounds[:upto]) for p in data.players],
        max(data.total_rounds, upto + 1),
        data.initial_colour,
        data.points,
        list(data.forbidden_pairs),
        dict(data.accelerations),
    )
    state = build_field(before, initial_colour=data.initial_colour)
    scale = state.scale

    def score_of(number: int) -> Fraction:
        e = state.entrants.get(number)
        return Fraction(e.score, scale) if e is not None else Fraction(0)

    out = []
    for pair in pairs:
        out.append(_explain_pair(pair, state, score_of, round_number))
    return out


def _explain_pair(
    pair: Pair, state: Field, score_of: Callable[[int], Fraction], round_number: int
) -> Explanation:
    w = pair.white
    ws = score_of(w)
    if pair.black is None:
        e = Explanation(_fmt(ws), "", _fmt(ws), white=w)
        if pair.bye in ("", "U"):
            e.add("bye.pab", player=w, score=_fmt(ws))
        else:
            kind = {"H": "half-point", "F": "full-point", "Z": "zero-point"}.get(pair.bye, pair.bye)
            e.add("bye.requested", player=w, kind=kind)
        return e
    b = pair.black
    bs = score_of(b)
    e = Explanation(_fmt(ws), _fmt(bs), _fmt(min(ws, bs)), white=w, black=b)
    if ws == bs:
        e.add("pair.same_score", score=_fmt(ws))
    else:
        e.add("pair.scores", white_score=_fmt(ws), black_score=_fmt(bs))
    white, black = state.entrants.get(w), state.entrants.get(b)
    if white is None or black is None:
        return e
    if ws != bs:
        high, low = (white, black) if ws > bs else (black, white)
        e.add("float.down", player=high.number, score=_fmt(max(ws, bs)), to=_fmt(min(ws, bs)))
        e.add("float.up", player=low.number, score=_fmt(min(ws, bs)), to=_fmt(max(ws, bs)))
        for who, direction, float_kind in ((high, "down", DOWN), (low, "up", UP)):
            for back, got in enumerate(who.floats, start=1):
                if got == float_kind:
                    e.add("float.repeated", player=who.number, direction=direction, rounds_ago=back)
    colour, rule = colour_rule(white, black, state)
    if colour != WHITE:
        e.add("warning.colours_reversed", rule=rule)
    given = {w: "w", b: "b"}
    if rule == BOTH_PREFERENCES:
        chooser = white if white.preference != NO_COLOUR else black
        e.add(
            "colour.both_preferences",
            player=chooser.number,
            colour=given[chooser.number],
            **_last_colour(chooser),
        )
    elif rule == STRONGER_PREFERENCE:
        stronger = (
            white
            if (white.absolute and not black.absolute)
            or (white.absolute and white.imbalance > black.imbalance)
            or (white.strong and not black.strong and not black.absolute)
            else black
        )
        e.add(
            "colour.stronger_preference",
            player=stronger.number,
            colour=given[stronger.number],
            strength=_strength(stronger),
        )
    elif rule == ALTERNATE:
        mine, theirs, when = _last_difference(white, black)
        e.add(
            "colour.alternate",
            player=w,
            colour="w",
            previous=_COLOUR.get(mine, ""),
            opponent_previous=_COLOUR.get(theirs, ""),
            round=when,
        )
    elif rule == HIGHER_PREFERENCE:
        higher = white if ranks_higher(white, black) else black
        e.add(
            "colour.higher_ranked_preference",
            player=higher.number,
            colour=given[higher.number],
            **_last_colour(higher),
        )
    elif rule == PAIRING_NUMBER:
        higher = white if ranks_higher(white, black) else black
        code = (
            "colour.no_preferences"
            if white.preference == black.preference == NO_COLOUR
            else "colour.pairing_number"
        )
        e.add(code, player=higher.number, colour=given[higher.number], number=higher.rank + 1)
    for who in (white, black):
        if who.preference != NO_COLOUR and _COLOUR[who.preference] != given[who.number]:
            e.add(
                "colour.preference_not_met",
                player=who.number,
                preference=_COLOUR[who.preference],
                strength=_strength(who),
                colour=given[who.number],
            )
            if who.absolute:
                e.add(
                    "warning.absolute_colour",
                    player=who.number,
                    preference=_COLOUR[who.preference],
                )
    if b in white.forbidden and any(r.played and r.opponent == b for r in white.rounds):
        e.add("warning.rematch", white=w, black=b)
    del round_number
    return e


def _last_colour(e: Entrant) -> dict[str, NoteParam]:
    """The colour of ``e``'s latest played game and its round (1-based), for the note that
    says "had Black last round"; nothing before the first game."""
    for index in range(len(e.rounds), 0, -1):
        r = e.rounds[index - 1]
        if r.played and r.colour in _COLOUR:
            return {"last": _COLOUR[r.colour], "last_round": index}
    return {}


def _last_difference(a: Entrant, b: Entrant) -> tuple[int, int, int]:
    """5.2.3: the colours of ``a`` and ``b`` in the latest round, counted back over each
    one's played games, in which they differed, and that round of ``a`` (1-based)."""
    ca = [(i, r.colour) for i, r in enumerate(a.rounds, start=1) if r.played]
    cb = [r.colour for r in b.rounds if r.played]
    i, j = len(ca) - 1, len(cb) - 1
    while i >= 0 and j >= 0 and ca[i][1] == cb[j]:
        i -= 1
        j -= 1
    if i < 0 or j < 0:
        return NO_COLOUR, NO_COLOUR, 0
    return ca[i][1], cb[j], ca[i][0]
