"""FIDE TRF-2016 with the JaVaFo / bbpPairings extensions (XXR rounds, XXC initial colour,
XXP forbidden pairs, XXS points, XXA accelerations, XXZ absent players) and the pairing
system line of TRF-2026 (``192``): read into plain data and write back.

Reading is one pass over the lines and then one over the round entries (linear time). Every
problem is a ``PairingError`` with a stable code and, where it belongs to a line, the line's
number; nothing in a file can raise anything else. Player and tournament names are made
single-line and stripped of control characters, so no line written back can be forged.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from .errors import PairingError
from .model import Colour, Player, PointSystem, RoundEntry, TournamentData

#: Limits that no real tournament reaches; beyond them a file is refused, not read slowly.
MAX_LINE = 4096
MAX_LINES = 200_000
MAX_PLAYERS = 9999
MAX_ROUNDS = 200
MAX_POINTS = Fraction(999, 10)

#: The pairing system line (TRF-2026 ``192``) for each ruleset key, and back.
SYSTEM_CODES = {"dutch-2025": "FIDE_DUTCH_2025", "dutch-2017": "FIDE_DUTCH_2017"}
SYSTEMS_READ = {
    "FIDE_DUTCH_2025": "dutch-2025",
    "FIDE_DUTCH_2026": "dutch-2025",
    "FIDE_DUTCH": "dutch-2025",
    "FIDE_DUTCH_2017": "dutch-2017",
}

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CODE = re.compile(r"[0-9A-Z]{3}\Z")
#: A number of the file: ASCII digits (``str.isdigit`` is true for ``²``, which ``int`` refuses),
#: right-aligned in its field, at most nine (``int`` fails on thousands of digits).
_NUMBER = re.compile(r" *[0-9]{1,9}\Z")
_POINTS = re.compile(r" *[0-9]{1,3}(\.[0-9])?\Z")
_RESULT_CODES = frozenset("+-WDL10=HFUZ")
_PLAYED = frozenset("WDL10=")
_BYES = frozenset("HFUZ")
_COMPATIBLE = frozenset(
    {("1", "0"), ("0", "1"), ("=", "="), ("W", "L"), ("L", "W"), ("D", "D")}
    | {("+", "-"), ("-", "+"), ("-", "-")}
)
#: Characters that break a line or reorder text (bidirectional overrides and isolates).
#: The tournament's header lines kept when read (shown and imported, never needed to pair).
_HEADER_CODES = frozenset({"022", "032", "042", "052", "092", "102", "112", "122", "132"})
_FORGING = frozenset("\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_name(text: str, limit: int | None = None) -> str:
    """One line, no control characters, single spaces, trimmed (and cut to ``limit``)."""
    kept = []
    for ch in text:
        if ch in _FORGING:
            kept.append(" ")
        elif unicodedata.category(ch) == "Cc":
            kept.append(" " if ch in "\t\n\r\x0b\x0c\x85" else "")
        else:
            kept.append(ch)
    name = " ".join("".join(kept).split())
    return name[:limit].rstrip() if limit is not None else name


@dataclass(frozen=True)
class TrfHeader:
    """The tournament lines of a TRF-2016 header besides the name (012), as Swiss-Manager
    writes them. Counts of players (062, 072) and teams (082) come from the data."""

    city: str = ""  # 022
    federation: str = ""  # 032
    start: str = ""  # 042, YYYY/MM/DD
    end: str = ""  # 052
    kind: str = ""  # 092, e.g. "Individual: Swiss-System"
    chief_arbiter: str = ""  # 102
    deputy_arbiters: tuple[str, ...] = ()  # 112, one line each
    time_control: str = ""  # 122
    round_dates: tuple[str, ...] = ()  # 132, YY/MM/DD per round ("" when unknown)


#: Where a player line's first round entry starts (0-based): the round dates line 132 puts
#: each round's date above that round's entry.
ROUNDS_COLUMN = 91


@dataclass
class TrfFile:
    """What a TRF says: the tournament as plain data, and what only the pairing needs."""

    data: TournamentData
    initial_colour: Colour | None = None  # XXC white1/black1 (or 152), None when not given
    by_rank: bool = False  # XXC rank: pairing numbers by the order of the player lines
    absent: frozenset[int] = frozenset()  # XXZ: not to be paired in the next round
    ruleset: str | None = None  # from a 192 line
    system: str = ""  # the 192 line as written
    lines: dict[int, int] = field(default_factory=dict)  # starting number -> line number
    header: TrfHeader = field(default_factory=lambda: TrfHeader())  # lines 022-132 as written


def parse_trf(text: str) -> TrfFile:
    """Read a TRF; raise ``PairingError`` naming the line of the first problem."""
    lines = _LINE_BREAK.split(text)
    if len(lines) > MAX_LINES:
        raise PairingError("trf.too_many_lines", limit=MAX_LINES)
    players: list[Player] = []
    line_of: dict[int, int] = {}
    given_points: dict[int, Fraction] = {}
    name = ""
    rounds: int | None = None
    initial: Colour | None = None
    configured = 0
    by_rank = False
    system = ""
    points = _PointsSetting()
    forbidden: list[tuple[list[int], int]] = []
    accelerations: dict[int, list[Fraction]] = {}
    acceleration_lines: dict[int, int] = {}
    absent: list[tuple[list[int], int]] = []
    header: dict[str, list[str]] = {}
    for number, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LINE:
            raise PairingError("trf.too_long", line=number, length=len(raw), limit=MAX_LINE)
        if "\x00" in raw:
            raise PairingError("trf.nul", line=number)
        line = raw.rstrip()
        if not line or line.lstrip().startswith("#"):
            continue
        code = line[:3]
        if not _CODE.match(code):
            raise PairingError("trf.bad_field", line=number, field="line code", value=code)
        rest = line[3:].strip()
        if code == "001":
            player, points_given = _player(line, number)
            if player.number in line_of:
                raise PairingError("trf.duplicate_number", line=number, number=player.number)
            if len(players) >= MAX_PLAYERS:
                raise PairingError("trf.too_many_players", line=number, limit=MAX_PLAYERS)
            line_of[player.number] = number
            given_points[player.number] = points_given
            players.append(player)
        elif code == "012":
            name = clean_name(line[4:], 200)
        elif code in ("XXR", "142"):
            if rounds is not None:
                raise PairingError("trf.duplicate_code", line=number, what=code)
            if not _NUMBER.match(rest) or not 1 <= int(rest) <= MAX_ROUNDS:
                raise PairingError("trf.bad_rounds", line=number, value=rest)
            rounds = int(rest)
        elif code == "XXC":
            configured += 1
            if configured > 1:
                raise PairingError("trf.duplicate_code", line=number, what=code)
            for token in rest.split():
                if token == "white1":
                    initial = "w"
                elif token == "black1":
                    initial = "b"
                elif token == "rank":
                    by_rank = True
                else:
                    raise PairingError("trf.bad_configuration", line=number, value=token)
        elif code == "152":
            if rest not in ("W", "B"):
                raise PairingError("trf.bad_configuration", line=number, value=rest)
            initial = "w" if rest == "W" else "b"
        elif code == "XXS":
            points.apply(rest, number)
        elif code == "XXP":
            forbidden.append((_numbers(rest, number, "trf.bad_forbidden_pair"), number))
            if len(forbidden[-1][0]) < 2:
                raise PairingError("trf.bad_forbidden_pair", line=number, value=rest)
        elif code == "XXA":
            who, values = _acceleration(rest, number)
            if who in accelerations:
                raise PairingError("trf.duplicate_code", line=number, what=f"XXA {who}")
            accelerations[who] = values
            acceleration_lines[who] = number
        elif code == "XXZ":
            absent.append((_numbers(rest, number, "trf.bad_field"), number))
        elif code == "192":
            system = rest
        elif code in _HEADER_CODES:
            header.setdefault(code, []).append(line)
        # Any other code (the tournament header, teams, other programs' lines) is not needed.

    if not players:
        raise PairingError("trf.no_players")
    if rounds is None:
        raise PairingError("trf.no_rounds")
    known = set(line_of)
    for expected in range(1, len(players) + 1):
        if expected not in known:
            raise PairingError("trf.missing_number", number=expected)
    system_points = points.system()
    _check_entries(players, line_of, given_points, system_points, rounds)
    pairs: list[tuple[int, int]] = []
    for numbers, number in forbidden:
        for who in numbers:
            if who not in known:
                raise PairingError("trf.unknown_opponent", line=number, round=0, opponent=who)
        for i, a in enumerate(numbers):
            for b in numbers[i + 1 :]:
                if a != b:
                    pairs.append((min(a, b), max(a, b)))
    for who, number in acceleration_lines.items():
        if who not in known:
            raise PairingError("trf.unknown_opponent", line=number, round=0, opponent=who)
    away: set[int] = set()
    for numbers, number in absent:
        for who in numbers:
            if who not in known:
                raise PairingError("trf.unknown_opponent", line=number, round=0, opponent=who)
            away.add(who)
    if not by_rank:
        players.sort(key=lambda p: p.number)
    data = TournamentData(
        name=name,
        players=players,
        total_rounds=rounds,
        initial_colour=initial or "w",
        points=system_points,
        forbidden_pairs=sorted(set(pairs)),
        accelerations=accelerations,
    )
    return TrfFile(
        data=data,
        initial_colour=initial,
        by_rank=by_rank,
        absent=frozenset(away),
        ruleset=SYSTEMS_READ.get(system),
        system=system,
        lines=line_of,
        header=_read_header(header),
    )


def _read_header(lines: dict[str, list[str]]) -> TrfHeader:
    """The tournament lines as written (single-line, cleaned); they are only shown and stored,
    so nothing in them is refused."""

    def one(code: str) -> str:
        return clean_name(lines[code][0][4:], 200) if code in lines else ""

    dates: tuple[str, ...] = ()
    if "132" in lines:
        row = lines["132"][0][ROUNDS_COLUMN:]
        slots = [row[i : i + 10] for i in range(0, min(len(row), 10 * MAX_ROUNDS), 10)]
        dates = tuple(clean_name(slot, 10) for slot in slots)
    return TrfHeader(
        city=one("022"),
        federation=one("032"),
        start=one("042"),
        end=one("052"),
        kind=one("092"),
        chief_arbiter=one("102"),
        deputy_arbiters=tuple(clean_name(line[4:], 200) for line in lines.get("112", [])),
        time_control=one("122"),
        round_dates=dates,
    )


def read_trf(text: str) -> TournamentData:
    """A TRF as plain tournament data (the initial colour inferred from the first round when
    the file does not give it, as the reference pairing engine does)."""
    return read_trf_with_header(text)[0]


def read_trf_with_header(text: str) -> tuple[TournamentData, TrfHeader]:
    """``read_trf``, and the tournament's header lines as written."""
    parsed = parse_trf(text)
    data = parsed.data
    if parsed.initial_colour is None:
        from .dutch.state import infer_initial_colour

        data.initial_colour = infer_initial_colour(data)
    return data, parsed.header


