"""Tie-breaks per FIDE C.07 (2023, in force from 2024) — each a small named unit with a key,
a FIDE abbreviation and a name (STYLE.md, like Tabbycat's standings metrics).

The arithmetic, including Article 16 (unplayed rounds: byes, forfeits, rounds after a
withdrawal), is tiebreak-core's ``fide-2024`` ruleset (MIT, pinned); the Direct Encounter
value is computed here (tiebreak-core only orders by it)."""

from __future__ import annotations

import math
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
            opponent = r.opponent
            kind = with_opponent.get(code) if opponent else None
            if kind is not None and opponent is not None:
                games.append(
                    GameRecord(
                        opponent,
                        ratings.get(opponent, 0),
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


#: Criteria computed by our own single pass (``fast_values``); the others go to tiebreak-core.
FAST = frozenset(
    {
        "buchholz",
        "buchholz_cut1",
        "median_buchholz",
        "sonneborn_berger",
        "wins",
        "wins_black",
        "aro",
    }
)
_RETURN_KINDS = (PLAYED, PAIRING_BYE, FORFEIT_WIN)


def fast_values(
    core: dict[int, PlayerTiebreakData], criteria: list[str]
) -> dict[int, dict[str, float]]:
    """BH, BH-C1, BH-M1, SB, WIN, BWG and ARO for the whole field in one pass, with exactly
    tiebreak-core's fide-2024 semantics (Article 16: VURs are requested half/zero-point byes
    and forfeit losses; a requested bye with no later return counts as a draw for opponents;
    unplayed rounds count the player's own score as a dummy opponent; the Cut-1 cuts the
    lowest VUR first). Checked against tiebreak-core on random tournaments
    (tests/championship/test_tiebreaks.py); 10x faster, since it builds no objects."""
    # Classified rounds: (kind, score, opponent, is_vur, late_bye)
    classified: dict[int, list[tuple[str, float, int, bool, bool]]] = {}
    adjusted: dict[int, float] = {}
    for number, player in core.items():
        games = player.games
        kinds = [g.kind for g in games]
        rounds = []
        adj = 0.0
        for i, g in enumerate(games):
            kind = kinds[i]
            full_request = kind == REQUESTED_BYE and g.score == 1.0
            is_vur = kind in (REQUESTED_BYE, FORFEIT_LOSS) and not full_request
            late = (
                kind == REQUESTED_BYE
                and not full_request
                and not any(k in _RETURN_KINDS for k in kinds[i + 1 :])
            )
            rounds.append((kind, g.score, g.opponent_id, is_vur, late))
            adj += 0.5 if late else g.score
        classified[number] = rounds
        adjusted[number] = adj
    ratings = {n: p.rating for n, p in core.items()}
    colours = {n: [g.color for g in p.games] for n, p in core.items()}
    want = set(criteria)
    out: dict[int, dict[str, float]] = {}
    for number, player in core.items():
        own = player.points
        rounds = classified[number]
        bh: list[tuple[float, bool]] = []
        sb = 0.0
        wins = 0
        wins_black = 0
        opp_ratings = []
        for (kind, score, opponent, is_vur, _late), colour in zip(
            rounds, colours[number], strict=True
        ):
            if kind == PLAYED:
                value = adjusted[opponent]
                bh.append((value, False))
                sb += value * score
                if score == 1.0 and colour == "black":
                    wins_black += 1
                if ratings.get(opponent, 0) > 0:
                    opp_ratings.append(ratings[opponent])
            else:
                bh.append((own, is_vur))
                sb += own * score
            if score == 1.0:
                wins += 1
        total = sum(v for v, _ in bh)
        values: dict[str, float] = {}
        if "buchholz" in want:
            values["buchholz"] = total
        if "buchholz_cut1" in want:
            values["buchholz_cut1"] = total if len(bh) < 2 else total - _least(bh)
        if "median_buchholz" in want:
            if len(bh) < 3:
                values["median_buchholz"] = total
            else:
                rest = list(bh)
                cut = _least(rest)
                vur_values = [v for v, vur in rest if vur]
                if vur_values and cut == min(vur_values):
                    rest.remove(next(c for c in rest if c[0] == cut and c[1]))
                else:
                    rest.remove(next(c for c in rest if c[0] == cut))
                top = max(v for v, _ in rest)
                rest.remove(next(c for c in rest if c[0] == top))
                values["median_buchholz"] = sum(v for v, _ in rest)
        if "sonneborn_berger" in want:
            values["sonneborn_berger"] = sb
        if "wins" in want:
            values["wins"] = float(wins)
        if "wins_black" in want:
            values["wins_black"] = float(wins_black)
        if "aro" in want:
            values["aro"] = (
                float(math.floor(sum(opp_ratings) / len(opp_ratings) + 0.5)) if opp_ratings else 0.0
            )
        out[number] = values
    return out


def _least(contributions: list[tuple[float, bool]]) -> float:
    """The value a Cut-1 removes: the lowest VUR contribution if any (C.07 §16.5.1), else the
    lowest."""
    vur = [v for v, is_vur in contributions if is_vur]
    return min(vur) if vur else min(v for v, _ in contributions)


def _core_values(
    core: dict[int, PlayerTiebreakData], criteria: list[str], upto: int
) -> dict[int, dict[str, float]]:
    """fide-2024 values for every player: ours for the common criteria (``fast_values``),
    tiebreak-core's for any other."""
    fast = [c for c in criteria if c in FAST]
    rest = [c for c in criteria if c not in FAST]
    values = fast_values(core, fast) if fast else {n: {} for n in core}
    if rest:
        for number, got in _library_values(core, rest, upto).items():
            values[number].update(got)
    return values


def _library_values(
    core: dict[int, PlayerTiebreakData], criteria: list[str], upto: int
) -> dict[int, dict[str, float]]:
    """tiebreak-core's values with one shared precomputation: the ruleset module's
    ``_precompute``/``calculate`` (the version is pinned) skip its input validation and the
    ordering we do not need; the public ``rank_standings`` is the fallback."""
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
