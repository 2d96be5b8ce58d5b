"""Two kinds of error (STYLE.md): a user error the organiser can fix, and everything else.

A ``PairingError`` carries a stable ``code`` and the ``params`` needed to say it again in
another language (like ``games.engine.EngineError``); ``str(error)`` is the English sentence,
prefixed with ``line N: `` when it belongs to a line of a TRF file. The web layer keeps its
own translated copy of each template, keyed by code.
"""

from __future__ import annotations

from typing import TypedDict

#: English templates by code (``str.format`` fields are the params).
MESSAGES: dict[str, str] = {
    # Pairing a round.
    "pairing.no_legal_pairing": (
        "no legal pairing exists for the next round: check the forbidden pairs, requested "
        "byes and withdrawals"
    ),
    "pairing.all_rounds_paired": "all {rounds} rounds are already paired",
    "pairing.unfinished_round": "player {player} has no result in round {round} yet",
    "pairing.unknown_opponent": "player {player} has an unknown opponent in round {round}",
    "pairing.unknown_ruleset": "{ruleset!r} is not a pairing ruleset (known: {known})",
    "pairing.legacy_input": "the 2017 engine could not read the tournament: {detail}",
    # Round robin.
    "roundrobin.too_few": "a round robin needs at least two players",
    "roundrobin.no_such_round": (
        "the round robin has {rounds} rounds; round {round} is not one of them"
    ),
    # Reading a TRF file (each of these comes with the line number).
    "trf.not_utf8": "the file is not UTF-8 text",
    "trf.nul": "the line contains a NUL byte",
    "trf.too_long": "the line has {length} characters, more than {limit}",
    "trf.too_many_lines": "the file has more than {limit} lines",
    "trf.short_player_line": "a player line needs at least {needed} characters, this one has {length}",
    "trf.bad_field": "{field} {value!r} is not valid",
    "trf.bad_result": "round {round}: {value!r} is not a round entry (opponent, colour, result)",
    "trf.bad_result_code": "round {round}: {value!r} is not a result code",
    "trf.bad_colour": "round {round}: {value!r} is not a colour (w, b or -)",
    "trf.played_needs_opponent": "round {round}: a played game needs an opponent and a colour",
    "trf.bye_with_opponent": "round {round}: a bye has no opponent and no colour",
    "trf.own_opponent": "round {round}: a player cannot be their own opponent",
    "trf.unknown_opponent": "round {round}: there is no player {opponent}",
    "trf.opponent_disagrees": ("round {round}: player {opponent}'s entry does not match this one"),
    "trf.duplicate_number": "starting number {number} is used twice",
    "trf.missing_number": "starting number {number} is missing",
    "trf.points_mismatch": "the points {given} do not match the results ({computed})",
    "trf.too_many_rounds": "{count} rounds entered but the tournament has {rounds}",
    "trf.no_rounds": "the number of rounds (XXR) is missing",
    "trf.duplicate_code": "{what} is given twice",
    "trf.bad_rounds": "{value!r} is not a number of rounds",
    "trf.bad_configuration": "{value!r} is not a configuration (XXC: white1, black1, rank)",
    "trf.bad_points_system": "{value!r} is not a points setting (XXS: code=points)",
    "trf.bad_forbidden_pair": "a forbidden pair (XXP) names two or more players: {value!r}",
    "trf.bad_acceleration": "{value!r} is not an acceleration (XXA: number, points per round)",
    "trf.no_players": "the file has no players",
    "trf.too_many_players": "the file has more than {limit} players",
}


#: A message parameter: a number (player, round, line, count) or a text.
Param = int | str


class ErrorDict(TypedDict):
    code: str
    params: dict[str, Param]
    line: int | None
    message: str


class PairingError(ValueError):
    """A request that cannot be carried out as asked (translated by the web layer): no
    legal pairing, no rounds left, a broken TRF line, ..."""

    def __init__(self, code: str, *, line: int | None = None, **params: Param) -> None:
        self.code = code
        self.params: dict[str, Param] = dict(params)
        self.line = line
        super().__init__(self.message)

    @property
    def detail(self) -> str:
        """The sentence without the ``line N:`` prefix."""
        template = MESSAGES.get(self.code)
        if template is None:
            return self.code
        try:
            return template.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return f"{template} {self.params}"

    @property
    def message(self) -> str:
        return f"line {self.line}: {self.detail}" if self.line else self.detail

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> ErrorDict:
        return {
            "code": self.code,
            "params": self.params,
            "line": self.line,
            "message": self.message,
        }
