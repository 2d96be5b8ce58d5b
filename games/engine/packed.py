"""Packed positions and the search's move generator (RULES.md §3–§6).

The search looks at millions of positions, so a position is a few integers instead of a
:class:`~games.engine.core.State`:

* a **board** is one int with 8 bits a point, point ``p`` of the side's *own* numbering at
  bits ``8·(25 − p)``: ``board.to_bytes(26, "big")[p]`` is the count on the side's point
  ``p`` (25 is the bar), and ``board.to_bytes(26, "little")[p]`` is the count on the
  *opponent's* point ``p`` (their ``25 − p``), i.e. that board seen from the other side. A
  step from ``s`` to ``d < s`` adds ``V[d] − V[s] > 0``; a hit on the mover's point ``d``
  adds ``1 − 2^(8·d)`` to the opponent's board (one checker from their ``25 − d`` to their
  bar).
* a **hand** (or received pile) is one int with 2 bits a card, card ``i`` of
  :data:`~games.engine.core.CARDS` at bits ``2i`` (at most two of each).
* a **node** is ``(mine, theirs, hand_mine, hand_theirs, received_mine, received_theirs,
  ply)`` from the side to move's point of view; ``ply`` counts the turns played, so White is
  to move when it is even. In phase 2 the received piles are never used again and are kept
  at 0, so positions that differ only there are one position for the search.

Children are generated for all the cards of a node at once, over one view of the node, and
applied by adding integers: a distinct resulting board is found by the same key as in
:mod:`games.engine.moves` (the sum of the per-step changes plus one bit per hit point), and
that key *is* the change of the mover's board, so a child costs one addition.
"""

from __future__ import annotations

from .core import BAR, CARDS, CHECKERS, GAME_PLIES, PHASE_PLIES, WHITE, Hand, State

#: A node: (mine, theirs, hand_mine, hand_theirs, received_mine, received_theirs, ply).
Node = tuple[int, int, int, int, int, int, int]
#: A child: (card index, the mover's board after the play, the opponent's board, won).
Child = tuple[int, int, int, bool]

V: tuple[int, ...] = tuple(1 << (8 * (25 - p)) for p in range(26))
_HIT_BIT: tuple[int, ...] = tuple(1 << (208 + p) for p in range(26))
_BOARD_MASK = (1 << 208) - 1
_FIRST_HIT = 1 << 208
_HIT_THEIRS: tuple[int, ...] = tuple(1 - (1 << (8 * p)) for p in range(26))
#: bytes.translate tables: is a point open to the mover (fewer than two opposing checkers)?
#: does it hold a blot? is it occupied (one or more)?
_OPEN = bytes([1, 1] + [0] * 254)
_BLOT = bytes([0, 1] + [0] * 254)
_POINTS_DOWN: tuple[int, ...] = tuple(range(24, 0, -1))
_HOME_SUM = 0x010101010101

CARD_BITS: tuple[int, ...] = tuple(1 << (2 * i) for i in range(len(CARDS)))
FULL_HAND_BITS = sum(2 * b for b in CARD_BITS)


def pack_board(counts: tuple[int, ...] | list[int]) -> int:
    """26 counts in a side's own numbering → a packed board."""
    return int.from_bytes(bytes(counts), "big")


def unpack_board(board: int) -> tuple[int, ...]:
    return tuple(board.to_bytes(26, "big"))


def pack_hand(hand: Hand) -> int:
    return sum(n << (2 * i) for i, n in enumerate(hand))


def unpack_hand(bits: int) -> Hand:
    return tuple((bits >> (2 * i)) & 3 for i in range(len(CARDS)))


_CARDS_OF: dict[int, tuple[int, ...]] = {}


def cards_of(hand: int) -> tuple[int, ...]:
    """The indices of the distinct cards present in a packed hand."""
    found = _CARDS_OF.get(hand)
    if found is None:
        found = tuple(i for i in range(len(CARDS)) if (hand >> (2 * i)) & 3)
        _CARDS_OF[hand] = found
    return found


def hand_size(hand: int) -> int:
    return sum((hand >> (2 * i)) & 3 for i in range(len(CARDS)))


