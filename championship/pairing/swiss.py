"""Swiss pairings by the FIDE Dutch system (C.04.3), behind our own interface.

The engine is py4swiss (MIT; compiled matching core from bbpPairings), pinned in
pyproject.toml; see docs/pairing.md for the measurements behind the choice. Everything it
needs is passed as a TRF, so another TRF-reading engine (bbpPairings, JaVaFo) can replace it
by changing ``_engine_pairings`` alone. Our own code adds what it lacks: explanations,
organiser-forbidden pairs (passed as XXP) and requested byes (entries for the coming round).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError as EnginePairingError

from .errors import PairingError
from .model import Colour, Pair, TournamentData
from .trf import parse_trf_text, write_trf


def _engine_pairings(trf_text: str) -> list[tuple[int, int]]:
    trf = parse_trf_text(trf_text)
    try:
        pairings = DutchEngine.generate_pairings(trf)
    except EnginePairingError as exc:
        raise PairingError(
            f"no legal pairing exists for the next round ({exc}); check the forbidden pairs, "
            "requested byes and withdrawals"
        ) from None
    return [(p.white, p.black) for p in pairings]


def pair_trf_text(trf_text: str) -> list[Pair]:
    """The next round for a TRF, in board order; a bye is ``Pair(n, None, "U")``."""
    return [Pair(w, b or None, "" if b else "U") for w, b in _engine_pairings(trf_text)]


def pair_swiss(data: TournamentData) -> list[Pair]:
    """Pair the round after the last complete one. Players who already have an entry for that
    round (a requested bye, absence or withdrawal) are left out, as TRF readers do."""
    if data.rounds_played >= data.total_rounds and all(
        len(p.rounds) >= data.total_rounds for p in data.players
    ):
        raise PairingError(f"all {data.total_rounds} rounds are already paired")
    return pair_trf_text(write_trf(data))


# --- Explanations ------------------------------------------------------------------------
@dataclass(frozen=True)
class ColourNeed:
    colour: Colour | None
    strength: str  # "absolute", "strong", "mild" or "" (none)


@dataclass
class Explanation:
    """Why a board is as it is: what a player asking "why him, why Black?" needs."""

    white_score: str
    black_score: str
    score_group: str
    floats: list[str] = field(default_factory=list)
    colours: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def colour_need(colours: list[Colour]) -> ColourNeed:
    """Colour preference per C.04.3 A.6 from the colours of the games played so far."""
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


def _fmt(value: object) -> str:
    text = f"{float(value):g}"  # type: ignore[arg-type]
    return text


def explain(data: TournamentData, pairs: list[Pair], round_number: int) -> list[Explanation]:
    """One explanation per pair, from the state before ``round_number``."""
    upto = round_number - 1
    points = {p.number: p.points(data.points, upto) for p in data.players}
    history = {
        p.number: [r.colour for r in p.rounds[:upto] if r.played and r.colour] for p in data.players
    }
    met = {p.number: {r.opponent for r in p.rounds[:upto] if r.played} for p in data.players}
    out = []
    for pair in pairs:
        w = pair.white
        ws = points[w]
        if pair.black is None:
            e = Explanation(_fmt(ws), "", _fmt(ws))
            e.floats.append(f"{w}: bye ({pair.bye or 'U'}) — lowest score group, no earlier bye")
            out.append(e)
            continue
        b = pair.black
        bs = points[b]
        e = Explanation(_fmt(ws), _fmt(bs), _fmt(max(ws, bs)))
        if ws != bs:
            high, low = (w, b) if ws > bs else (b, w)
            e.floats.append(f"{high}: down-float to {_fmt(min(ws, bs))}")
            e.floats.append(f"{low}: up-float to {_fmt(max(ws, bs))}")
        for number, got in ((w, "w"), (b, "b")):
            need = colour_need(history[number])  # type: ignore[arg-type]
            if need.colour is None:
                e.colours.append(f"{number}: no colour history, {got}")
            elif need.colour == got:
                e.colours.append(f"{number}: {need.strength} preference for {got} satisfied")
            else:
                e.colours.append(
                    f"{number}: {need.strength} preference for {need.colour} not satisfied, gets {got}"
                )
                if need.strength == "absolute":
                    e.warnings.append(f"{number}: absolute colour preference broken")
        if b in met[w]:
            e.warnings.append(f"{w} and {b} have already played each other")
        out.append(e)
    return out
