"""Tie-breaks per FIDE C.07 (2023, in force from 2024) — each a small named unit with a key,
a FIDE abbreviation and a name (STYLE.md, like Tabbycat's standings metrics).

The arithmetic, including Article 16 (unplayed rounds: byes, forfeits, rounds after a
withdrawal), is tiebreak-core's ``fide-2024`` ruleset (MIT, pinned); the Direct Encounter
value is computed here (tiebreak-core only orders by it)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from tiebreak_core import GameRecord, PlayerTiebreakData, fide2024
from tiebreak_core.models import FORFEIT_LOSS, FORFEIT_WIN, PAIRING_BYE, PLAYED, REQUESTED_BYE

from .model import PointSystem, TournamentData

RULESET = "fide-2024"


@dataclass(frozen=True)
class Tiebreak:
    key: str  # our key, stored in a tournament's tie-break order
    abbreviation: str  # FIDE C.07 abbreviation
    name: str
    core: str | None  # tiebreak-core criterion, None when computed here


TIEBREAKS: tuple[Tiebreak, ...] = (
    Tiebreak("bh", "BH", "Buchholz", "buchholz"),
    Tiebreak("bh_c1", "BH-C1", "Buchholz Cut-1", "buchholz_cut1"),
    Tiebreak("bh_m1", "BH-M1", "Median Buchholz", "median_buchholz"),
    Tiebreak("sb", "SB", "Sonneborn-Berger", "sonneborn_berger"),
    Tiebreak("de", "DE", "Direct encounter", None),
    Tiebreak("win", "WIN", "Number of wins", "wins"),
    Tiebreak("bwg", "BWG", "Games won with Black", "wins_black"),
    Tiebreak("aro", "ARO", "Average rating of opponents", "aro"),
)
BY_KEY: dict[str, Tiebreak] = {t.key: t for t in TIEBREAKS}
#: The default order for a Swiss (C.07 recommends Buchholz Cut-1, Buchholz, then SB/DE).
DEFAULT_ORDER: tuple[str, ...] = ("bh_c1", "bh", "sb", "de", "win", "bwg", "aro", "bh_m1")


#: Tie-breaks are computed on game points (1 / ½ / 0), whatever the tournament's scoring.
GAME_POINTS = PointSystem()


_SCORE: dict[str, float] = {code: float(v) for code, v in GAME_POINTS.table.items()}
_KIND_WITH_OPPONENT = {code: PLAYED for code in "10=WDL"} | {"+": FORFEIT_WIN, "-": FORFEIT_LOSS}


def to_core(data: TournamentData, upto: int) -> dict[int, PlayerTiebreakData]:
    """Our rounds as tiebreak-core records (Article 16 kinds), in game points. Rounds without
    an entry (late entry, withdrawal) are zero-point byes (C.07 §16.1); ``*`` (not played
    yet) is left out."""
    ratings = {p.number: p.rating for p in data.players}
    score = _SCORE
    with_opponent = _KIND_WITH_OPPONENT
    players: dict[int, PlayerTiebreakData] = {}
    for p in data.players:
        games = []
        total = 0.0
        rounds = p.rounds
        for i in range(1, upto + 1):
            if i > len(rounds):
                games.append(GameRecord(-1, 0, 0.0, "white", i, kind=REQUESTED_BYE))
                continue
            r = rounds[i - 1]
            code = r.code
            if code == "*":
                continue
            value = score[code]
            total += value
            kind = with_opponent.get(code) if r.opponent else None
            if kind is not None:
                games.append(
                    GameRecord(
                        r.opponent,  # type: ignore[arg-type]
                        ratings.get(r.opponent, 0),  # type: ignore[arg-type]
                        value,
                        "white" if r.colour == "w" else "black",
                        i,
                        kind=kind,
                    )
                )
            elif code in "UF":
                games.append(GameRecord(-1, 0, value, "white", i, kind=PAIRING_BYE))
            else:  # H, Z, or a double forfeit: a round not played by choice or absence
                games.append(GameRecord(-1, 0, value, "white", i, kind=REQUESTED_BYE))
        players[p.number] = PlayerTiebreakData(p.number, p.rating, total, games)
    return players


def direct_encounter(data: TournamentData, upto: int) -> dict[int, float]:
    """Game points scored in played games against the players with the same score (C.07 §6
    mini table); 0 for a player alone on the score."""
    points = {p.number: p.points(GAME_POINTS, upto) for p in data.players}
    out: dict[int, float] = {}
    for p in data.players:
        mine = points[p.number]
        total = Fraction(0)
        for r in p.rounds[:upto]:
            if r.opponent is not None and r.code in "10=WDL" and points.get(r.opponent) == mine:
                total += GAME_POINTS.points(r.code)
        out[p.number] = float(total)
    return out


def _core_values(
    core: dict[int, PlayerTiebreakData], criteria: list[str], upto: int
) -> dict[int, dict[str, float]]:
    """tiebreak-core's fide-2024 values for every player with one shared precomputation.

    Uses the ruleset module's ``_precompute``/``calculate`` (the version is pinned) to skip
    its input validation and the ordering we do not need; falls back to the public
    ``rank_standings`` if a later version moves them."""
    precompute = getattr(fide2024, "_precompute", None)
    calculate = getattr(fide2024, "calculate", None)
    if precompute is None or calculate is None:  # pragma: no cover - another library version
        ranked = fide2024.rank_standings(core, criteria, upto)
        return {p.player_id: dict(p.values) for p in ranked.players}
    pre = precompute(core, upto)
    return {
        number: {c: calculate(player, core, c, upto, 0.0, pre) for c in criteria}
        for number, player in core.items()
    }


def compute(
    data: TournamentData, upto: int, keys: tuple[str, ...] | list[str]
) -> dict[int, dict[str, float]]:
    """Tie-break values per starting number for the rounds up to ``upto`` (one pass of
    tiebreak-core over all players: its precomputation is shared)."""
    core = to_core(data, upto)
    criteria = [t.core for k in keys if (t := BY_KEY[k]).core]
    values: dict[int, dict[str, float]] = {n: {} for n in core}
    if criteria:
        got = (
            _core_values(core, criteria, upto)
            if upto > 0 and core
            else {n: dict.fromkeys(criteria, 0.0) for n in core}
        )
        for number in core:
            for k in keys:
                t = BY_KEY[k]
                if t.core:
                    values[number][k] = float(got[number][t.core])
    if "de" in keys:
        de = direct_encounter(data, upto)
        for number in core:
            values[number]["de"] = de[number]
    return values