def home_count(board: int) -> int:
    """Checkers on points 1–6 (the top six bytes of a packed board)."""
    return (((board >> 152) * _HOME_SUM) >> 40) & 0xFF


def node_of(state: State) -> Node:
    """The packed node of a state, from the side to move's point of view."""
    w, b = 0, 1
    if state.to_move != WHITE:
        w, b = 1, 0
    boards = (pack_board(state.white), pack_board(state.black))
    hands = (pack_hand(state.hands[0]), pack_hand(state.hands[1]))
    received = (pack_hand(state.received[0]), pack_hand(state.received[1]))
    if state.ply >= PHASE_PLIES:
        received = (0, 0)
    return (boards[w], boards[b], hands[w], hands[b], received[w], received[b], state.ply)


def child_node(node: Node, card: int, mine: int, theirs: int) -> Node:
    """The node after the mover played card ``card`` giving boards ``mine``/``theirs``,
    from the opponent's point of view: the card leaves the hand for the opponent's pile;
    after ply 36 the hands become the received piles (§2, §6)."""
    _, _, hm, ht, rm, rt, ply = node
    bit = CARD_BITS[card]
    hm -= bit
    ply += 1
    if ply < PHASE_PLIES:
        return (theirs, mine, ht, hm, rt + bit, rm, ply)
    if ply == PHASE_PLIES:
        # The mover's new hand is what it received; the opponent's, its pile plus this card.
        return (theirs, mine, rt + bit, rm, 0, 0, ply)
    return (theirs, mine, ht, hm, 0, 0, min(ply, GAME_PLIES))


