"""Legal plays of a card (RULES.md §3, §4, §5).

The generator works on the mover's view of the board: ``mine`` (the mover's 26 counts) and
``theirs`` (the opponent's counts re-indexed to the mover's numbering). A resulting board is
identified, for de-duplication, by one integer: the sum of the per-step changes
``U[to] - U[from]`` (5 bits a point, so the representation is unique) plus one bit per hit
point. No board is copied while enumerating; a play builds its board only when asked.
"""

from __future__ import annotations

from itertools import compress
from typing import Any, NamedTuple

from .core import BAR, BLACK, CHECKERS, GAME_PLIES, PHASE_PLIES, WHITE, Card, State, card_text

_U: tuple[int, ...] = tuple(1 << (5 * p) for p in range(26))
_HB: tuple[int, ...] = tuple(1 << (130 + p) for p in range(26))
#: Indexed by the number of opposing checkers on a point: may a step land there? a hit?
_OPEN_BY_COUNT: tuple[bool, ...] = (True, True) + (False,) * 14
_BLOT_BY_COUNT: tuple[bool, ...] = (False, True) + (False,) * 14
_POINTS_DOWN: tuple[int, ...] = tuple(range(24, 0, -1))


class Step(NamedTuple):
    """One number of a card: a checker from ``frm`` (25 = bar) to ``to``, hitting or not."""

    frm: int
    to: int
    hit: bool

    @property
    def text(self) -> str:
        return step_text(self.frm, self.to, self.hit)


def step_text(frm: int, to: int, hit: bool) -> str:
    """``13/8``, ``bar/22*``: a step in notation (§8.2)."""
    return f"{'bar' if frm == BAR else frm}/{to}{'*' if hit else ''}"


def format_turn(card: Card, steps: tuple[Step, ...] | list[Step]) -> str:
    """Canonical text of a turn: the card, then every step explicit with its hit marked."""
    return " ".join([card_text(card), *(s.text for s in steps)])


class View:
    """The mover's view of a state, built once per state."""

    __slots__ = ("mine", "theirs", "opens", "blots", "sources", "home", "moves")

    def __init__(self, state: State) -> None:
        if state.to_move == WHITE:
            mine, opp = state.white, state.black
        else:
            mine, opp = state.black, state.white
        theirs = (0, *opp[24:0:-1])  # theirs[p] = opp[25 - p] for p in 1..24
        self.mine = mine
        self.theirs = theirs
        self.opens = tuple(map(_OPEN_BY_COUNT.__getitem__, theirs))
        self.blots = tuple(map(_BLOT_BY_COUNT.__getitem__, theirs))
        self.sources = list(compress(_POINTS_DOWN, mine[24:0:-1]))
        self.home = mine[1] + mine[2] + mine[3] + mine[4] + mine[5] + mine[6]
        self.moves: list[list[tuple[int, int, int, bool]] | None] = [None] * 7

    def single(self, n: int) -> list[tuple[int, int, int, bool]]:
        """Every legal single step of ``n`` from a point (not the bar): (from, to, key, hit)."""
        cached = self.moves[n]
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
                    res.append((s, d, _U[d] - _U[s] + _HB[d], True))
                else:
                    res.append((s, d, _U[d] - _U[s], False))
        self.moves[n] = res
        return res


def view(state: State) -> View:
    cache = state._view
    if cache:
        v: View = cache[0]
        return v
    v = View(state)
    cache.append(v)
    return v


class Play:
    """A distinct legal play of a card: its steps in playing order, text and resulting board."""

    __slots__ = ("state", "card", "raw")

    def __init__(self, state: State, card: Card, raw: tuple[Any, ...]) -> None:
        self.state = state
        self.card = card
        # (from, to, hit) or (from, to, hit, from, to, hit)
        self.raw = raw

    @property
    def steps(self) -> tuple[Step, ...]:
        r = self.raw
        if len(r) == 3:
            return (Step(r[0], r[1], r[2]),)
        return (Step(r[0], r[1], r[2]), Step(r[3], r[4], r[5]))

    @property
    def text(self) -> str:
        return format_turn(self.card, self.steps)

    def position(self) -> State:
        """The state after the play (boards, hands, piles, ply, side to move)."""
        return advance(after(self.state, self.steps), self.card)

    @property
    def board(self) -> dict[str, Any]:
        """The §8.1 board after the play, ``to_move`` being the other side."""
        return after(self.state, self.steps).to_json()

    def __repr__(self) -> str:
        return f"Play({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and self.text == other.text and self.state == other.state

    def __hash__(self) -> int:
        return hash(self.text)


def after(state: State, steps: tuple[Step, ...] | list[Step]) -> State:
    """The boards after ``steps`` by the side to move; the other side is then to move.

    Hands, piles and ply are unchanged (see :func:`advance`). The steps are trusted.
    """
    mover = state.to_move
    mine = list(state.board(mover))
    opp = list(state.board(BLACK if mover == WHITE else WHITE))
    for s in steps:
        mine[s.frm] -= 1
        mine[s.to] += 1
        if s.hit:
            opp[25 - s.to] -= 1
            opp[BAR] += 1
    if mover == WHITE:
        white, black, nxt = tuple(mine), tuple(opp), BLACK
    else:
        white, black, nxt = tuple(opp), tuple(mine), WHITE
    return State(
        white=white,
        black=black,
        to_move=nxt,
        hands=state.hands,
        received=state.received,
        ply=state.ply,
    )