# --- reading, piece by piece ------------------------------------------------------------------
def player_from_line(line: str, number: int) -> Player:
    """One player line (``001``) read on its own: the player and their round entries, each
    checked as ``parse_trf`` checks it (``number`` is the line's, for the message)."""
    return _player(line, number)[0]


def _player(line: str, number: int) -> tuple[Player, Fraction]:
    if len(line) < 84:
        raise PairingError("trf.short_player_line", line=number, needed=84, length=len(line))
    start = line[4:8]
    if not _NUMBER.match(start) or not 1 <= int(start) <= MAX_PLAYERS:
        raise PairingError("trf.bad_field", line=number, field="starting number", value=start)
    who = int(start)
    rating_text = line[48:52]
    if rating_text.strip() and not _NUMBER.match(rating_text.strip()):
        raise PairingError("trf.bad_field", line=number, field="rating", value=rating_text)
    rating = int(rating_text) if rating_text.strip() else 0
    points_text = line[80:84]
    if not _POINTS.match(points_text):
        raise PairingError("trf.bad_field", line=number, field="points", value=points_text)
    points = Fraction(Decimal(points_text.strip()))
    rounds = []
    results = line[91:]
    rank_text = line[85:89]
    if rank_text.strip() and not _NUMBER.match(rank_text):
        raise PairingError("trf.bad_field", line=number, field="rank", value=rank_text)
    position = 0
    index = 0
    while position < len(results):
        index += 1
        if index > MAX_ROUNDS:
            raise PairingError("trf.too_many_rounds", line=number, count=index, rounds=MAX_ROUNDS)
        chunk = results[position : position + 8]
        gap = results[position + 8 : position + 10]
        if len(chunk) < 8 or chunk[4] != " " or chunk[6] != " " or gap.strip():
            raise PairingError("trf.bad_result", line=number, round=index, value=chunk)
        rounds.append(_entry(chunk, who, index, number))
        position += 10
    name = clean_name(line[14:47]) or f"#{who}"
    return Player(number=who, name=name, rating=rating, rounds=rounds), points


