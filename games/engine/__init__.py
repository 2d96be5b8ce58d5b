"""The Modern Nardy rules engine: pure Python, no Django (RULES.md is the specification)."""

from .core import (
    BLACK,
    CARDS,
    WHITE,
    Card,
    State,
    card_text,
    from_board_json,
    parse_card,
    start_state,
)
from .errors import EngineError
from .moves import Play, Step, can_play, legal_plays, playable_cards

__all__ = [
    "BLACK",
    "CARDS",
    "WHITE",
    "Card",
    "EngineError",
    "Play",
    "State",
    "Step",
    "can_play",
    "card_text",
    "from_board_json",
    "legal_plays",
    "parse_card",
    "playable_cards",
    "start_state",
]
