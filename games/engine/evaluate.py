"""A static evaluation of a packed node (see :mod:`games.engine.packed`) for the search.

It knows everything a position holds: both boards, both hands (the cards each side can still
play in this phase), both received piles (the next phase's hands), the ply and the phase.
The score is from the side to move's point of view, in hundredths of a pip of race
advantage; :func:`value_of` maps it into (−1, 1). Only the search's terminal nodes and the
race solver give ±1 and 0 as *proven* values; an evaluation never claims a result.

Terms, each for both sides:

* **race**: the pips still to travel until every checker is home (a point above 6 counts
  ``p − 6``, the bar 19), with the side to move a part of a card ahead; a lead of a few
  dozen pips decides a race, so the term levels off (``RACE_CAP``) and a big lead never
  outweighs the danger of being blocked;
* **reach**: whether the cards left in this game (this phase's hand, and in phase 1 the
  received pile that becomes the next hand) can bring the side home at all — a side that
  cannot may still win by blocking, but the race term is then worth less;
* **shots**: blots the other side can hit with a number of a card in its hand (directly,
  from the bar, or with both numbers of one card), weighted by the pips the hit would cost;
* **bar**: checkers on the bar against the points the other side holds in its home, weighted
  by the share of the hand that cannot enter — a side whose every card is shut out is blocked
  and loses (§4);

At the search's horizon :meth:`games.engine.search.Searcher._leaf` adds **mobility**: how
many of each side's cards are playable on the board (a side with one playable card is one
move from being blocked), and settles a mover that is blocked now or can get home now.
"""

from __future__ import annotations

import math
from operator import mul

from .core import CARDS, PHASE_PLIES

#: Distance to home of a checker on each point (index 25 = the bar: it re-enters at 19–24).
_HOME_DISTANCE = bytes([0] * 7 + list(range(1, 19)) + [19])
#: Pips a hit on the mover's point p costs: the checker goes from p (distance p − 6, or 0 in
#: home) back to the bar (distance 19).
_HIT_COST: tuple[int, ...] = tuple(19 - max(0, p - 6) for p in range(26))

TEMPO = 400
RACE_CAP = 6000.0
#: Score → value: tanh(score / SCALE), fitted to the results of engine games (see
#: docs/analysis.md): a 20-pip lead is worth about 0.3.
SCALE = 7000.0

_HAND_INFO: dict[int, tuple[int, int, tuple[tuple[int, int], ...], int]] = {}


def hand_info(hand: int) -> tuple[int, int, tuple[tuple[int, int], ...], int]:
    """(numbers mask with bit n for each number 1..6 on a card in hand, sums mask of the
    cards' a+b, the distinct cards, total pips of the hand)."""
    info = _HAND_INFO.get(hand)
    if info is None:
        numbers = 0
        sums = 0
        cards = []
        pips = 0
        for i, (a, b) in enumerate(CARDS):
            n = (hand >> (2 * i)) & 3
            if n:
                numbers |= (1 << a) | (1 << b)
                sums |= 1 << (a + b)
                cards.append((a, b))
                pips += n * (a + b)
        info = (numbers, sums, tuple(cards), pips)
        _HAND_INFO[hand] = info
    return info


_REACH: dict[int, int] = {}


def _reach_mask(hand: int) -> int:
    """The distances a card in ``hand`` can hit at (each number alone, and both numbers of
    one card by one checker), as a mask with byte ``n − 1`` full for distance ``n``."""
    found = _REACH.get(hand)
    if found is None:
        numbers, sums, _, _ = hand_info(hand)
        found = sum(0xFF << (8 * (n - 1)) for n in range(1, 13) if (numbers | sums) >> n & 1)
        _REACH[hand] = found
    return found


