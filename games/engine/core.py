"""Board, cards and the state of a game (RULES.md §1, §2, §6, §8.1)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from .errors import EngineError

SideName = Literal["white", "black"]
WHITE: SideName = "white"
BLACK: SideName = "black"
SIDES: tuple[SideName, SideName] = (WHITE, BLACK)

CHECKERS = 15
BAR = 25
#: Plies of phase 1 (18 cards a side) and of the whole game.
PHASE_PLIES = 36
GAME_PLIES = 72

Card = tuple[int, int]
#: The nine cards, smaller number first; each side holds two of each (§2).
CARDS: tuple[Card, ...] = ((1, 2), (1, 4), (1, 5), (2, 3), (2, 5), (2, 6), (3, 4), (3, 6), (4, 5))
CARD_INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
#: A hand or pile: how many of each of the nine cards, in the order of CARDS.
Hand = tuple[int, ...]
FULL_HAND: Hand = (2,) * len(CARDS)
EMPTY_HAND: Hand = (0,) * len(CARDS)

#: The start position in a side's own numbering (§1): 2 on 24, 5 on 13, 3 on 8, 5 on 6.
START_POINTS: tuple[int, ...] = tuple({24: 2, 13: 5, 8: 3, 6: 5}.get(i, 0) for i in range(26))


def ascii_number(text: str, max_digits: int) -> int | None:
    """The number ``text`` writes in 1 to ``max_digits`` ASCII digits, or None (the one test
    of the engine's readers: ``str.isdigit()`` is true for ``²``, which ``int()`` refuses, and
    ``\\d`` matches ``٣``, which ``int()`` reads as 3; a number of 5,000 digits is no card,
    point or move number either)."""
    if not 1 <= len(text) <= max_digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def other(side: SideName) -> SideName:
    return BLACK if side == WHITE else WHITE


def card_text(card: Card) -> str:
    return f"{card[0]}:{card[1]}"


#: ``card_text`` of each card, in the order of CARDS.
CARD_TEXTS: tuple[str, ...] = tuple(card_text(card) for card in CARDS)


def parse_card(text: str) -> Card:
    """``"4:5"`` → ``(4, 5)``; ``"5:4"`` is read as ``4:5`` (§8.2)."""
    parts = text.strip().split(":")
    a, b = (ascii_number(p, 1) for p in parts) if len(parts) == 2 else (None, None)
    if a is None or b is None:
        raise EngineError("bad_card", text=text)
    if a == b or not (1 <= a <= 6 and 1 <= b <= 6):
        raise EngineError("bad_card", text=text)
    card = (a, b) if a < b else (b, a)
    if card not in CARD_INDEX:
        raise EngineError("unknown_card", card=card_text(card))
    return card


def hand_cards(hand: Hand) -> list[Card]:
    """The distinct cards present in a hand, in the order of CARDS."""
    return [card for card, n in zip(CARDS, hand, strict=True) if n]


@lru_cache(maxsize=4096)
def hand_text(hand: Hand) -> str:
    """``"1:2 1:2 3:4"``; a replay writes four of them a ply, mostly the same hands."""
    parts = []
    for text, n in zip(CARD_TEXTS, hand, strict=True):
        parts.extend([text] * n)
    return " ".join(parts) if parts else "-"


def hand_from_cards(cards: Iterable[str | Card]) -> Hand:
    counts = [0] * len(CARDS)
    for c in cards:
        card = parse_card(c) if isinstance(c, str) else c
        counts[CARD_INDEX[card]] += 1
    return tuple(counts)


@dataclass(frozen=True, slots=True)
class State:
    """A position with everything needed to go on: boards, side to move, hands, piles, ply.

    ``white`` and ``black`` are 26 counts in that side's own numbering (§8.1): index 0 is
    always 0, 1–24 are points, 25 is the bar. White's point ``p`` is Black's ``25 - p``.
    ``hands`` and ``received`` are indexed like SIDES. ``ply`` counts the turns played.
    """

    white: tuple[int, ...]
    black: tuple[int, ...]
    to_move: SideName = WHITE
    hands: tuple[Hand, Hand] = (FULL_HAND, FULL_HAND)
    received: tuple[Hand, Hand] = (EMPTY_HAND, EMPTY_HAND)
    ply: int = 0
    # The mover's view, built once per state by the move generator (not part of equality).
    _view: list[Any] = field(default_factory=list, compare=False, repr=False, hash=False)

    # --- accessors --------------------------------------------------------------------
    def board(self, side: SideName) -> tuple[int, ...]:
        return self.white if side == WHITE else self.black

    def hand(self, side: SideName) -> Hand:
        return self.hands[0 if side == WHITE else 1]

    def received_pile(self, side: SideName) -> Hand:
        return self.received[0 if side == WHITE else 1]

    @property
    def phase(self) -> int:
        """Phase of the turn to be played next: 1 while fewer than 36 plies are played."""
        return 1 if self.ply < PHASE_PLIES else 2

    def home_count(self, side: SideName) -> int:
        return sum(self.board(side)[1:7])

    def is_home(self, side: SideName) -> bool:
        return self.home_count(side) == CHECKERS

    def to_json(self) -> dict[str, Any]:
        """The §8.1 board."""
        return {"white": list(self.white), "black": list(self.black), "to_move": self.to_move}

    def check(self) -> None:
        """Raise ``EngineError('bad_board')`` unless the invariants of §1 and §8.1 hold."""
        for side, board in ((WHITE, self.white), (BLACK, self.black)):
            if len(board) != 26:
                raise EngineError("bad_board", detail=f"{side} needs 26 counts, got {len(board)}")
            if any((not isinstance(n, int)) or isinstance(n, bool) or n < 0 for n in board):
                raise EngineError("bad_board", detail=f"{side} counts must be whole numbers ≥ 0")
            if board[0] != 0:
                raise EngineError("bad_board", detail=f"{side} index 0 must be 0 (no bearing off)")
            if sum(board) != CHECKERS:
                raise EngineError(
                    "bad_board", detail=f"{side} has {sum(board)} checkers instead of 15"
                )
        for p in range(1, 25):
            if self.white[p] and self.black[25 - p]:
                raise EngineError(
                    "bad_board",
                    detail=f"White's point {p} (Black's {25 - p}) holds checkers of both colours",
                )
        if self.to_move not in SIDES:
            raise EngineError("bad_board", detail="to_move must be 'white' or 'black'")
        for hand in (*self.hands, *self.received):
            if len(hand) != len(CARDS) or any(n < 0 or n > 2 for n in hand):
                raise EngineError("bad_board", detail="a hand holds at most two of each card")


def start_state() -> State:
    """The start position, White to move, both hands full (§1, §2, §6)."""
    return State(white=START_POINTS, black=START_POINTS)


def from_board_json(obj: Mapping[str, Any] | str) -> State:
    """A §8.1 board as a State. Hands default to full, piles to empty, ply to 0.

    Optional keys beyond §8.1: ``"ply"`` and ``"hands"``/``"received"`` as
    ``{"white": ["1:2", ...], "black": [...]}``.
    """
    if isinstance(obj, str):
        import json

        try:
            obj = json.loads(obj)
        except ValueError as exc:
            raise EngineError("bad_board", detail=f"not JSON ({exc})") from None
    if not isinstance(obj, Mapping):
        raise EngineError("bad_board", detail="a board is a JSON object")
    try:
        white = tuple(obj["white"])
        black = tuple(obj["black"])
    except (KeyError, TypeError):
        raise EngineError("bad_board", detail="'white' and 'black' arrays are required") from None
    to_move = obj.get("to_move", WHITE)
    hands = (FULL_HAND, FULL_HAND)
    received = (EMPTY_HAND, EMPTY_HAND)
    try:
        if "hands" in obj:
            hands = (hand_from_cards(obj["hands"][WHITE]), hand_from_cards(obj["hands"][BLACK]))
        if "received" in obj:
            received = (
                hand_from_cards(obj["received"][WHITE]),
                hand_from_cards(obj["received"][BLACK]),
            )
    except (KeyError, TypeError) as exc:
        raise EngineError("bad_board", detail=f"hands: {exc}") from None
    ply = obj.get("ply", 0)
    if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= GAME_PLIES:
        raise EngineError("bad_board", detail="ply must be a whole number from 0 to 72")
    state = State(
        white=white, black=black, to_move=to_move, hands=hands, received=received, ply=ply
    )
    state.check()
    return state