def _entry(chunk: str, who: int, index: int, number: int) -> RoundEntry:
    opponent_text = chunk[:4]
    if opponent_text in ("0000", "    "):
        opponent = None
    elif _NUMBER.match(opponent_text):
        opponent = int(opponent_text) or None
    else:
        raise PairingError("trf.bad_result", line=number, round=index, value=chunk)
    colour_char = chunk[5]
    if colour_char not in "wb- ":
        raise PairingError("trf.bad_colour", line=number, round=index, value=colour_char)
    colour: Colour | None = "w" if colour_char == "w" else "b" if colour_char == "b" else None
    code = chunk[7].upper()
    if code not in _RESULT_CODES:
        raise PairingError("trf.bad_result_code", line=number, round=index, value=chunk[7])
    if opponent == who:
        raise PairingError("trf.own_opponent", line=number, round=index)
    if code in _PLAYED and (opponent is None or colour is None):
        raise PairingError("trf.played_needs_opponent", line=number, round=index)
    if code in _BYES and (opponent is not None or colour is not None):
        raise PairingError("trf.bye_with_opponent", line=number, round=index)
    if opponent is None:
        colour = None
    return RoundEntry(opponent, colour, code)


def _numbers(text: str, number: int, problem: str) -> list[int]:
    values = []
    for token in text.split():
        if not _NUMBER.match(token) or not 1 <= int(token) <= MAX_PLAYERS:
            raise PairingError(problem, line=number, field="player", value=text)
        values.append(int(token))
    return values