def _exposure(victim: bytes, hitter_view: bytes, hand: int) -> int:
    """Pips the side owning ``victim`` (own numbering) stands to lose to a hit next turn by
    the other side, whose board seen in the victim's numbering is ``hitter_view`` (index 0
    = the hitter's bar, which enters at the victim's point n)."""
    p = victim.find(1, 1, 25)
    if p < 0:
        return 0
    reach = _reach_mask(hand)
    worst = 0
    total = 0
    while p >= 0:
        start = p - 12 if p > 12 else 0
        # Byte n − 1 of this int is the hitter's count n points behind the blot.
        if int.from_bytes(hitter_view[start:p], "big") & reach:
            cost = _HIT_COST[p]
            total += cost
            if cost > worst:
                worst = cost
        p = victim.find(1, p + 1, 25)
    # One hit per turn is the likely loss; further exposed blots add a little.
    return worst + (total - worst) // 4


def _shut_out(bar: int, entry_view: bytes, hand: int) -> float:
    """Share of the hand's cards that cannot enter ``bar`` checkers against the points made
    in ``entry_view`` (the victim's numbering: entering with n lands on point 25 − n)."""
    if not bar:
        return 0.0
    _, _, cards, _ = hand_info(hand)
    if not cards:
        return 0.0
    closed = 0
    for a, b in cards:
        ea = entry_view[25 - a] >= 2
        eb = entry_view[25 - b] >= 2
        if (ea and eb) or (bar >= 2 and (ea or eb)):
            closed += 1
    return closed / len(cards)


def evaluate(
    mine: int, theirs: int, hand_mine: int, hand_theirs: int, rm: int, rt: int, ply: int
) -> int:
    """The score of a node for the side to move (see the module docstring)."""
    mb = mine.to_bytes(26, "big")
    tb = theirs.to_bytes(26, "big")
    d_mine: int = sum(map(mul, mb, _HOME_DISTANCE))
    d_theirs: int = sum(map(mul, tb, _HOME_DISTANCE))
    # A lead of a few dozen pips decides a race; beyond that only blocks matter, so the
    # race term levels off.
    race = (d_theirs - d_mine) * 100 + TEMPO
    score = int(RACE_CAP * math.tanh(race / RACE_CAP))

    # Reach: the pips left in this game's cards for each side.
    _, _, _, pips_mine = hand_info(hand_mine)
    _, _, _, pips_theirs = hand_info(hand_theirs)
    if ply < PHASE_PLIES:
        # The next hand is the pile received so far plus what the other side still plays.
        pips_mine += hand_info(rm + hand_theirs)[3]
        pips_theirs += hand_info(rt + hand_mine)[3]
    short_mine = d_mine > pips_mine
    short_theirs = d_theirs > pips_theirs
    if short_mine and short_theirs:
        score //= 4  # neither can race home: only a block decides

    # Shots: my blots under their next turn, theirs under mine (I move first: worth more).
    theirs_in_my_numbering = theirs.to_bytes(26, "little")
    mine_in_their_numbering = mine.to_bytes(26, "little")
    score -= _exposure(mb, theirs_in_my_numbering, hand_theirs) * 60
    score += _exposure(tb, mine_in_their_numbering, hand_mine) * 80

    # Checkers on the bar against a home board.
    if mb[25]:
        shut = _shut_out(mb[25], theirs_in_my_numbering, hand_mine)
        score -= int(shut * shut * 3000) + 300 * mb[25]
    if tb[25]:
        shut = _shut_out(tb[25], mine_in_their_numbering, hand_theirs)
        score += int(shut * shut * 3000) + 300 * tb[25]
    return score


def race_score(mine: int, theirs: int) -> int:
    """The race term alone (cheap): the pips the side to move is ahead, in hundredths."""
    d_mine: int = sum(map(mul, mine.to_bytes(26, "big"), _HOME_DISTANCE))
    d_theirs: int = sum(map(mul, theirs.to_bytes(26, "big"), _HOME_DISTANCE))
    return (d_theirs - d_mine) * 100


def value_of(score: int) -> float:
    """A heuristic score as a value in (−1, 1) (never a proven ±1)."""
    v = math.tanh(score / SCALE)
    return max(-0.99, min(0.99, v))
