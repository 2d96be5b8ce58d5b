"""The sheets replayed lately are kept in each process (``games.selectors.played_turns``): a
sheet seen again is a copy, a longer one plays only its new turns on a copy. The replay is a
function of the turns as stored, so what is kept must never show: every answer equals a
replay from the start, and what a caller does to its game never reaches the next caller."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import selectors
from games.engine import EngineError, legal_plays
from games.engine.game import Game as EngineGame
from tests.engine.helpers import random_game
from tests.hypothesis_profiles import examples


def stored(eg: EngineGame, *, clocks: bool = False) -> list[Any]:
    """The game's turns as the sheet stores them (text, clock, comments)."""
    return [
        SimpleNamespace(
            text=t.text,
            clock=f"0:{i % 60:02d}:00" if clocks and i % 3 == 0 else "",
            comments=["a note"] if i % 7 == 0 else [],
        )
        for i, t in enumerate(eg.turns)
    ]


def fresh(turns: list[Any]) -> EngineGame:
    """The replay from the start, as the sheet was replayed before anything was kept."""
    eg = EngineGame()
    for t in turns:
        played = eg.play(t.text, clock=t.clock or None)
        played.comments.extend(t.comments or [])
    return eg


def facts(eg: EngineGame) -> tuple[Any, ...]:
    return (
        eg.states,
        [(t.text, t.clock, list(t.comments)) for t in eg.turns],
        eg.outcomes,
        eg.terminated,
        eg.adjourned,
    )


@pytest.fixture(autouse=True)
def nothing_kept() -> Any:
    selectors._PLAYED.clear()
    yield
    selectors._PLAYED.clear()


@settings(max_examples=examples(60))
@given(
    seed=st.integers(0, 2**32 - 1),
    lengths=st.lists(st.integers(0, 72), min_size=1, max_size=12),
    clocks=st.booleans(),
)
def test_every_sheet_is_the_replay_from_the_start_whatever_was_kept_before(
    seed: int, lengths: list[int], clocks: bool
) -> None:
    """Prefixes of one game asked in any order (longer, shorter, the same again, far back),
    and what each caller then does to its own game: the next answer is still the replay."""
    turns = stored(random_game(seed), clocks=clocks)
    for n in lengths:
        n = min(n, len(turns))
        got = selectors.played_turns(turns[:n])
        assert facts(got) == facts(fresh(turns[:n]))
        # The caller's to change: a turn more, a comment, a clock, a termination.
        if got.outcome is None and got.playable_cards():
            card = got.playable_cards()[0]
            got.play(legal_plays(got.state, card)[0].text)
        if got.turns:
            got.turns[0].comments.append("changed by the caller")
            got.turns[-1].clock = "9:99:99"
        if got.outcome is None:
            got.terminate("resign", "white")
    assert len(selectors._PLAYED) <= selectors.PLAYED_KEPT


def test_a_sheet_a_turn_longer_plays_only_that_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    turns = stored(random_game(7, max_plies=40))
    expected = facts(fresh(turns[:40]))
    selectors.played_turns(turns[:39])
    plays: list[str] = []
    real = EngineGame.play

    def counted(self: EngineGame, text: str, **kwargs: Any) -> Any:
        plays.append(text)
        return real(self, text, **kwargs)

    monkeypatch.setattr(EngineGame, "play", counted)
    assert facts(selectors.played_turns(turns[:40])) == expected
    assert plays == [turns[39].text]
    plays.clear()
    selectors.played_turns(turns[:40])  # the same sheet again: nothing played
    assert plays == []
    # A sheet that differs in one stored comment is another sheet: replayed, not copied.
    changed = [SimpleNamespace(**vars(t)) for t in turns[:40]]
    changed[5].comments = ["another note"]
    assert selectors.played_turns(changed).turns[5].comments == ["another note"]
    assert selectors.played_turns(turns[:40]).turns[5].comments == turns[5].comments


def test_a_sheet_with_an_illegal_turn_raises_and_nothing_is_kept() -> None:
    turns = stored(random_game(3, max_plies=12))
    bad = [*turns[:6], SimpleNamespace(text="9:9 1/0 1/0", clock="", comments=[])]
    kept = len(selectors._PLAYED)
    with pytest.raises(EngineError):
        selectors.played_turns(bad)
    assert len(selectors._PLAYED) == kept
    assert facts(selectors.played_turns(turns[:6])) == facts(fresh(turns[:6]))


def test_the_engine_copy_is_independent() -> None:
    game = random_game(11, max_plies=20)
    game.turns[0].comments.append("kept")
    before = facts(game)
    copy = game.copy()
    assert facts(copy) == before
    copy.turns[0].comments.append("more")
    copy.turns[1].clock = "0:01:00"
    copy.undo()
    copy.terminate("resign", "black")
    assert facts(game) == before