def _acceleration(text: str, number: int) -> tuple[int, list[Fraction]]:
    tokens = text.split()
    if not tokens or not _NUMBER.match(tokens[0]) or not 1 <= int(tokens[0]) <= MAX_PLAYERS:
        raise PairingError("trf.bad_acceleration", line=number, value=text)
    values = []
    for token in tokens[1:]:
        if not _POINTS.match(token):
            raise PairingError("trf.bad_acceleration", line=number, value=token)
        values.append(Fraction(Decimal(token)))
    if len(values) > MAX_ROUNDS:
        raise PairingError("trf.bad_acceleration", line=number, value=text[:40])
    return int(tokens[0]), values


class _PointsSetting:
    """XXS: points per result (JaVaFo's codes; colour-specific ones apply to both colours
    here, since the tournament model has one value per result)."""

    CODES = {
        "WW": ("win",),
        "BW": (),
        "WD": ("draw",),
        "BD": (),
        "WL": ("loss",),
        "BL": (),
        "ZPB": (),
        "HPB": ("half_bye",),
        "FPB": ("full_bye",),
        "PAB": ("bye",),
        "FW": ("forfeit_win",),
        "FL": ("forfeit_loss",),
        "W": ("win", "forfeit_win", "full_bye"),
        "D": ("draw", "half_bye"),
        "L": ("loss", "forfeit_loss"),
    }

    def __init__(self) -> None:
        default = PointSystem()
        self.values: dict[str, Fraction] = {
            name: getattr(default, name)
            for name in (
                "win",
                "draw",
                "loss",
                "bye",
                "full_bye",
                "half_bye",
                "forfeit_win",
                "forfeit_loss",
            )
        }

    def apply(self, text: str, number: int) -> None:
        for token in text.split():
            code, _, value = token.partition("=")
            if code not in self.CODES or not _POINTS.match(value):
                raise PairingError("trf.bad_points_system", line=number, value=token)
            try:
                amount = Fraction(Decimal(value))
            except (InvalidOperation, ValueError):
                raise PairingError("trf.bad_points_system", line=number, value=token) from None
            if amount > MAX_POINTS:
                raise PairingError("trf.bad_points_system", line=number, value=token)
            for name in self.CODES[code]:
                self.values[name] = amount

    def system(self) -> PointSystem:
        return PointSystem(**self.values)


def _check_entries(
    players: list[Player],
    line_of: dict[int, int],
    given_points: dict[int, Fraction],
    system: PointSystem,
    rounds: int,
) -> None:
    """Every opponent exists and says the same about the game; the points add up; no more
    rounds than the tournament has."""
    by_number = {p.number: p for p in players}
    table = system.table
    for p in players:
        number = line_of[p.number]
        if len(p.rounds) > rounds:
            raise PairingError(
                "trf.too_many_rounds", line=number, count=len(p.rounds), rounds=rounds
            )
        for index, entry in enumerate(p.rounds, start=1):
            if entry.opponent is None:
                continue
            other = by_number.get(entry.opponent)
            if other is None:
                raise PairingError(
                    "trf.unknown_opponent", line=number, round=index, opponent=entry.opponent
                )
            theirs = other.rounds[index - 1] if index <= len(other.rounds) else None
            if (
                theirs is None
                or theirs.opponent != p.number
                or (entry.code, theirs.code) not in _COMPATIBLE
                or (
                    (entry.colour is not None or theirs.colour is not None)
                    and entry.colour == theirs.colour
                )
            ):
                raise PairingError(
                    "trf.opponent_disagrees", line=number, round=index, opponent=entry.opponent
                )
        total = sum((table[e.code] for e in p.rounds), Fraction(0))
        given = given_points[p.number]
        if given != total:
            # The points may leave out a requested bye already entered for the next round.
            last = p.rounds[-1] if p.rounds else None
            if last is None or last.opponent is not None or given != total - table[last.code]:
                raise PairingError(
                    "trf.points_mismatch",
                    line=number,
                    given=_points_text(given).strip(),
                    computed=_points_text(total).strip(),
                )


