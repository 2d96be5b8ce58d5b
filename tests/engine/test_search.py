"""The search: proven values against an exhaustive solver, against deeper searches, and the
race solver against the search without it."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine import State, legal_plays
from games.engine.core import CARDS
from games.engine.game import Game, decide
from games.engine.packed import node_of
from games.engine.players import GreedyPlayer, RandomPlayer
from games.engine.race import RaceSolver, in_contact
from games.engine.search import Searcher
from tests.hypothesis_profiles import examples

from .helpers import position
from .solver import Solver, TooBig, outcome_after


def random_position(seed: int, plies: int) -> State | None:
    """The position after ``plies`` random legal turns (None if the game ended)."""
    rng = random.Random(seed)
    game = Game()
    while game.outcome is None and game.ply < plies:
        card = rng.choice(game.playable_cards())
        game.play(rng.choice(legal_plays(game.state, card)).text)
    return game.state if game.outcome is None else None


#: Where the games of ``end_positions`` start from: (plies, seeds). Random games rarely leave
#: the side to move lost this close to the end; the last three seeds' games (found by a search
#: and confirmed by the solver) do.
END_GAMES: tuple[tuple[int, tuple[int, ...]], ...] = (
    (69, tuple(range(1, 19))),
    (70, tuple(range(1, 19))),
    (69, (54, 82)),
    (70, (46,)),
    (68, (12, 147)),
)


def end_positions() -> list[tuple[int, int, bool, State]]:
    """Positions two and three plies before the end of phase 2 from random games, and for
    each the position after the exhaustive solver's best play (so losses appear too):
    (plies, seed, after the best play, position)."""
    out = []
    for plies, seeds in END_GAMES:
        for seed in seeds:
            state = random_position(seed, plies)
            if state is None:
                continue
            out.append((plies, seed, False, state))
            after = _after_best_play(state)
            if after is not None:
                out.append((plies, seed, True, after))
    return out


def _after_best_play(state: State) -> State | None:
    """The position after the exhaustive solver's best play, when that play does not end the
    game (None: it does, or the position is too big for the solver)."""
    solver = Solver(max_nodes=3000)
    try:
        value = solver.value(state)
    except TooBig:
        return None
    for nxt, decided in solver.children(state):
        if decided is None and -solver.value(nxt) == value:
            return nxt
    return None


#: What ``end_positions`` gives (plies, seed, after the best play), written out so that the
#: positions are parametrized without running the solver on all of them at every collection
#: (2.6 s in every pytest process, the controller's included); the first test below checks
#: that the table is what the solver says.
END_CASES: list[tuple[int, int, bool]] = [
    (plies, seed, after)
    for plies, seed, afters in (
        (69, 1, (False, True)),
        (69, 3, (False, True)),
        (69, 4, (False,)),
        (69, 5, (False,)),
        (69, 6, (False,)),
        (69, 7, (False, True)),
        (69, 9, (False, True)),
        (69, 11, (False,)),
        (69, 12, (False,)),
        (69, 13, (False, True)),
        (69, 14, (False, True)),
        (69, 16, (False, True)),
        (69, 17, (False, True)),
        (69, 18, (False,)),
        (70, 1, (False,)),
        (70, 3, (False, True)),
        (70, 4, (False,)),
        (70, 5, (False,)),
        (70, 6, (False, True)),
        (70, 7, (False, True)),
        (70, 9, (False, True)),
        (70, 11, (False, True)),
        (70, 13, (False,)),
        (70, 14, (False, True)),
        (70, 16, (False, True)),
        (70, 17, (False,)),
        (70, 18, (False,)),
        (69, 54, (False, True)),
        (69, 82, (False, True)),
        (70, 46, (False, True)),
        (68, 12, (False, True)),
        (68, 147, (False, True)),
    )
    for after in afters
]


@functools.cache
def end_position(plies: int, seed: int, after: bool) -> State:
    state = random_position(seed, plies)
    assert state is not None, (plies, seed)
    if after:
        nxt = _after_best_play(state)
        assert nxt is not None, (plies, seed)
        return nxt
    return state


def test_the_end_positions_are_what_the_solver_gives() -> None:
    assert [case[:3] for case in end_positions()] == END_CASES


@pytest.mark.parametrize(
    ("plies", "seed", "after"),
    END_CASES,
    ids=[f"{p}-{s}-{'after-best' if a else 'position'}" for p, s, a in END_CASES],
)
def test_proven_values_equal_the_exhaustive_solver_near_the_end(
    plies: int, seed: int, after: bool
) -> None:
    state = end_position(plies, seed, after)
    try:
        exact = Solver(max_nodes=3000).value(state)
    except TooBig:
        pytest.skip("too big for the plain solver")
    result = Searcher().search(state, ms=None, max_nodes=50_000)
    # Three plies or fewer before ply 72 the engine always solves exactly.
    assert result.proven
    assert result.lo == exact
    # The best play really achieves the value.
    nxt = result.best.position()
    decided = outcome_after(nxt, state.to_move)
    achieved = -decided if decided is not None else -Solver(max_nodes=3000).value(nxt)
    assert achieved == exact


def test_end_positions_cover_what_the_issue_asks() -> None:
    """Wins, draws and losses; checkers on the bar; hits; home wins; blocks; the ply-72
    draw — all among the positions compared above."""
    values = set()
    bar = hits = home_wins = blocks = cards_draws = 0
    for state in (end_position(*case) for case in END_CASES):
        solver = Solver(max_nodes=3000)
        try:
            values.add(solver.value(state))
        except TooBig:
            continue
        bar += state.white[25] + state.black[25] > 0
        for card in Game(state).playable_cards():
            for play in legal_plays(state, card):
                hits += any(step.hit for step in play.steps)
                outcome = decide(play.position(), state.to_move)
                if outcome is not None:
                    home_wins += outcome.termination == "home"
                    blocks += outcome.termination == "blocked"
                    cards_draws += outcome.termination == "cards"
    assert values == {-1, 0, 1}
    assert bar and hits and home_wins and blocks and cards_draws


def greedy_endings(count: int) -> list[State]:
    """Positions in phase 1 one and two plies before a greedy player brings its last checker
    home against a random player."""
    out: list[State] = []
    seed = 0
    while len(out) < count:
        seed += 1
        greedy, rand = GreedyPlayer(seed), RandomPlayer(seed)
        game = Game()
        while game.outcome is None:
            player = greedy if game.state.to_move == "white" else rand
            game.play(player.choose(game.state).text)
        if game.termination == "home" and game.result == "1-0" and game.ply <= 36:
            out.extend([game.states[-2], game.states[-3]])
    return out


GREEDY_ENDINGS = greedy_endings(4)


@pytest.mark.parametrize("index", range(4))
def test_home_wins_in_phase_1_against_an_exhaustive_search_two_plies_deep(index: int) -> None:
    state = GREEDY_ENDINGS[index]
    assert state.ply < 36
    lo, hi = Solver(max_nodes=20_000).interval(state, 2)
    result = Searcher().search(state, ms=None, max_nodes=20_000, max_depth=2)
    if index % 2 == 0:
        assert lo == hi == 1  # the greedy player's last turn: it can get home
    if lo == hi:
        assert result.proven and result.lo == lo
    if result.proven:
        assert lo <= result.lo <= hi
    for move in result.moves:
        if move.proven:
            nxt = move.play.position()
            decided = outcome_after(nxt, state.to_move)
            if decided is not None:
                assert move.lo == -decided
            else:
                a, b = Solver(max_nodes=20_000).interval(nxt, 1)
                assert -b <= move.lo <= -a


# --- proven values against deeper searches (hypothesis) -----------------------------------
@st.composite
def late_positions(draw: st.DrawFn) -> State:
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(30, 71))
    state = random_position(seed, plies)
    assume(state is not None)
    assert state is not None
    return state


@settings(max_examples=examples(25))
@given(late_positions(), st.integers(200, 3000))
def test_a_proven_value_never_contradicts_a_deeper_search(state: State, budget: int) -> None:
    shallow = Searcher().search(state, ms=None, max_nodes=budget)
    deep = Searcher(race=False).search(state, ms=None, max_nodes=budget * 6)
    assert deep.lo <= deep.hi and shallow.lo <= shallow.hi
    # The intervals are true, so they always overlap; proven values agree.
    assert max(shallow.lo, deep.lo) <= min(shallow.hi, deep.hi)
    by_text = {m.play.text: m for m in deep.moves}
    for move in shallow.moves:
        other = by_text[move.play.text]
        assert max(move.lo, other.lo) <= min(move.hi, other.hi), move.play.text
    if shallow.proven and deep.proven:
        assert shallow.lo == deep.lo


@settings(max_examples=examples(20))
@given(st.integers(0, 2**32 - 1), st.integers(60, 70))
def test_proven_values_hold_against_the_exhaustive_solver(seed: int, plies: int) -> None:
    state = random_position(seed, plies)
    assume(state is not None)
    assert state is not None
    result = Searcher().search(state, ms=None, max_nodes=4000)
    if not result.proven:
        return
    try:
        exact = Solver(max_nodes=1500).value(state)
    except TooBig:
        return
    assert result.lo == exact


# --- races ------------------------------------------------------------------------------
def race_position(rng: random.Random, plies: int, widest: int = 16) -> State:
    """Both armies past each other: White on points 1..split, Black beyond (in White's
    numbering), hands that fit the ply (phase 2) or the phase-1 hands plus piles."""
    split = rng.randint(7, widest)
    white = [0] * 26
    black = [0] * 26
    for _ in range(15):
        white[rng.randint(1, split)] += 1
        black[25 - rng.randint(split + 1, 24)] += 1
    pool = [c for c in CARDS for _ in range(2)]
    to_move = "white" if plies % 2 == 0 else "black"
    if plies >= 36:
        left = 72 - plies
        mover_n, other_n = (left + 1) // 2, left // 2
        rng.shuffle(pool)
        mover_hand = pool[:mover_n]
        rng.shuffle(pool)
        other_hand = pool[:other_n]
        received = {"white": [], "black": []}
    else:
        left = 36 - plies
        mover_n, other_n = (left + 1) // 2, left // 2
        rng.shuffle(pool)
        mover_hand, mover_played = pool[:mover_n], pool[mover_n:]
        rng.shuffle(pool)
        other_hand, other_played = pool[:other_n], pool[other_n:]
        other_side = "black" if to_move == "white" else "white"
        received = {to_move: other_played, other_side: mover_played}
    other_side = "black" if to_move == "white" else "white"
    hands = {to_move: mover_hand, other_side: other_hand}
    return position(
        {p: n for p, n in enumerate(white) if n},
        {p: n for p, n in enumerate(black) if n},
        to_move=to_move,
        ply=plies,
        hands={k: [f"{a}:{b}" for a, b in v] for k, v in hands.items()},
        received={k: [f"{a}:{b}" for a, b in v] for k, v in received.items()},
    )


@settings(max_examples=examples(25))
@given(st.integers(0, 2**32 - 1), st.integers(62, 71))
def test_race_results_agree_with_the_search_without_the_race_solver(seed: int, plies: int) -> None:
    state = race_position(random.Random(seed), plies)
    assume(decide(state, None) is None)
    assume(sum(state.white[1:7]) < 15 and sum(state.black[1:7]) < 15)
    node = node_of(state)
    assert not in_contact(node[0], node[1])
    solved = RaceSolver().solve(node)
    plain = Searcher(race=False).search(state, ms=None, max_nodes=6000)
    if solved is not None and plain.proven:
        assert solved[0] == plain.lo


def test_late_races_are_solved_and_agree_with_the_exhaustive_solver() -> None:
    rng = random.Random(11)
    compared = 0
    for _ in range(40):
        state = race_position(rng, rng.choice([69, 70]), widest=9)
        if (
            decide(state, None) is not None
            or max(sum(state.white[1:7]), sum(state.black[1:7])) == 15
        ):
            continue
        solved = RaceSolver().solve(node_of(state))
        assert solved is not None  # this close to the end a race is always solved
        result = Searcher().search(state, ms=None, max_nodes=1000)
        assert result.proven and result.lo == solved[0]
        try:
            exact = Solver(max_nodes=300).value(state)
        except TooBig:
            continue
        assert solved[0] == exact
        compared += 1
        if compared == 12:
            break
    assert compared == 12


def test_phase_1_races_are_solved_when_the_winner_is_clear() -> None:
    # White can bring its last two checkers home this turn; Black is far away: a win.
    state = position(
        {1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 8: 1, 9: 1},
        {15: 15},
        ply=20,
        hands={
            "white": ["1:2", "1:4", "1:5", "2:3", "2:5", "2:6", "3:4", "3:6"],
            "black": ["1:2", "1:4", "1:5", "2:3", "2:5", "2:6", "3:4", "3:6"],
        },
        received={
            "white": ["1:2", "1:4", "1:5", "2:3", "2:5", "2:6", "3:4", "3:6"] + ["4:5", "4:5"],
            "black": ["1:2", "1:4", "1:5", "2:3", "2:5", "2:6", "3:4", "3:6"] + ["4:5", "4:5"],
        },
    )
    assert RaceSolver().solve(node_of(state)) == (1, 1)
    result = Searcher().search(state, ms=None, max_nodes=1000)
    assert result.proven and result.value == 1.0


@settings(max_examples=examples(25))
@given(st.integers(0, 2**32 - 1), st.integers(28, 37))
def test_races_across_the_phase_switch_agree_with_the_search_without_the_race_solver(
    seed: int, plies: int
) -> None:
    """Near ply 36 the side that moved first has no phase-1 card left and plays its next
    turn from the pile it received (§6)."""
    state = race_position(random.Random(seed), plies, widest=8)
    assume(decide(state, None) is None)
    assume(sum(state.white[1:7]) < 15 and sum(state.black[1:7]) < 15)
    solved = RaceSolver().solve(node_of(state))
    plain = Searcher(race=False).search(state, ms=None, max_nodes=6000)
    if solved is not None and plain.proven:
        assert solved[0] == plain.lo


def _ply_35(black_home: dict[int, int]) -> State:
    """Black to play its last phase-1 card (1:2) at ply 36; White, home but for one checker
    on the bar, has played all 18 of its cards and will hold the 18 Black played (§6)."""
    all_cards = [f"{a}:{b}" for a, b in CARDS for _ in range(2)]
    played_by_black = list(all_cards)
    played_by_black.remove("1:2")
    return position(
        {25: 1, 1: 14},
        {**black_home, 10: 15 - sum(black_home.values())},
        to_move="black",
        ply=35,
        hands={"white": [], "black": ["1:2"]},
        received={"white": played_by_black, "black": all_cards},
    )


def test_the_blocked_check_before_ply_37_uses_the_phase_2_hand() -> None:
    # Black holds its whole home: White's checker on the bar enters with no number.
    prime = _ply_35({p: 2 for p in range(1, 7)})
    result = Searcher().search(prime, ms=None, max_nodes=200, max_depth=1)
    assert result.proven and result.value == 1.0
    nxt = result.best.position()
    assert nxt.ply == 36 and sum(nxt.hand("white")) == 18
    assert decide(nxt, "black") is not None  # blocked, with the phase-2 hand
    # With Black's 6-point open, White enters with a 6 (2:6, 3:6 of its new hand): the game
    # goes on, though White's phase-1 hand is empty.
    gap = _ply_35({p: 2 for p in range(1, 6)} | {6: 1})
    result = Searcher().search(gap, ms=None, max_nodes=200, max_depth=1)
    assert not result.proven
    assert all(decide(m.play.position(), "black") is None for m in result.moves if not m.won)
