"""Errors of the rules engine.

Every error carries a stable ``code`` and the ``params`` needed to say it again in another
language; ``str(error)`` is the English sentence. When the error belongs to a turn of a game,
``ply``, ``side`` and ``card`` say which one, and the message starts with
``ply 17 (Black, 3:6): ``.
"""

from __future__ import annotations

from typing import Any

#: English templates by code; the web layer keeps its own translated copy of each.
MESSAGES: dict[str, str] = {
    "syntax": "cannot read {text!r}: {detail}",
    "bad_card": "{text!r} is not a card: a card is two different numbers from 1 to 6, like 4:5",
    "unknown_card": "{card} is not one of the game's cards (1:2 1:4 1:5 2:3 2:5 2:6 3:4 3:6 4:5)",
    "bad_step": "cannot read the step {text!r}: a step is written from/to, like 13/8 or bar/22",
    "card_not_in_hand": "{side} has no {card} left; cards in hand: {hand}",
    "card_not_playable": (
        "{card} cannot be played in full in this position; playable cards: {playable}"
    ),
    "wrong_number": "step {step} moves {distance} points, but the card {card} has {remaining} left",
    "no_checker": "step {step} starts from point {point}, where {side} has no checker",
    "no_checker_on_bar": "step {step} enters from the bar, but {side} has no checker there",
    "bar_first": "step {step}: {side} has {count} checker(s) on the bar and must enter them first",
    "bear_off": "step {step} goes past point 1; there is no bearing off",
    "point_held": "step {step} lands on point {point}, held by {count} {opponent} checkers",
    "false_hit": "step {step} is marked with * but there is no blot on point {point}",
    "incomplete": "the card {card} is not played in full: {missing} is still to be played",
    "extra_step": (
        "step {step} is one too many: the card {card} has two numbers and the turn is complete"
    ),
    "won_already": "step {step} comes after the game was won (all 15 checkers home)",
    "ambiguous": "{text} can be played more than one way with different results: {routes}",
    "no_route": "{text} cannot be played with the card {card}: {reasons}",
    "game_over": "the game is already over ({result}, {termination})",
    "termination_decided": "{termination} is not possible: the game is already decided",
    "forfeit_played": "forfeit means the game was not played, but it has {plies} turn(s)",
    "bad_termination": "{termination!r} is not a termination an organiser can enter",
    "adjudication_result": "an adjudication needs the arbiter's result: 1-0, 0-1 or 1/2-1/2",
    "not_adjournable": "the game can be adjourned only right after ply 36, while it is undecided",
    "bad_board": "invalid board: {detail}",
    "record_tags": "malformed tag section: {detail}",
    "record_movetext": "cannot read the moves: {detail}",
    "record_result": "{detail}",
}


class EngineError(ValueError):
    """A rule or format error that a person can act on."""

    def __init__(
        self,
        code: str,
        *,
        ply: int | None = None,
        side: str | None = None,
        card: str | None = None,
        **params: Any,
    ) -> None:
        self.code = code
        self.params: dict[str, Any] = dict(params)
        self.ply = ply
        self.side = side
        self.card = card
        #: For ``no_route``: each route tried (its text) and the error that refused it.
        self.causes: list[tuple[str, EngineError]] = []
        super().__init__(self.message)

    @property
    def detail(self) -> str:
        """The sentence without the ``ply N (Side, card):`` prefix."""
        params = dict(self.params)
        params.setdefault("card", self.card)
        params.setdefault("side", self.side.capitalize() if self.side else None)
        return MESSAGES[self.code].format(**params)

    @property
    def message(self) -> str:
        if self.ply is None:
            return self.detail
        who = ", ".join(x for x in (self.side and self.side.capitalize(), self.card) if x)
        prefix = f"ply {self.ply} ({who})" if who else f"ply {self.ply}"
        return f"{prefix}: {self.detail}"

    def at(self, *, ply: int, side: str | None = None, card: str | None = None) -> EngineError:
        """The same error, placed at a turn of a game."""
        self.ply = ply
        self.side = self.side or side
        self.card = self.card or card
        self.args = (self.message,)
        return self

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "params": self.params,
            "ply": self.ply,
            "side": self.side,
            "card": self.card,
            "message": self.message,
        }
