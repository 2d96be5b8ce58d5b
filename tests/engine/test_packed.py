"""The search's packed positions and move generator against legal_plays and the naive
reference (hypothesis), including the hand-over of cards and the phase switch."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import CARDS, State, can_play, legal_plays
from games.engine.core import CARD_INDEX
from games.engine.game import Game
from games.engine.moves import after
from games.engine.packed import (
    Generator,
    cards_of,
    child_node,
    node_of,
    pack_board,
    pack_hand,
    unpack_board,
    unpack_hand,
)
from tests.hypothesis_profiles import examples

from .helpers import position
from .reference import reference_boards

SETTINGS = settings(max_examples=examples(150))


@st.composite
def reachable(draw: st.DrawFn) -> State:
    """A position reached by random legal turns from the start (either phase)."""
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(0, 71))
    rng = random.Random(seed)
    game = Game()
    while game.outcome is None and game.ply < plies:
        card = rng.choice(game.playable_cards())
        game.play(rng.choice(legal_plays(game.state, card)).text)
    return game.state


def boards_of(state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    mover = state.to_move
    return state.board(mover), state.board("black" if mover == "white" else "white")


def by_card(state: State) -> dict[int, set[tuple[tuple[int, ...], tuple[int, ...], bool]]]:
    node = node_of(state)
    out: dict[int, set[tuple[tuple[int, ...], tuple[int, ...], bool]]] = {}
    children = Generator(node[0], node[1]).children(tuple(range(len(CARDS))))
    for ci, m, t, won in children:
        out.setdefault(ci, set()).add((unpack_board(m), unpack_board(t), won))
    assert len(children) == sum(len(v) for v in out.values()), "children are not distinct"
    return out


@SETTINGS
@given(reachable())
def test_children_are_the_reference_boards_for_every_card(state: State) -> None:
    mine, theirs = boards_of(state)
    got = by_card(state)
    for ci, card in enumerate(CARDS):
        boards = {(m, t) for m, t, _ in got.get(ci, set())}
        assert boards == reference_boards(mine, theirs, card), card
        # won: every checker of the mover home after the play (§5)
        for m, _, won in got.get(ci, set()):
            assert won == (sum(m[1:7]) == 15)


@SETTINGS
@given(reachable())
def test_children_are_the_boards_of_legal_plays(state: State) -> None:
    got = by_card(state)
    mover = state.to_move
    other = "black" if mover == "white" else "white"
    for ci, card in enumerate(CARDS):
        expected = set()
        for play in legal_plays(state, card):
            board = after(state, play.steps)
            expected.add((board.board(mover), board.board(other)))
        assert {(m, t) for m, t, _ in got.get(ci, set())} == expected


@SETTINGS
@given(reachable())
def test_can_play_agrees_with_the_engine(state: State) -> None:
    node = node_of(state)
    gen = Generator(node[0], node[1])
    for card in CARDS:
        assert gen.can_play(*card) == can_play(state, card), card
    hand = cards_of(node[2])
    assert gen.any_playable(hand) == any(can_play(state, CARDS[i]) for i in hand)


@SETTINGS
@given(reachable(), st.data())
def test_child_nodes_hand_the_card_over_like_the_game(state: State, data: st.DataObject) -> None:
    """Hands, piles, ply and the phase switch after ply 36 (§2, §6) as Play.position()."""
    plays = [p for c in Game(state).playable_cards() for p in legal_plays(state, c)]
    if not plays:
        return
    play = data.draw(st.sampled_from(plays))
    nxt = play.position()
    node = node_of(state)
    mover, other = boards_of(state)
    board = after(state, play.steps)
    child = child_node(
        node,
        CARD_INDEX[play.card],
        pack_board(board.board(state.to_move)),
        pack_board(board.board(nxt.to_move)),
    )
    assert child == node_of(nxt)


def test_the_card_of_ply_36_goes_into_the_next_hand() -> None:
    game = Game()
    rng = random.Random(4)
    while game.ply < 35:
        card = rng.choice(game.playable_cards())
        game.play(rng.choice(legal_plays(game.state, card)).text)
    assert game.outcome is None
    state = game.state
    node = node_of(state)
    assert len(cards_of(node[2])) == 1  # Black's last phase-1 card
    ci = cards_of(node[2])[0]
    play = legal_plays(state, CARDS[ci])[0]
    board = after(state, play.steps)
    child = child_node(node, ci, pack_board(board.black), pack_board(board.white))
    assert unpack_hand(child[2]) == unpack_hand(child[3]) == (2,) * 9  # full hands again
    assert child[4] == child[5] == 0 and child[6] == 36


def test_pack_round_trips() -> None:
    state = position({24: 2, 13: 5, 8: 3, 6: 4, 25: 1}, {2: 15})
    assert unpack_board(pack_board(state.white)) == state.white
    assert unpack_hand(pack_hand((2, 1, 0, 2, 0, 1, 2, 0, 1))) == (2, 1, 0, 2, 0, 1, 2, 0, 1)


def test_a_first_number_that_brings_the_last_checker_home_ends_the_play() -> None:
    state = position({1: 14, 7: 1}, {13: 15})
    got = by_card(state)[CARD_INDEX[(2, 6)]]
    assert {(m[1], m[5], won) for m, _, won in got} == {(15, 0, True), (14, 1, True)}


def test_bar_entry_hits_and_sends_the_blot_to_its_bar() -> None:
    state = position({25: 1, 13: 14}, {4: 1, 24: 14})  # a Black blot on White's 21
    got = by_card(state)[CARD_INDEX[(4, 5)]]
    hit = [(m, t) for m, t, _ in got if m[21] == 1 and m[25] == 0]
    assert hit and all(t[25] == 1 and t[4] == 0 for _, t in hit)