class Generator:
    """The mover's view of one node, shared by all the cards generated from it."""

    __slots__ = ("mine", "theirs", "mb", "opens", "blots", "sources", "home", "_singles")

    def __init__(self, mine: int, theirs: int) -> None:
        self.mine = mine
        self.theirs = theirs
        mb = mine.to_bytes(26, "big")
        tb = theirs.to_bytes(26, "little")
        self.mb = mb
        self.opens = tb.translate(_OPEN)
        self.blots = tb.translate(_BLOT)
        self.sources = [p for p in _POINTS_DOWN if mb[p]]
        self.home = mb[1] + mb[2] + mb[3] + mb[4] + mb[5] + mb[6]
        self._singles: list[list[tuple[int, int, int, int]] | None] = [None] * 7

    def singles(self, n: int) -> list[tuple[int, int, int, int]]:
        """Every single step of ``n`` from a point: (from, to, key, hit)."""
        cached = self._singles[n]
        if cached is not None:
            return cached
        opens = self.opens
        blots = self.blots
        res = []
        for s in self.sources:
            d = s - n
            if d < 1:
                break
            if opens[d]:
                if blots[d]:
                    res.append((s, d, V[d] - V[s] + _HIT_BIT[d], 1))
                else:
                    res.append((s, d, V[d] - V[s], 0))
        self._singles[n] = res
        return res

    def keys(self, a: int, b: int) -> tuple[dict[int, None], int]:
        """The distinct plays of card ``a:b`` as keys (see the module docstring), and the
        key of the play that wins after its first number, if any (0: none)."""
        mb = self.mb
        opens = self.opens
        blots = self.blots
        seen: dict[int, None] = {}
        on_bar = mb[BAR]
        if on_bar:
            if on_bar >= 2:
                ea, eb = 25 - a, 25 - b
                if opens[ea] and opens[eb]:
                    key = V[ea] + V[eb] - 2 * V[BAR]
                    if blots[ea]:
                        key += _HIT_BIT[ea]
                    if blots[eb]:
                        key += _HIT_BIT[eb]
                    seen[key] = None
                return seen, 0
            for x, y in ((a, b), (b, a)):
                e = 25 - x
                if not opens[e]:
                    continue
                h1 = blots[e]
                k1 = V[e] - V[BAR] + (_HIT_BIT[e] if h1 else 0)
                for _s2, d2, k2, _h2 in self.singles(y):
                    if d2 == e and h1:
                        seen[k1 + k2 - _HIT_BIT[e]] = None
                    else:
                        seen[k1 + k2] = None
                if not mb[e]:
                    d2 = e - y
                    if opens[d2]:
                        seen[k1 + V[d2] - V[e] + (_HIT_BIT[d2] if blots[d2] else 0)] = None
            return seen, 0

        # As in moves._enumerate: order (b, a) adds only one-checker plays, unless 14
        # checkers are home and a first number can win at once (§5).
        near_win = self.home == CHECKERS - 1
        win_key = 0
        for x, y, full in ((a, b, True), (b, a, near_win)):
            mx = self.singles(x)
            if not mx:
                continue
            my = self.singles(y)
            for s1, d1, k1, h1 in mx:
                if near_win and d1 <= 6 < s1:
                    win_key = k1
                    seen[k1] = None
                    continue
                if full:
                    skip = s1 if mb[s1] == 1 else 0
                    if h1:
                        for s2, d2, k2, _h2 in my:
                            if s2 != skip:
                                if d2 == d1:
                                    seen[k1 + k2 - _HIT_BIT[d1]] = None
                                else:
                                    seen[k1 + k2] = None
                    else:
                        for s2, _d2, k2, _h2 in my:
                            if s2 != skip:
                                seen[k1 + k2] = None
                    if mb[d1]:
                        continue
                d2 = d1 - y
                if d2 >= 1 and opens[d2]:
                    seen[k1 + V[d2] - V[d1] + (_HIT_BIT[d2] if blots[d2] else 0)] = None
        return seen, win_key

    def can_play(self, a: int, b: int) -> bool:
        """Can card ``a:b`` be played in full (or win after its first number)? (§4)"""
        mb = self.mb
        opens = self.opens
        on_bar = mb[BAR]
        if on_bar >= 2:
            return bool(opens[25 - a] and opens[25 - b])
        if on_bar == 1:
            for x, y in ((a, b), (b, a)):
                e = 25 - x
                if opens[e] and (self.singles(y) or (e - y >= 1 and opens[e - y])):
                    return True
            return False
        near_win = self.home == CHECKERS - 1
        for x, y in ((a, b), (b, a)):
            mx = self.singles(x)
            if not mx:
                continue
            my = self.singles(y)
            for s1, d1, _k1, _h1 in mx:
                if near_win and d1 <= 6 < s1:
                    return True
                if d1 - y >= 1 and opens[d1 - y]:
                    return True
                for s2, _d2, _k2, _h2 in my:
                    if s2 != s1 or mb[s1] > 1:
                        return True
        return False

    def count_playable(self, cards: tuple[int, ...]) -> int:
        """How many of the cards (indices) are playable."""
        n = 0
        for ci in cards:
            a, b = CARDS[ci]
            if self.can_play(a, b):
                n += 1
        return n

    def any_playable(self, cards: tuple[int, ...]) -> bool:
        """Is any of the cards (indices) playable? False means the mover is blocked."""
        for ci in cards:
            a, b = CARDS[ci]
            if self.can_play(a, b):
                return True
        return False

    def children(self, cards: tuple[int, ...]) -> list[Child]:
        """Every distinct play of every card in ``cards`` (indices), applied."""
        mine = self.mine
        theirs = self.theirs
        out: list[Child] = []
        append = out.append
        may_win = self.home >= CHECKERS - 2
        for ci in cards:
            a, b = CARDS[ci]
            seen, _ = self.keys(a, b)
            if may_win:
                for key in seen:
                    m = mine + (key & _BOARD_MASK)
                    t = theirs + _HIT_DELTA[key >> 208] if key >= _FIRST_HIT else theirs
                    append((ci, m, t, home_count(m) == CHECKERS))
            else:
                for key in seen:
                    if key < _FIRST_HIT:
                        append((ci, mine + key, theirs, False))
                    else:
                        append(
                            (ci, mine + (key & _BOARD_MASK), theirs + _HIT_DELTA[key >> 208], False)
                        )
        return out


def _hit_delta(hits: int) -> int:
    delta = 0
    p = 0
    while hits:
        if hits & 1:
            delta += _HIT_THEIRS[p]
        hits >>= 1
        p += 1
    return delta


#: The change of the opponent's board for each set of hit points (a play hits at most two).
_HIT_DELTA: dict[int, int] = {
    (1 << p) | (1 << q): _hit_delta((1 << p) | (1 << q)) for p in range(1, 25) for q in range(1, 25)
}
