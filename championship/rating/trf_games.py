"""The rated games of a TRF-2016 file, for ratings outside the database
(``manage.py ratings_from_trf``). Pure Python, no Django.

Only what ratings need is read: the player lines (``001``, each checked as the pairing
reader checks it) and the round dates (``132``); anything else in the file (counts, points,
the number of rounds, other programs' lines) is not needed and not checked, so a file from
any program that writes TRF-2016 is read. A game is rated when it was played over the board:
``1``, ``=``, ``0`` against an opponent whose entry says the same game the other way round.
``W D L`` (played, not rated: FIDE's "less than one move"), forfeits ``+ -`` and byes
``H F U Z`` are not rated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from championship.pairing.errors import PairingError
from championship.pairing.model import Player
from championship.pairing.trf import ROUNDS_COLUMN, clean_name, player_from_line

#: White's score by White's code, for the codes of a game played and rated.
RATED_CODES = {"1": 1.0, "=": 0.5, "0": 0.0}
_OTHER_SIDE = {"1": "0", "0": "1", "=": "="}
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_DATE = re.compile(r"(?<![0-9])([0-9]{4}|[0-9]{2})/([0-9]{1,2})/([0-9]{1,2})(?![0-9])")
#: Where the date of round 1 ends in line 132 (TRF-2016: columns 92-99, 102-109, ...).
_FIRST_DATE_END = ROUNDS_COLUMN + 8


def _day(year: str, month: str, day: str) -> date | None:
    y = int(year)
    if len(year) == 2:
        y += 2000 if y < 69 else 1900  # as strptime's %y: 69-99 are the 1900s
    try:
        return date(y, int(month), int(day))
    except ValueError:
        return None


def round_dates(line: str) -> dict[int, date | None]:
    """Round number -> its date, from a ``132`` line. TRF-2016 writes ``YY/MM/DD`` in columns
    92-99 for round 1, 102-109 for round 2 and so on; some programs write ``YYYY/MM/DD``
    (ending where the short form ends, or starting where it starts). Each date is placed by
    where it ends; a line whose dates do not stand in those columns is read in order, one date
    per round. A date that is no day of the calendar is None."""
    found = list(_DATE.finditer(line, 3))
    slots = [round((m.end() - _FIRST_DATE_END) / 10) for m in found]
    if any(s < 0 for s in slots) or len(set(slots)) != len(slots):
        slots = list(range(len(found)))
    return {slot + 1: _day(*m.groups()) for slot, m in zip(slots, found, strict=True)}


@dataclass(frozen=True)
class TrfGame:
    """A rated game of the file: its round and the round's date (None when line 132 gives
    none), the names of White and Black as written, White's score."""

    round: int
    day: date | None
    white: str
    black: str
    score: float


@dataclass
class TrfGames:
    name: str = ""
    games: list[TrfGame] = field(default_factory=list)
    #: Names of the players, in the order of their lines.
    players: list[str] = field(default_factory=list)


def rated_games(text: str) -> TrfGames:
    """The rated games of a TRF; ``PairingError`` (naming the line) for a broken player line
    or two entries that tell a game differently."""
    out = TrfGames()
    players: dict[int, Player] = {}
    line_of: dict[int, int] = {}
    dates: dict[int, date | None] = {}
    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
        if "\x00" in raw:
            raise PairingError("trf.nul", line=number)
        line = raw.rstrip()
        code = line[:3]
        if code == "001":
            player = player_from_line(line, number)
            if player.number in players:
                raise PairingError("trf.duplicate_number", line=number, number=player.number)
            players[player.number] = player
            line_of[player.number] = number
        elif code == "012":
            out.name = clean_name(line[4:], 200)
        elif code == "132" and not dates:
            dates = round_dates(line)
    for who in sorted(players):
        p = players[who]
        out.players.append(p.name)
        for index, entry in enumerate(p.rounds, start=1):
            if entry.code not in RATED_CODES or entry.opponent is None:
                continue
            other = players.get(entry.opponent)
            if other is None:
                raise PairingError(
                    "trf.unknown_opponent", line=line_of[who], round=index, opponent=entry.opponent
                )
            theirs = other.rounds[index - 1] if index <= len(other.rounds) else None
            if (
                theirs is None
                or theirs.opponent != who
                or theirs.code != _OTHER_SIDE[entry.code]
                or theirs.colour == entry.colour
            ):
                raise PairingError(
                    "trf.opponent_disagrees",
                    line=line_of[who],
                    round=index,
                    opponent=entry.opponent,
                )
            if entry.colour != "w":
                continue  # each game once, from White's line
            out.games.append(
                TrfGame(index, dates.get(index), p.name, other.name, RATED_CODES[entry.code])
            )
    return out