# --- writing ------------------------------------------------------------------------------------
def _points_text(value: Fraction) -> str:
    return f"{float(value):4.1f}"


def player_line(player: Player, points: Fraction, rank: int) -> str:
    name = clean_name(player.name, 33)
    rating = f"{min(max(player.rating, 0), 9999):>4}" if player.rating > 0 else "    "
    head = (
        f"001 {player.number:>4}      {name:<33} {rating}"
        f" {'':3} {'':11} {'':10} {_points_text(points)} {rank:>4}"
    )
    rounds = []
    for r in player.rounds:
        if r.code == "*":
            continue
        opponent = f"{r.opponent:>4}" if r.opponent else "0000"
        rounds.append(f"  {opponent} {r.colour or '-'} {r.code}")
    return head + "".join(rounds)


def _header_lines(data: TournamentData, header: TrfHeader) -> list[str]:
    lines = []

    def add(code: str, value: str) -> None:
        value = clean_name(value, 200)
        if value:
            lines.append(f"{code} {value}")

    add("022", header.city)
    add("032", header.federation)
    add("042", header.start)
    add("052", header.end)
    lines.append(f"062 {len(data.players)}")
    lines.append(f"072 {sum(1 for p in data.players if p.rating > 0)}")
    lines.append("082 0")
    add("092", header.kind)
    add("102", header.chief_arbiter)
    for name in header.deputy_arbiters:
        add("112", name)
    add("122", header.time_control)
    if any(header.round_dates):
        dates = "".join(f"{clean_name(d, 8):<8}  " for d in header.round_dates).rstrip()
        lines.append(f"{'132':<{ROUNDS_COLUMN}}{dates}")
    return lines


def write_trf(
    data: TournamentData,
    *,
    upto: int | None = None,
    ruleset: str | None = None,
    header: TrfHeader | None = None,
) -> str:
    """The TRF of the tournament after round ``upto`` (default: every round entered).
    ``ruleset`` (a key of ``RULESETS``) adds the pairing system line ``192``, as TRF-2026
    has it: ``FIDE_DUTCH_2025`` or ``FIDE_DUTCH_2017``. ``header`` adds the tournament's
    lines 022-132 (city, federation, dates, counts, type, arbiters, time control, round
    dates)."""
    lines = [f"012 {clean_name(data.name, 200)}"]
    if header is not None:
        lines += _header_lines(data, header)
    if ruleset is not None:
        lines.append(f"192 {SYSTEM_CODES[ruleset]}")
    points = {p.number: p.points(data.points, upto) for p in data.players}
    order = sorted(data.players, key=lambda p: (-points[p.number], p.number))
    ranks = {p.number: i + 1 for i, p in enumerate(order)}
    for p in sorted(data.players, key=lambda p: p.number):
        shown = p if upto is None else Player(p.number, p.name, p.rating, p.club, p.rounds[:upto])
        lines.append(player_line(shown, points[p.number], ranks[p.number]))
    lines.append(f"XXR {data.total_rounds}")
    lines.append(f"XXC {'white1' if data.initial_colour == 'w' else 'black1'}")
    for a, b in data.forbidden_pairs:
        lines.append(f"XXP {a} {b}")
    default = PointSystem()
    if data.points != default:
        s = data.points
        lines.append(
            "XXS "
            + " ".join(
                f"{code}={float(value):.1f}"
                for code, value in (
                    ("WW", s.win),
                    ("BW", s.win),
                    ("WD", s.draw),
                    ("BD", s.draw),
                    ("WL", s.loss),
                    ("BL", s.loss),
                    ("ZPB", Fraction(0)),
                    ("HPB", s.half_bye),
                    ("FPB", s.full_bye),
                    ("PAB", s.bye),
                    ("FW", s.forfeit_win),
                    ("FL", s.forfeit_loss),
                )
            )
        )
    accelerations = data.accelerations
    for who in sorted(accelerations):
        values = " ".join(f"{float(v):4.1f}" for v in accelerations[who])
        lines.append(f"XXA {who:>4} {values}")
    return "\n".join(lines) + "\n"
