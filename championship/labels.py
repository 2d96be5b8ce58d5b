"""Names of the tie-breaks and of the table symbols on the public pages, in the user's language
(the pairing package keeps its FIDE abbreviations and English names, and imports no Django)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.formats import get_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .pairing import TIEBREAKS


def num(value: object) -> str:
    """Points as the tables and the exports write them: 1.5 → "1.5", 2.0 → "2", 10.75 →
    "10.75" (like floatformat:"-2"); the same in every language (cached tables, files)."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")  # type: ignore[arg-type]


def points_writer() -> Callable[[object], str]:
    """Points as a page shows them, in the page's language: "1.5" in English, "1,5" in
    Russian — the decimal separator floatformat writes too, so that every page of one
    language writes points one way. The writer takes a number or a ``num()`` text; made once
    per table (the language looked up once, not for each of thousands of cells)."""
    separator = str(get_format("DECIMAL_SEPARATOR"))

    def write(value: object) -> str:
        text = value if isinstance(value, str) else num(value)
        return text.replace(".", separator) if "." in text else text

    return write


def shown(value: object) -> str:
    """One number as ``points_writer()`` writes it."""
    return points_writer()(value)


#: Tie-break key → (full name, what it counts), shown in the legend under the standings.
TIEBREAK_NAMES: dict[str, tuple[Promise, Promise]] = {
    "bh": (_("Buchholz"), _("the sum of the opponents' points")),
    "bh_c1": (
        _("Buchholz Cut-1"),
        _("the sum of the opponents' points without the lowest one"),
    ),
    "bh_m1": (
        _("Median Buchholz"),
        _("the sum of the opponents' points without the highest and the lowest"),
    ),
    "sb": (
        _("Sonneborn-Berger"),
        _("the points of the opponents beaten plus half those of the opponents drawn with"),
    ),
    "de": (
        _("Direct encounter"),
        _("the points scored against the players tied with"),
    ),
    "win": (
        _("Number of wins"),
        _(
            "rounds won, counting the wins by forfeit and the byes worth a win "
            "(FIDE C.07), unlike W"
        ),
    ),
    "bwg": (_("Games won with Black"), _("games won over the board with Black")),
    "aro": (_("Average rating of opponents"), _("the average rating of the opponents met")),
}
assert set(TIEBREAK_NAMES) == {t.key for t in TIEBREAKS}


def tiebreak_name(key: str) -> str:
    return str(TIEBREAK_NAMES[key][0])


#: The result symbols of the crosstable and the player's page, by TRF code, each distinct:
#: a forfeit win is not a bye.
RESULT_SYMBOLS = {
    "1": "1",
    "0": "0",
    "=": "½",
    "W": "1",
    "L": "0",
    "D": "½",
    "+": "+",
    "-": "−",
    "U": "B",
    "H": "H",
    "F": "F",
    "Z": "Z",
    "*": "",
}

#: A pairing's outcome from the player's point of view, by their TRF code (the player's own
#: page, which has no legend for the symbols): a forfeit is a win or a loss too, its
#: termination ("forfeit") says how.
OUTCOME_NAMES: dict[str, Promise] = {
    "1": _("Win"),
    "W": _("Win"),
    "+": _("Win"),
    "0": _("Loss"),
    "L": _("Loss"),
    "-": _("Loss"),
    "=": _("Draw"),
    "D": _("Draw"),
}


def outcome(code: str, terminations: list[str]) -> str:
    """A pairing's result in words from the player's point of view: "Win (home)", "Loss
    (forfeit)", "Draw (agreement; home)" — the termination names of ``services.describe``,
    each once; the symbol itself for a code without a word (a bye), "" while undecided."""
    word = OUTCOME_NAMES.get(code)
    if word is None:
        return RESULT_SYMBOLS.get(code, "")
    how = "; ".join(dict.fromkeys(terminations))
    return f"{word} ({how})" if how else str(word)


#: The crosstable's legend: symbol → meaning.
RESULT_LEGEND: list[tuple[str, Promise]] = [
    ("1 ½ 0", _("won, drawn, lost over the board")),
    ("+ −", _("won, lost by forfeit (the game was not played)")),
    ("B", _("pairing-allocated bye (no opponent this round; the points of a bye)")),
    ("H", _("half-point bye, requested by the player")),
    ("F", _("full-point bye")),
    ("Z", _("not paired: absent, withdrawn or not yet entered (no points)")),
    ("w b", _("the colour played: White, Black")),
]

#: A bye's name by its code (pairings, the player's page).
BYE_NAMES: dict[str, Promise] = {
    "U": _("pairing-allocated bye"),
    "H": _("half-point bye (requested)"),
    "F": _("full-point bye"),
    "Z": _("not playing this round"),
}

#: The mark of a result entered but not yet confirmed by a second arbiter.
PROVISIONAL = "†"
