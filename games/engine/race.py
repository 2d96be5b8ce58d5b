"""Exact results of races: positions where the two armies have passed each other.

Once every checker of the side to move stands on a lower point (in its numbering) than every
opposing checker and nobody is on the bar, no checker can ever land where an opposing one
stands again: no hit, no held point, no entry. The two sides then play two separate
solitaires — each its own board with its own cards — and nothing one side does changes what
the other can do. The cards do not connect them either: in phase 2 the played cards are
never used again, and the phase-2 hand of each side is the pile it will have received at
ply 36, which is the pile received so far plus every card the other side still holds (the
other side must play them all before ply 36), whatever the order (RULES.md §2, §6).

In its solitaire a side's turns can end in three ways: all checkers home after its k-th turn
(``H(k)``, a win unless the game ended before), no playable card at the start of its k-th
turn (``B(k)``, a loss unless …), or every card played (``D``). Getting home as early as
possible is better than any other plan whatever the opponent does (nothing can happen to the
side before its home turn), and when it cannot get home at all, surviving longest is best.
So each side has a best plan that does not depend on the other's, and the game's result is
decided by which side's event comes first (or a draw if neither side has one). Each side's
best plan is found exactly by a depth-first search over its own plays with memoisation and a
pip bound; a search that needs more than its budget gives up (no result, the main search
then goes on as usual). Results are therefore either exact or absent.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import mul

from .core import CARDS, CHECKERS, GAME_PLIES, PHASE_PLIES
from .packed import Generator, Node, cards_of, hand_size, home_count

_HOME_DISTANCE = bytes([0] * 7 + list(range(1, 19)) + [19])
_SLACK = bytes([0] + list(range(0, 24)) + [24])
#: Outcome kinds of one side's solitaire.
HOME, SURVIVE, BLOCKED = 2, 1, 0

#: (kind, turn): ``(HOME, k)`` home after the k-th own turn, ``(BLOCKED, k)`` no playable card
#: at the start of the k-th turn, ``(SURVIVE, n)`` all n turns of the horizon played.
Outcome = tuple[int, int]


class _OverBudget(Exception):
    pass


def distance_home(board: int) -> int:
    """Pips still to travel until all checkers are home."""
    d: int = sum(map(mul, board.to_bytes(26, "big"), _HOME_DISTANCE))
    return d


def slack(board: int) -> int:
    """Pips the checkers can still move at all (no bearing off: down to point 1)."""
    d: int = sum(map(mul, board.to_bytes(26, "big"), _SLACK))
    return d


_SUMS: dict[int, tuple[int, ...]] = {}


def _card_sums(hand: int) -> tuple[int, ...]:
    """The a+b of every card in a hand, largest first."""
    found = _SUMS.get(hand)
    if found is None:
        sums: list[int] = []
        for i, (a, b) in enumerate(CARDS):
            sums.extend([a + b] * ((hand >> (2 * i)) & 3))
        found = tuple(sorted(sums, reverse=True))
        _SUMS[hand] = found
    return found


def _most_pips(hand: int, nxt: int, k: int) -> int:
    """The most pips ``k`` turns can move: the largest cards of this hand, then of the
    next."""
    first = _card_sums(hand)
    if k <= len(first):
        return sum(first[:k])
    return sum(first) + sum(_card_sums(nxt)[: k - len(first)])


def _least_pips(hand: int, nxt: int, k: int) -> int:
    """The fewest pips ``k`` turns must move (each turn plays both numbers of a card
    unless it wins)."""
    first = _card_sums(hand)
    if k <= len(first):
        return sum(first[len(first) - k :])
    later = _card_sums(nxt)
    return sum(first) + sum(later[len(later) - (k - len(first)) :])


def in_contact(mine: int, theirs: int) -> bool:
    """Can a checker of the side to move ever meet an opposing checker again?"""
    mb = mine.to_bytes(26, "big")
    tv = theirs.to_bytes(26, "little")  # the opponent in the mover's numbering, bar at 0
    if mb[25] or tv[0]:
        return True
    my_highest = len(mb.rstrip(b"\0")) - 1
    their_lowest = 26 - len(tv.lstrip(b"\0"))
    return my_highest >= their_lowest


def _fields_ok(hand: int) -> bool:
    return all((hand >> (2 * i)) & 3 <= 2 for i in range(len(CARDS)))


class RaceSolver:
    """Solves races exactly (or gives up); remembers what it solved.

    ``budget`` bounds the work of one :meth:`solve` (plays generated); ``check`` is called
    now and then and may raise to stop the solver (the search's clock).
    """

    def __init__(
        self,
        budget: int = 5000,
        memo_limit: int = 300_000,
        check: Callable[[], None] | None = None,
    ) -> None:
        self.budget = budget
        self.memo_limit = memo_limit
        self.check = check
        #: (board, hand, next hand) → [most turns known not to reach home, fewest known to]
        self._home: dict[tuple[int, int, int], list[int]] = {}
        self._survive: dict[tuple[int, int, int, int], int] = {}
        self._outcomes: dict[tuple[int, int, int, int], Outcome] = {}
        #: Subproblems that ran out of budget, with the budget they had.
        self._failed: dict[tuple[int, int, int, int], int] = {}
        self._spent = 0
        self._limit = budget

    def solve(self, node: Node, budget: int | None = None) -> tuple[int, int] | None:
        """(outcome for the side to move: 1, 0 or -1; plies until the game ends) for a race,
        None for a position in contact or one the budget did not solve."""
        mine, theirs, hm, ht, rm, rt, ply = node
        if ply >= GAME_PLIES or in_contact(mine, theirs):
            return None
        if home_count(mine) == CHECKERS or home_count(theirs) == CHECKERS:
            return None  # not a position of a game in progress
        if ply < PHASE_PLIES:
            mine_left = (PHASE_PLIES - ply + 1) // 2
            theirs_left = (PHASE_PLIES - ply) // 2
            next_mine, next_theirs = rm + ht, rt + hm
            if not (_fields_ok(next_mine) and _fields_ok(next_theirs)):
                return None
            if hand_size(next_mine) != 18 or hand_size(next_theirs) != 18:
                return None
        else:
            mine_left = (GAME_PLIES - ply + 1) // 2
            theirs_left = (GAME_PLIES - ply) // 2
            next_mine = next_theirs = 0
        if hand_size(hm) != mine_left or hand_size(ht) != theirs_left:
            return None  # hands that do not fit the ply: not a position of a game
        if len(self._home) + len(self._survive) + len(self._failed) > self.memo_limit:
            self._home.clear()
            self._survive.clear()
            self._outcomes.clear()
            self._failed.clear()
        self._spent = 0
        self._limit = budget or self.budget
        try:
            return self._decide(mine, hm, next_mine, theirs, ht, next_theirs)
        except _OverBudget:
            return None

    def _decide(
        self, mine: int, hm: int, nm: int, theirs: int, ht: int, nt: int
    ) -> tuple[int, int] | None:
        turns_mine = hand_size(hm) + hand_size(nm)
        turns_theirs = hand_size(ht) + hand_size(nt)
        kind, k = self.outcome(mine, hm, nm, turns_mine)
        # Event times in half-plies from now: the mover's k-th turn is ply 2k − 1, the
        # opponent's j-th is ply 2j; a blocked check comes just before its turn.
        if kind == HOME:
            # The opponent wins only by getting home before the mover's k-th turn.
            okind, j = self.outcome(theirs, ht, nt, min(k - 1, turns_theirs))
            if okind == HOME:
                return -1, 2 * j
            if okind == BLOCKED:
                return 1, 2 * j - 1
            return 1, 2 * k - 1
        if kind == SURVIVE:
            okind, j = self.outcome(theirs, ht, nt, turns_theirs)
            if okind == HOME:
                return -1, 2 * j
            if okind == BLOCKED:
                return 1, 2 * j - 1
            return 0, turns_mine + turns_theirs
        # The mover is blocked at the start of its k-th turn: the opponent must get home
        # or be blocked first, within its first k − 1 turns.
        okind, j = self.outcome(theirs, ht, nt, min(k - 1, turns_theirs))
        if okind == HOME:
            return -1, 2 * j
        if okind == BLOCKED:
            return 1, 2 * j - 1
        return -1, 2 * k - 2

    # --- one side's solitaire ----------------------------------------------------------------
    def outcome(self, board: int, hand: int, nxt: int, horizon: int) -> Outcome:
        """The best plan of a side within its next ``horizon`` turns: home as early as
        possible, else all ``horizon`` turns played, else blocked as late as possible."""
        if hand == 0:
            # After ply 35 the side that moved first has played its phase-1 hand: its next
            # turn is played from the next hand.
            hand, nxt = nxt, 0
        key = (board, hand, nxt, horizon)
        found = self._outcomes.get(key)
        if found is not None:
            return found
        if self._failed.get(key, -1) >= self._limit:
            raise _OverBudget  # as hard as before, with no more budget than before
        try:
            result = self._outcome(board, hand, nxt, horizon)
        except _OverBudget:
            self._failed[key] = self._limit
            raise
        self._outcomes[key] = result
        return result

    def _outcome(self, board: int, hand: int, nxt: int, horizon: int) -> Outcome:
        if horizon <= 0:
            return (SURVIVE, 0)
        distance = distance_home(board)
        outside = CHECKERS - home_count(board)
        for k in range(1, horizon + 1):
            if (
                2 * k >= outside
                and _most_pips(hand, nxt, k) >= distance
                and self.home_within(board, hand, nxt, k, distance)
            ):
                return (HOME, k)
        played = self.survive(board, hand, nxt, horizon)
        if played >= horizon:
            return (SURVIVE, horizon)
        return (BLOCKED, played + 1)

    def _children(self, board: int, hand: int, nxt: int) -> list[tuple[int, int, int, bool]]:
        """(board after, hand after, next hand after, home) for every distinct play of the
        turn."""
        if self.check is not None:
            self.check()
        gen = Generator(board, 0)
        out = []
        for ci, m, _t, won in gen.children(cards_of(hand)):
            h = hand - (1 << (2 * ci))
            if h == 0 and nxt:
                out.append((m, nxt, 0, won))
            else:
                out.append((m, h, nxt, won))
        self._spent += len(out) + 1
        if self._spent > self._limit:
            raise _OverBudget
        return out

    def home_within(self, board: int, hand: int, nxt: int, k: int, distance: int) -> bool:
        """Can the side have every checker home within its next ``k`` turns? (``distance``
        is :func:`distance_home` of ``board``.)"""
        key = (board, hand, nxt)
        known = self._home.get(key)
        if known is None:
            known = [0, 99]
            self._home[key] = known
        elif k <= known[0]:
            return False
        elif k >= known[1]:
            return True
        children = self._children(board, hand, nxt)
        result = False
        if any(c[3] for c in children):
            result = True
            known[1] = 1
        elif k > 1:
            seen: set[tuple[int, int, int]] = set()
            ranked = []
            for m, h, n, _ in children:
                if (m, h, n) not in seen:
                    seen.add((m, h, n))
                    ranked.append((distance_home(m), m, h, n))
            ranked.sort()
            for d, m, h, n in ranked:
                if 2 * (k - 1) < CHECKERS - home_count(m) or _most_pips(h, n, k - 1) < d:
                    continue
                if self.home_within(m, h, n, k - 1, d):
                    result = True
                    break
        if result:
            known[1] = min(known[1], k)
        else:
            known[0] = max(known[0], k)
        return result

    def survive(self, board: int, hand: int, nxt: int, horizon: int) -> int:
        """How many of its next ``horizon`` turns the side can play at most (without getting
        home: call this only when home is out of reach within the horizon)."""
        if horizon <= 0 or (hand == 0 and nxt == 0):
            return 0
        key = (board, hand, nxt, horizon)
        found = self._survive.get(key)
        if found is not None:
            return found
        # Every turn moves a+b pips: no more turns than the checkers have room for.
        room = slack(board)
        most = 0
        while most < horizon and _least_pips(hand, nxt, most + 1) <= room:
            most += 1
        best = 0
        if most:
            children = self._children(board, hand, nxt)
            if children:
                best = 1
                # Keep checkers high: a checker deep in home can hardly move.
                seen: set[tuple[int, int, int]] = set()
                ranked = []
                for m, h, n, _ in children:
                    if (m, h, n) not in seen:
                        seen.add((m, h, n))
                        ranked.append((-slack(m), m, h, n))
                ranked.sort()
                for _, m, h, n in ranked:
                    if best >= most:
                        break
                    got = 1 + self.survive(m, h, n, horizon - 1)
                    if got > best:
                        best = got
        self._survive[key] = best
        return best