def advance(state: State, card: Card) -> State:
    """Hand the card over and count the ply (``state`` is the board after the play).

    The card leaves the mover's hand (if there) for the opponent's received pile; after
    ply 36 each side's hand becomes the pile it received (§6).
    """
    from .core import CARD_INDEX

    mover_idx = 1 if state.to_move == WHITE else 0  # state.to_move is already the next side
    i = CARD_INDEX[card]
    hands = [list(state.hands[0]), list(state.hands[1])]
    received = [list(state.received[0]), list(state.received[1])]
    if hands[mover_idx][i] > 0:
        hands[mover_idx][i] -= 1
        received[1 - mover_idx][i] += 1
    ply = state.ply + 1
    if ply == PHASE_PLIES:
        hands, received = received, [[0] * len(card_list) for card_list in hands]
    return State(
        white=state.white,
        black=state.black,
        to_move=state.to_move,
        hands=(tuple(hands[0]), tuple(hands[1])),
        received=(tuple(received[0]), tuple(received[1])),
        ply=min(ply, GAME_PLIES),
    )


def _enumerate(state: State, card: Card, first_only: bool) -> dict[int, tuple[Any, ...]]:
    v = view(state)
    a, b = card
    mine = v.mine
    opens = v.opens
    blots = v.blots
    seen: dict[int, tuple[Any, ...]] = {}
    on_bar = mine[BAR]

    if on_bar >= 2:
        ea, eb = 25 - a, 25 - b
        if opens[ea] and opens[eb]:
            seen[0] = (BAR, ea, blots[ea], BAR, eb, blots[eb])
        return seen

    if on_bar == 1:
        for x, y in ((a, b), (b, a)):
            e = 25 - x
            if not opens[e]:
                continue
            h1 = blots[e]
            k1 = _U[e] - _U[BAR] + (_HB[e] if h1 else 0)
            for s2, d2, k2, h2 in v.single(y):
                if d2 == e and h1:
                    key, h2 = k1 + k2 - _HB[e], False
                else:
                    key = k1 + k2
                if key not in seen:
                    seen[key] = (BAR, e, h1, s2, d2, h2)
                    if first_only:
                        return seen
            if not mine[e]:
                d2 = e - y
                if opens[d2]:
                    h2 = blots[d2]
                    key = k1 + _U[d2] - _U[e] + (_HB[d2] if h2 else 0)
                    if key not in seen:
                        seen[key] = (BAR, e, h1, e, d2, h2)
                        if first_only:
                            return seen
        return seen

    # No checker on the bar.  With 14 checkers home a first step can win at once (§5); then
    # both orders are enumerated in full.  Otherwise a play of order (b, a) by two different
    # checkers gives the same board as the same steps in order (a, b), so order (b, a) only
    # needs the plays where one checker takes both steps.
    near_win = v.home == CHECKERS - 1
    for x, y, full in ((a, b, True), (b, a, near_win)):
        mx = v.single(x)
        if not mx:
            continue
        my = v.single(y)
        for s1, d1, k1, h1 in mx:
            if near_win and d1 <= 6 < s1:
                if k1 not in seen:  # the 15th checker is home: the game ends (§5)
                    seen[k1] = (s1, d1, h1)
                    if first_only:
                        return seen
                continue
            if full:
                # The second step may use any checker but the one just moved off a point it
                # stood on alone (skip = s1 then); landing on d1 after hitting there is no hit.
                skip = s1 if mine[s1] == 1 else 0
                if h1:
                    for s2, d2, k2, h2 in my:
                        if s2 != skip:
                            if d2 == d1:
                                key, h2 = k1 + k2 - _HB[d1], False
                            else:
                                key = k1 + k2
                            if key not in seen:
                                seen[key] = (s1, d1, h1, s2, d2, h2)
                                if first_only:
                                    return seen
                else:
                    for s2, d2, k2, h2 in my:
                        if s2 != skip:
                            key = k1 + k2
                            if key not in seen:
                                seen[key] = (s1, d1, False, s2, d2, h2)
                                if first_only:
                                    return seen
                if mine[d1]:
                    continue  # d1 already was a source: its steps are in `my`
            d2 = d1 - y
            if d2 >= 1 and opens[d2]:
                h2 = blots[d2]
                key = k1 + _U[d2] - _U[d1] + (_HB[d2] if h2 else 0)
                if key not in seen:
                    seen[key] = (s1, d1, h1, d1, d2, h2)
                    if first_only:
                        return seen
    return seen


def legal_plays(state: State, card: Card | str) -> list[Play]:
    """Every distinct legal play of ``card`` for the side to move, whether or not the card is
    in hand; distinct means a distinct resulting board.  Empty if the card cannot be played
    in full (§4).  Steps are in playing order, hits marked; a play that wins after its first
    number has one step (§5)."""
    if isinstance(card, str):
        from .core import parse_card

        card = parse_card(card)
    return [Play(state, card, raw) for raw in _enumerate(state, card, False).values()]


def can_play(state: State, card: Card) -> bool:
    """True if the card can be played in full (or wins after its first number)."""
    return bool(_enumerate(state, card, True))


def playable_cards(state: State) -> list[Card]:
    """The distinct cards in the mover's hand that can be played (§4)."""
    from .core import hand_cards

    return [c for c in hand_cards(state.hand(state.to_move)) if can_play(state, c)]
