"""What the Dutch system needs to know about each player before a round (FIDE C.04.3, 2025
text, Article 1), computed once from the plain tournament data.

Scores are integers: every point value of the tournament is multiplied by one common factor
(for 1 / ½ / 0 that is 2), so comparisons are exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import PairingError
from ..model import PLAYED_CODES, Colour, Player, TournamentData

WHITE, BLACK, NO_COLOUR = 0, 1, 2
DOWN, UP, NO_FLOAT = 0, 1, 2


def invert(colour: int) -> int:
    return BLACK if colour == WHITE else WHITE if colour == BLACK else NO_COLOUR


@dataclass(slots=True)
class Round:
    """One player's round as the pairing rules see it."""

    opponent: int | None  # starting number; None: no opponent
    colour: int  # WHITE, BLACK or NO_COLOUR
    points: int  # scaled
    played: bool  # a game was played over the board
    paired: bool  # the player was paired (a game, a forfeit or the pairing-allocated bye)
    code: str


@dataclass(slots=True, eq=False)
class Entrant:
    """A player to be paired (or met earlier), with the facts of Article 1."""

    number: int  # starting number
    rank: int = 0  # 0-based effective pairing number (1.2.2), valid players only
    rounds: list[Round] = field(default_factory=list)
    score: int = 0  # with acceleration, scaled (1.2.1)
    plain_score: int = 0  # without acceleration (board order, Article 5 of C.04.2)
    accelerations: list[int] = field(default_factory=list)
    # Colours (1.6, 1.7): the colour difference, its sign as the preferred colour.
    preference: int = NO_COLOUR
    imbalance: int = 0  # |colour difference|
    repeated: int = NO_COLOUR  # the colour of the last two played games when they are the same
    strong: bool = False
    played_games: int = 0
    bye_eligible: bool = True  # C2
    floats: tuple[int, int] = (NO_FLOAT, NO_FLOAT)  # the last round, two rounds before
    forbidden: set[int] = field(default_factory=set)  # C1 (opponents met) and forbidden pairs
    valid: bool = True
    absolute_imbalance: bool = False  # |colour difference| > 1
    absolute: bool = False  # 1.7.1: an absolute colour preference

    def score_before(self, round_index: int) -> int:
        """The score (with acceleration) before the round with this 0-based index."""
        base = sum(r.points for r in self.rounds[:round_index])
        extra = self.accelerations[round_index] if round_index < len(self.accelerations) else 0
        return base + extra


@dataclass
class Field:
    """The players of a round to pair, and the tournament facts the criteria use."""

    entrants: dict[int, Entrant]  # every valid player by starting number
    to_pair: list[Entrant]
    played_rounds: int
    total_rounds: int
    scale: int
    win: int
    draw: int
    loss: int
    initial_colour: int

    @property
    def last_round(self) -> bool:
        """1.8: topscorers exist only when the final round is paired."""
        return self.played_rounds >= self.total_rounds - 1

    def topscorer(self, entrant: Entrant) -> bool:
        """1.8: more than 50% of the maximum possible score (the rounds played so far)."""
        return 2 * entrant.score > self.played_rounds * max(self.win, self.draw)


def _scale(values: list[Fraction]) -> int:
    scale = 1
    for v in values:
        scale = scale * v.denominator // math.gcd(scale, v.denominator)
    return scale


