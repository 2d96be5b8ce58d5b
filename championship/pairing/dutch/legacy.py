"""The Dutch system as written in 2017 (C.04.3 effective till 30 June 2025), for replaying
older events: py4swiss 0.3.1 (MIT), pinned, as this platform paired before the 2025 rules.

py4swiss reads a TRF of its own; it is given one written by ``write_trf`` from data our
reader has already checked, so its parser only ever sees well-formed files."""

from __future__ import annotations

from collections import defaultdict

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError as EnginePairingError
from py4swiss.trf.codes import PlayerCode, TournamentCode, XCode
from py4swiss.trf.exceptions import ConsistencyError, LineError, ParsingError
from py4swiss.trf.parsed_trf import ParsedTrf
from py4swiss.trf.sections import PlayerSection, TournamentSection, XSection
from py4swiss.trf.trf_line import TrfLine

from ..errors import PairingError
from ..trf import TrfFile, write_trf


def _parsed(text: str) -> ParsedTrf:
    lines: dict[type, list[TrfLine]] = defaultdict(list)
    for index, raw in enumerate(text.splitlines()):
        if not raw.strip() or raw[:3] == "192":
            continue
        line = TrfLine(index, raw)
        lines[line.code_type].append(line)
    trf = ParsedTrf(
        player_sections=[PlayerSection.from_string(str(line)) for line in lines[PlayerCode]],
        tournament_section=TournamentSection.from_lines(lines[TournamentCode]),
        x_section=XSection.from_lines(lines[XCode]),
    )
    trf.validate_contents()
    return trf


def pair_2017(trf: TrfFile) -> list[tuple[int, int]]:
    """(white, black) by starting number, a bye as (n, 0), in the engine's board order."""
    text = write_trf(trf.data)
    if trf.by_rank:
        text = text.replace("\nXXC ", "\nXXC rank ", 1)
    if trf.absent:
        text += "XXZ " + " ".join(str(n) for n in sorted(trf.absent)) + "\n"
    try:
        parsed = _parsed(text)
    except (ParsingError, LineError, ConsistencyError) as exc:  # pragma: no cover - our TRF
        raise PairingError("pairing.legacy_input", detail=str(exc)) from None
    try:
        pairings = DutchEngine.generate_pairings(parsed)
    except EnginePairingError:
        raise PairingError("pairing.no_legal_pairing") from None
    return [(p.white, p.black) for p in pairings]
