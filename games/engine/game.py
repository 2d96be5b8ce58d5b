"""A game: turns validated one by one, the end of the game and organiser terminations
(RULES.md §4–§7)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .core import BLACK, GAME_PLIES, PHASE_PLIES, WHITE, SideName, State, card_text, other
from .core import start_state as _start_state
from .errors import EngineError
from .moves import Play, can_play, playable_cards
from .notation import parse_turn, resolve_turn
from .vocabulary import ENGINE_TERMINATIONS as _ENGINE
from .vocabulary import ORGANISER_TERMINATIONS as _ORGANISER
from .vocabulary import Result, Termination

# The vocabulary (vocabulary.py) as plain tuples in the order of RULES.md §7.
TERMINATIONS = tuple(t.value for t in Termination)
ENGINE_TERMINATIONS = tuple(t.value for t in Termination if t in _ENGINE)
ORGANISER_TERMINATIONS = tuple(t.value for t in Termination if t in _ORGANISER)
RESULTS = tuple(r.value for r in Result)


def win_for(side: SideName) -> str:
    return "1-0" if side == WHITE else "0-1"


DRAW = "1/2-1/2"
DOUBLE_FORFEIT = "0-0"


@dataclass(frozen=True, slots=True)
class Outcome:
    result: str
    termination: str

    @property
    def winner(self) -> SideName | None:
        return WHITE if self.result == "1-0" else BLACK if self.result == "0-1" else None


@dataclass(slots=True)
class Turn:
    """A played turn: the play, and what the sheet says beside it."""

    play: Play
    clock: str | None = None
    comments: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.play.text

    @property
    def side(self) -> SideName:
        return self.play.state.to_move

    @property
    def ply(self) -> int:
        return self.play.state.ply + 1


def decide(state: State, mover: SideName | None) -> Outcome | None:
    """The outcome the moves alone give after a turn by ``mover`` (None: undecided)."""
    if mover is not None and state.is_home(mover):
        return Outcome(win_for(mover), "home")
    if state.ply >= GAME_PLIES:
        return Outcome(DRAW, "cards")
    if not any(can_play(state, c) for c in _cards_in_hand(state)):
        return Outcome(win_for(other(state.to_move)), "blocked")
    return None


def _cards_in_hand(state: State) -> list[tuple[int, int]]:
    from .core import hand_cards

    return hand_cards(state.hand(state.to_move))


class Game:
    """A game from a start state: play turns, undo, terminate, adjourn."""

    def __init__(self, state: State | None = None) -> None:
        start = state or _start_state()
        self.states: list[State] = [start]
        self.turns: list[Turn] = []
        self.outcomes: list[Outcome | None] = [decide(start, None)]
        self.terminated: Outcome | None = None
        self.adjourned = False

    def copy(self) -> Game:
        """An independent copy: its lists and its turns (their clocks and comments) are its
        own; the states, plays and outcomes, which nothing changes, are shared."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.states = list(self.states)
        new.turns = [Turn(t.play, t.clock, list(t.comments)) for t in self.turns]
        new.outcomes = list(self.outcomes)
        new.terminated = self.terminated
        new.adjourned = self.adjourned
        return new

    # --- reading ------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def outcome(self) -> Outcome | None:
        return self.outcomes[-1] or self.terminated

    @property
    def result(self) -> str:
        return self.outcome.result if self.outcome else "*"

    @property
    def termination(self) -> str | None:
        return self.outcome.termination if self.outcome else None

    @property
    def ply(self) -> int:
        return self.state.ply

    @property
    def can_adjourn(self) -> bool:
        """Adjournment is possible right after ply 36 while the game is undecided (§6)."""
        return self.state.ply == PHASE_PLIES and self.outcome is None

    def playable_cards(self) -> list[tuple[int, int]]:
        return playable_cards(self.state)

    # --- playing ------------------------------------------------------------------------
    def check_turn(self, text: str) -> Play:
        """The play a turn's text means now, or an EngineError placed at this ply."""
        state = self.state
        ply = state.ply + 1
        side = state.to_move
        card_label: str | None = None
        try:
            if self.outcome is not None:
                raise EngineError("game_over", result=self.result, termination=self.termination)
            written = parse_turn(text)
            card_label = card_text(written.card)
            hand = state.hand(side)
            from .core import CARD_INDEX, hand_text

            if hand[CARD_INDEX[written.card]] == 0:
                raise EngineError("card_not_in_hand", hand=hand_text(hand))
            try:
                return resolve_turn(state, written)
            except EngineError:
                if not can_play(state, written.card):
                    playable = ", ".join(card_text(c) for c in playable_cards(state)) or "none"
                    raise EngineError("card_not_playable", playable=playable) from None
                raise
        except EngineError as exc:
            raise exc.at(ply=ply, side=side, card=card_label) from None

    def play(self, text: str, *, clock: str | None = None) -> Turn:
        """Validate and play a turn; raise EngineError (nothing changes) if it is illegal."""
        play = self.check_turn(text)
        turn = Turn(play, clock)
        new = play.position()
        self.states.append(new)
        self.turns.append(turn)
        self.outcomes.append(decide(new, play.state.to_move))
        self.adjourned = False
        return turn

    def undo(self) -> Turn:
        """Take back the last turn (and any organiser termination)."""
        if not self.turns:
            raise EngineError("syntax", text="undo", detail="there is no turn to take back")
        self.terminated = None
        self.adjourned = False
        self.states.pop()
        self.outcomes.pop()
        return self.turns.pop()

    def terminate(
        self, termination: str, side: SideName | None = None, *, result: str | None = None
    ) -> Outcome:
        """Enter an organiser termination (§7). ``side`` is the side concerned: the flagged
        side for ``time`` (default: the side to move), the resigning or absent side for
        ``resign`` and ``forfeit``, the losing side of an ``adjudication``; ``agreement``
        needs none. ``result`` is the arbiter's decision for ``adjudication`` (instead of a
        side; a draw has no side) and ``0-0`` for a double ``forfeit`` (neither came)."""
        if termination not in ORGANISER_TERMINATIONS:
            raise EngineError("bad_termination", termination=termination)
        if self.outcome is not None:
            raise EngineError("termination_decided", termination=termination)
        concerned = side or self.state.to_move
        if termination == "time":
            if self.state.ply < PHASE_PLIES:
                outcome = Outcome(win_for(other(concerned)), "time")
            else:
                outcome = Outcome(DRAW, "time")
        elif termination == "agreement":
            outcome = Outcome(DRAW, "agreement")
        elif termination == "forfeit":
            if self.turns:
                raise EngineError("forfeit_played", plies=len(self.turns))
            if result == DOUBLE_FORFEIT:
                outcome = Outcome(DOUBLE_FORFEIT, "forfeit")
            else:
                outcome = Outcome(win_for(other(concerned)), "forfeit")
        elif termination == "adjudication":
            if result is None and side is not None:
                result = win_for(other(side))
            if result not in ("1-0", "0-1", DRAW):
                raise EngineError("adjudication_result", termination=termination)
            outcome = Outcome(result, "adjudication")
        else:
            outcome = Outcome(win_for(other(concerned)), "resign")
        self.terminated = outcome
        self.adjourned = False
        return outcome

    def adjourn(self) -> None:
        if not self.can_adjourn:
            raise EngineError("not_adjournable")
        self.adjourned = True