def build_field(
    data: TournamentData,
    *,
    initial_colour: str | None = None,
    absent: frozenset[int] = frozenset(),
    by_file_order: bool = False,
) -> Field:
    """The state before the next round, following the reading of a TRF by the reference
    engine: the round to pair is the one after the last round in which someone was paired;
    a player who already has an entry for it (a requested bye, an absence) is left out; a
    player who has never been paired and is not to be paired now gets no pairing number."""
    system = data.points
    table = system.table
    accelerations = data.accelerations
    values = list(table.values()) + [a for acc in accelerations.values() for a in acc]
    scale = _scale(values)

    def scaled(value: Fraction) -> int:
        return int(value * scale)

    points_of = {code: scaled(v) for code, v in table.items()}
    players = data.players if by_file_order else sorted(data.players, key=lambda p: p.number)
    numbers = {p.number for p in players}
    played_rounds = 0
    histories: dict[int, list[Round]] = {}
    for p in players:
        rounds = []
        for i, entry in enumerate(p.rounds, start=1):
            code = entry.code
            if code == "*":
                raise PairingError("pairing.unfinished_round", player=p.number, round=i)
            opponent = entry.opponent
            if opponent is not None and opponent not in numbers:
                raise PairingError("pairing.unknown_opponent", player=p.number, round=i)
            played = opponent is not None and code in PLAYED_CODES
            colour = WHITE if entry.colour == "w" else BLACK if entry.colour == "b" else NO_COLOUR
            paired = opponent is not None or code in ("U", "+")
            rounds.append(Round(opponent, colour, points_of[code], played, paired, code))
        histories[p.number] = rounds
        if rounds:
            played_rounds = max(played_rounds, len(rounds) - (0 if rounds[-1].paired else 1))
    if players and all(len(histories[p.number]) > played_rounds for p in players):
        played_rounds += 1  # every player has an entry for that round: it is complete
    if played_rounds >= data.total_rounds:
        raise PairingError("pairing.all_rounds_paired", rounds=data.total_rounds)

    entrants: dict[int, Entrant] = {}
    to_pair: list[Entrant] = []
    rank = 0
    for p in players:
        rounds = histories[p.number]
        valid = len(rounds) <= played_rounds or any(r.paired for r in rounds)
        if not valid:
            continue
        while len(rounds) < played_rounds:
            rounds.append(Round(None, NO_COLOUR, 0, False, False, "Z"))
        e = Entrant(p.number, rank, rounds)
        rank += 1
        e.accelerations = [scaled(a) for a in accelerations.get(p.number, [])]
        e.plain_score = sum(r.points for r in rounds[:played_rounds])
        e.score = e.plain_score + (
            e.accelerations[played_rounds] if played_rounds < len(e.accelerations) else 0
        )
        _colours(e)
        entrants[p.number] = e
        if len(rounds) <= played_rounds and p.number not in absent:
            to_pair.append(e)

    win, loss = scaled(system.win), scaled(system.loss)
    for e in entrants.values():
        history = e.rounds[:played_rounds]
        # C2 (C.04.1 Art. 4): no PAB after a PAB, or after scoring a win's points unplayed.
        e.bye_eligible = not any(
            r.code == "U" or (not r.played and r.points >= win) for r in history
        )
        e.floats = (
            _float(e, 1, played_rounds, entrants, loss),
            _float(e, 2, played_rounds, entrants, loss),
        )
        e.forbidden = {r.opponent for r in history if r.played and r.opponent is not None}
    for a, b in data.forbidden_pairs:
        if a in entrants and b in entrants:
            entrants[a].forbidden.add(b)
            entrants[b].forbidden.add(a)

    if initial_colour is None:
        first = _infer_initial_colour(players, histories)
    else:
        first = WHITE if initial_colour == "w" else BLACK
    return Field(
        entrants=entrants,
        to_pair=to_pair,
        played_rounds=played_rounds,
        total_rounds=data.total_rounds,
        scale=scale,
        win=win,
        draw=scaled(system.draw),
        loss=loss,
        initial_colour=first,
    )


def _colours(e: Entrant) -> None:
    """1.6 colour difference and 1.7 colour preference from the played games (unplayed
    rounds do not count, C.04.2 3.4)."""
    whites = blacks = run = 0
    last = NO_COLOUR
    for r in e.rounds:
        if not r.played:
            continue
        e.played_games += 1
        if r.colour == WHITE:
            whites += 1
        else:
            blacks += 1
        run = 1 if not run or r.colour != last else run + 1
        last = r.colour
    lower = BLACK if whites > blacks else WHITE
    e.imbalance = abs(whites - blacks)
    if e.imbalance > 1:
        e.preference = lower  # 1.7.1: colour difference above 1
    elif run > 1:
        e.preference = invert(last)  # 1.7.1: the same colour in the two latest games
    elif e.imbalance > 0:
        e.preference = lower  # 1.7.2: strong
    elif run:
        e.preference = invert(last)  # 1.7.3: mild, alternate
    e.repeated = last if run > 1 else NO_COLOUR
    e.absolute_imbalance = e.imbalance > 1
    e.absolute = e.absolute_imbalance or e.repeated != NO_COLOUR
    e.strong = not e.absolute and e.imbalance > 0


def _float(
    e: Entrant, rounds_back: int, played_rounds: int, entrants: dict[int, Entrant], loss: int
) -> int:
    """1.4.2-1.4.3: the float a player received ``rounds_back`` rounds ago."""
    index = played_rounds - rounds_back
    if index < 0:
        return NO_FLOAT
    r = e.rounds[index]
    if not r.played:
        # 1.4.3: a PAB, or more than a loss's points without playing, is a downfloat.
        return DOWN if r.code == "U" or r.points > loss else NO_FLOAT
    assert r.opponent is not None
    mine = e.score_before(index)
    theirs = entrants[r.opponent].score_before(index)
    return DOWN if mine > theirs else UP if mine < theirs else NO_FLOAT


def _infer_initial_colour(players: list[Player], histories: dict[int, list[Round]]) -> int:
    """The colour the first player got in the first round with colours, as the reference
    engine infers it when a TRF does not say (5.1: drawn by lot before round 1)."""
    first_round = min(
        (i for rounds in histories.values() for i, r in enumerate(rounds) if r.colour != NO_COLOUR),
        default=None,
    )
    if first_round is None:
        return WHITE
    position = 0
    for p in players:
        rounds = histories[p.number]
        if not any(r.paired for r in rounds[: first_round + 1]):
            continue
        colour = rounds[first_round].colour if first_round < len(rounds) else NO_COLOUR
        if colour != NO_COLOUR:
            return invert(colour) if position & 1 else colour
        position += 1
    return WHITE


def infer_initial_colour(data: TournamentData) -> Colour:
    """The initial colour (5.1) a TRF without XXC implies: ``"w"`` or ``"b"``."""
    histories = {
        p.number: [
            Round(
                r.opponent,
                WHITE if r.colour == "w" else BLACK if r.colour == "b" else NO_COLOUR,
                0,
                r.played,
                r.opponent is not None or r.code in ("U", "+"),
                r.code,
            )
            for r in p.rounds
        ]
        for p in data.players
    }
    players = sorted(data.players, key=lambda p: p.number)
    return "b" if _infer_initial_colour(players, histories) == BLACK else "w"
