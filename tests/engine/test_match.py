"""The match harness and its players (the full match is in docs/analysis.md)."""

from __future__ import annotations

import random

from games.engine import legal_plays
from games.engine.game import Game
from games.engine.match import play_game, play_match
from games.engine.moves import after
from games.engine.players import (
    EnginePlayer,
    GreedyPlayer,
    RandomPlayer,
    all_plays,
    distance_home,
    keeps_a_card,
)


def test_the_engine_beats_a_random_player_in_a_short_match() -> None:
    """Four games with colours alternating. A node budget instead of a clock makes the
    engine's choices, and so the games, the same on every run and every machine."""
    match = play_match(EnginePlayer(ms=None, max_nodes=1500), RandomPlayer(seed=3), 4)
    assert [g.colour for g in match.games] == ["white", "black", "white", "black"]
    assert all(g.termination in ("home", "blocked", "cards") for g in match.games)
    assert match.score == 1.0
    summary = match.summary()
    assert summary["games"] == 4 and summary["wins"] == 4 and summary["score"] == 1.0


def test_a_match_game_is_a_legal_game_to_its_end() -> None:
    game = play_game(GreedyPlayer(seed=1), EnginePlayer(ms=None, max_nodes=300))
    assert game.outcome is not None and game.termination in ("home", "blocked", "cards")
    replay = Game()
    for turn in game.turns:
        replay.play(turn.text)
    assert (replay.result, replay.termination) == (game.result, game.termination)


def _positions(count: int) -> list:  # type: ignore[type-arg]
    rng = random.Random(8)
    out = []
    while len(out) < count:
        game = Game()
        while game.outcome is None and len(out) < count:
            out.append(game.state)
            card = rng.choice(game.playable_cards())
            game.play(rng.choice(legal_plays(game.state, card)).text)
    return out


def test_the_greedy_player_brings_the_most_pips_home_keeping_a_card() -> None:
    greedy = GreedyPlayer(seed=2)
    for state in _positions(150):
        mover = state.to_move
        chosen = greedy.choose(state)
        plays = all_plays(state)
        assert chosen.text in {p.text for p in plays}

        def progress(play, state=state, mover=mover):  # type: ignore[no-untyped-def]
            board = after(state, play.steps).board(mover)
            return distance_home(state.board(mover)) - distance_home(board)

        if sum(after(state, chosen.steps).board(mover)[1:7]) == 15:
            continue  # a win is always taken
        keeping = [p for p in plays if keeps_a_card(state, p)]
        pool = keeping or plays
        assert chosen in pool
        assert progress(chosen) == max(progress(p) for p in pool)


def test_the_random_player_plays_legal_plays_and_varies() -> None:
    player = RandomPlayer(seed=4)
    state = Game().state
    chosen = {player.choose(state).text for _ in range(30)}
    assert len(chosen) > 5
    assert chosen <= {p.text for p in all_plays(state)}
