"""Swiss pairings by the FIDE Dutch system (C.04.3), behind our own interface.

Two rulesets, a tournament setting (``RULESETS``, keys stable, names in English for the web
layer to translate):

- ``dutch-2025`` (default): the text as revised in 2025 (approved 13 April 2024, in force
  from 1 July 2025; FIDE applied it from 1 February 2026), our implementation in
  ``dutch/``: weighted matching on bbpPairings' compiled blossom algorithm, identical to the
  reference engine bbpPairings 6.0.0 on the shared test vectors;
- ``dutch-2017``: the text of 2017, by py4swiss 0.3.1 as this platform paired before, for
  replaying older events.

See docs/pairing.md."""

from __future__ import annotations

from dataclasses import dataclass

from .dutch.engine import DutchPairer
from .dutch.legacy import pair_2017
from .dutch.state import build_field
from .errors import PairingError
from .explain import ColourNeed, Explanation, colour_need, explain
from .model import Pair, TournamentData
from .trf import TrfFile, parse_trf


@dataclass(frozen=True)
class Ruleset:
    key: str  # stored in a tournament's settings and written to TRF exports (192 line)
    name: str  # English; the web layer translates it
    article: str  # the FIDE Handbook text it follows


RULESETS: tuple[Ruleset, ...] = (
    Ruleset("dutch-2025", "FIDE Dutch (2025)", "C.04.3 FIDE (Dutch) System, 2025 text"),
    Ruleset("dutch-2017", "FIDE Dutch (2017)", "C.04.3 FIDE (Dutch) System, 2017 text"),
)
RULESET_KEYS: tuple[str, ...] = tuple(r.key for r in RULESETS)
DEFAULT_RULESET = "dutch-2025"
#: Choices for a form or model field: (key, English name).
RULESET_CHOICES: tuple[tuple[str, str], ...] = tuple((r.key, r.name) for r in RULESETS)


def _check_ruleset(ruleset: str) -> None:
    if ruleset not in RULESET_KEYS:
        raise PairingError(
            "pairing.unknown_ruleset", ruleset=ruleset, known=", ".join(RULESET_KEYS)
        )


def _pair(trf: TrfFile, ruleset: str) -> list[Pair]:
    _check_ruleset(ruleset)
    if ruleset == "dutch-2017":
        state = build_field(trf.data, initial_colour="w", by_file_order=trf.by_rank)
        del state  # the same checks (rounds left, opponents) as the 2025 rules
        return [Pair(w, b or None, "" if b else "U") for w, b in pair_2017(trf)]
    state = build_field(
        trf.data,
        initial_colour=trf.initial_colour,
        absent=trf.absent,
        by_file_order=trf.by_rank,
    )
    boards = DutchPairer(state).pair()
    return [Pair(b.white, b.black, "" if b.black else "U") for b in boards]


def pair_trf_text(text: str, ruleset: str | None = None) -> list[Pair]:
    """The next round for a TRF, in board order; a bye is ``Pair(n, None, "U")``.
    ``ruleset`` None: the one the file names (its ``192`` line), else the default."""
    trf = parse_trf(text)
    if ruleset is None:
        if trf.system and trf.ruleset is None:
            raise PairingError(
                "pairing.unknown_ruleset", ruleset=trf.system, known=", ".join(RULESET_KEYS)
            )
        ruleset = trf.ruleset or DEFAULT_RULESET
    return _pair(trf, ruleset)


def pair_swiss(data: TournamentData, ruleset: str = DEFAULT_RULESET) -> list[Pair]:
    """Pair the round after the last complete one. Players who already have an entry for that
    round (a requested bye, absence or withdrawal) are left out, as TRF readers do."""
    return _pair(TrfFile(data=data, initial_colour=data.initial_colour), ruleset)


__all__ = [
    "DEFAULT_RULESET",
    "RULESETS",
    "RULESET_CHOICES",
    "RULESET_KEYS",
    "ColourNeed",
    "Explanation",
    "Ruleset",
    "colour_need",
    "explain",
    "pair_swiss",
    "pair_trf_text",
]
