"""Plain data the pairing, tie-break and TRF code work on (no ORM)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Literal

Colour = Literal["w", "b"]

#: TRF-2016 result codes of one player in one round.
PLAYED_CODES = frozenset("10=WDL")


@dataclass(frozen=True)
class PointSystem:
    """Points for each outcome (defaults 1 / ½ / 0, pairing-allocated bye 1)."""

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    bye: Fraction = Fraction(1)  # pairing-allocated bye (U)
    full_bye: Fraction = Fraction(1)  # F
    half_bye: Fraction = Fraction(1, 2)  # H
    forfeit_win: Fraction = Fraction(1)
    forfeit_loss: Fraction = Fraction(0)

    @cached_property
    def table(self) -> dict[str, Fraction]:
        """Points by TRF result code (``*``, not played yet, scores nothing)."""
        return {
            "1": self.win,
            "W": self.win,
            "=": self.draw,
            "D": self.draw,
            "0": self.loss,
            "L": self.loss,
            "+": self.forfeit_win,
            "-": self.forfeit_loss,
            "U": self.bye,
            "F": self.full_bye,
            "H": self.half_bye,
            "Z": Fraction(0),
            "*": Fraction(0),
        }

    def points(self, code: str) -> Fraction:
        return self.table[code]


@dataclass(frozen=True)
class RoundEntry:
    """One player's round: the opponent's starting number (None: bye or not paired), the
    colour, and the TRF result code (``1 0 = + - W D L H F U Z``; ``*`` = not yet played)."""

    opponent: int | None
    colour: Colour | None
    code: str

    @property
    def played(self) -> bool:
        return self.opponent is not None and self.code in PLAYED_CODES


@dataclass
class Player:
    number: int  # starting number
    name: str
    rating: int = 0
    club: str = ""
    rounds: list[RoundEntry] = field(default_factory=list)
    #: Extra per-round facts for standings (e.g. {round: "time"} for losses on time).
    terminations: dict[int, str] = field(default_factory=dict)
    #: With two games per pairing: game points by round (the rounds hold mini-match outcomes).
    game_points: dict[int, Fraction] | None = None

    def points(self, system: PointSystem, upto: int | None = None) -> Fraction:
        rounds = self.rounds if upto is None else self.rounds[:upto]
        table = system.table
        return sum([table[r.code] for r in rounds], Fraction(0))


@dataclass
class TournamentData:
    name: str
    players: list[Player]
    total_rounds: int
    initial_colour: Colour = "w"
    points: PointSystem = field(default_factory=PointSystem)
    forbidden_pairs: list[tuple[int, int]] = field(default_factory=list)
    #: Accelerated (fictitious) points per round by starting number (TRF ``XXA``).
    accelerations: dict[int, list[Fraction]] = field(default_factory=dict)

    @property
    def rounds_played(self) -> int:
        return max((len(p.rounds) for p in self.players), default=0)

    def player(self, number: int) -> Player:
        for p in self.players:
            if p.number == number:
                return p
        raise KeyError(number)


@dataclass(frozen=True)
class Pair:
    """A board of a round: ``black`` None means a bye of ``bye`` kind for ``white``."""

    white: int
    black: int | None
    bye: str = ""  # "U" pairing-allocated, "H"/"Z"/"F" requested byes
