"""Swiss (Dutch) and round-robin pairings against the rules they implement."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from championship.pairing import (
    Pair,
    PairingError,
    Player,
    RoundEntry,
    TournamentData,
    explain,
    pair_swiss,
    round_robin_round,
)
from championship.pairing.swiss import colour_need

from .helpers import new_tournament, play_swiss

# --- Round robin: FIDE Berger tables ---------------------------------------------------------
BERGER_8 = [
    "1-8 2-7 3-6 4-5",
    "8-5 6-4 7-3 1-2",
    "2-8 3-1 4-7 5-6",
    "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4",
    "4-8 5-3 6-2 7-1",
]


def test_berger_table_for_eight_matches_fide() -> None:
    for r, expected in enumerate(BERGER_8, start=1):
        got = " ".join(f"{p.white}-{p.black}" for p in round_robin_round(8, r))
        assert got == expected


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 10, 13, 16])
def test_round_robin_everyone_meets_everyone_once_with_balanced_colours(n: int) -> None:
    rounds = n - 1 + n % 2
    met: dict[frozenset[int], int] = {}
    whites = dict.fromkeys(range(1, n + 1), 0)
    byes = dict.fromkeys(range(1, n + 1), 0)
    for r in range(1, rounds + 1):
        pairs = round_robin_round(n, r)
        seen = [p.white for p in pairs] + [p.black for p in pairs if p.black]
        assert sorted(seen) == list(range(1, n + 1))  # everyone once a round
        for p in pairs:
            if p.black is None:
                byes[p.white] += 1
                assert p.bye == "Z"
            else:
                met[frozenset((p.white, p.black))] = met.get(frozenset((p.white, p.black)), 0) + 1
                whites[p.white] += 1
    assert set(met) == {frozenset(c) for c in itertools.combinations(range(1, n + 1), 2)}
    assert set(met.values()) == {1}
    games = n - 1
    assert all(abs(2 * w - games) <= 1 for w in whites.values())
    assert set(byes.values()) == ({1} if n % 2 else {0})


def test_double_round_robin_reverses_colours_and_stops() -> None:
    first = round_robin_round(6, 2, cycles=2)
    second = round_robin_round(6, 7, cycles=2)
    assert [(p.white, p.black) for p in second] == [(p.black, p.white) for p in first]
    with pytest.raises(PairingError):
        round_robin_round(6, 11, cycles=2)


# --- Swiss: hand-made cases --------------------------------------------------------------------
def test_round_one_top_half_against_bottom_half_alternating_colours() -> None:
    data = new_tournament(8, 5)
    pairs = pair_swiss(data)
    assert [(p.white, p.black) for p in pairs] == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_odd_field_gives_the_bye_to_the_lowest_and_never_twice() -> None:
    data = new_tournament(5, 4)
    pairs = pair_swiss(data)
    assert pairs[-1] == Pair(5, None, "U")


def test_no_rematch_even_when_scores_call_for_it() -> None:
    data = TournamentData("t", [Player(i, f"P{i}", 2000 - i) for i in range(1, 5)], 3)
    p = {x.number: x for x in data.players}
    p[1].rounds.append(RoundEntry(2, "w", "1"))
    p[2].rounds.append(RoundEntry(1, "b", "0"))
    p[3].rounds.append(RoundEntry(4, "w", "1"))
    p[4].rounds.append(RoundEntry(3, "b", "0"))
    pairs = pair_swiss(data)
    boards = {frozenset((x.white, x.black)) for x in pairs}
    assert frozenset((1, 2)) not in boards and frozenset((3, 4)) not in boards
    assert frozenset((1, 3)) in boards  # the two winners meet


def test_forbidden_pair_is_respected() -> None:
    data = new_tournament(8, 5)
    data.forbidden_pairs = [(1, 5)]
    pairs = pair_swiss(data)
    assert all({p.white, p.black} != {1, 5} for p in pairs)


def test_requested_bye_player_is_left_out() -> None:
    data = new_tournament(6, 5)
    data.players[0].rounds.append(RoundEntry(None, None, "H"))  # player 1 asks for a half-point bye
    pairs = pair_swiss(data)
    assert all(1 not in (p.white, p.black) for p in pairs)
    assert any(p.black is None for p in pairs)  # five left: one pairing-allocated bye


def test_no_legal_pairing_is_a_clear_error() -> None:
    data = TournamentData("t", [Player(1, "A"), Player(2, "B")], 3)
    data.players[0].rounds.append(RoundEntry(2, "w", "1"))
    data.players[1].rounds.append(RoundEntry(1, "b", "0"))
    with pytest.raises(PairingError, match="no legal pairing"):
        pair_swiss(data)


def test_all_rounds_paired_is_refused() -> None:
    data, _ = play_swiss(6, 2, seed=1)
    with pytest.raises(PairingError, match="already paired"):
        pair_swiss(data)


def test_colour_preferences() -> None:
    assert colour_need([]).strength == ""
    assert colour_need(["w"]).colour == "b" and colour_need(["w"]).strength == "strong"
    assert colour_need(["w", "b"]).strength == "mild" and colour_need(["w", "b"]).colour == "w"
    assert (
        colour_need(["b", "w", "w"]).colour == "b"
        and colour_need(["b", "w", "w"]).strength == "absolute"
    )
    assert colour_need(["w", "w", "b", "w"]).colour == "b"


def test_explanations_name_floats_and_colours() -> None:
    data, history = play_swiss(9, 3, seed=4)
    data2 = TournamentData(
        data.name,
        [Player(p.number, p.name, p.rating, rounds=p.rounds[:2]) for p in data.players],
        3,
    )
    pairs = history[2]
    notes = explain(data2, pairs, 3)
    assert len(notes) == len(pairs)
    for pair, e in zip(pairs, notes, strict=True):
        if pair.black is None:
            assert "bye" in e.floats[0]
        else:
            assert len(e.colours) == 2
            assert not any("already played" in w for w in e.warnings)
            if e.white_score != e.black_score:
                assert any("down-float" in f for f in e.floats)


# --- Swiss: absolute criteria over many random tournaments -----------------------------------
@settings(max_examples=12, deadline=None)
@given(n=st.integers(6, 31), rounds=st.integers(3, 7), seed=st.integers(0, 10_000))
def test_absolute_criteria_over_random_tournaments(n: int, rounds: int, seed: int) -> None:
    rounds = min(rounds, n // 2)  # a Swiss, not a round robin: late rounds stay pairable
    data, history = play_swiss(n, rounds, seed)
    by = {p.number: p for p in data.players}
    met: set[frozenset[int]] = set()
    byes: dict[int, int] = {}
    for r, pairs in enumerate(history, start=1):
        seen = [p.white for p in pairs] + [p.black for p in pairs if p.black]
        assert sorted(seen) == list(range(1, n + 1))
        for p in pairs:
            if p.black is None:
                byes[p.white] = byes.get(p.white, 0) + 1
                continue
            pair = frozenset((p.white, p.black))
            assert pair not in met, f"rematch in round {r}"
            if by[p.white].rounds[r - 1].played:  # a forfeited game may be paired again
                met.add(pair)
    assert all(v == 1 for v in byes.values()), "a second pairing-allocated bye"
    final = rounds
    for player in data.players:
        colours = [e.colour for e in player.rounds if e.played]
        for i in range(2, len(colours)):
            # C1/C3: no colour three times in a row (top scorers in the last round excepted)
            if i == len(colours) - 1 and player.rounds[-1].played and len(player.rounds) == final:
                continue
            assert not (colours[i] == colours[i - 1] == colours[i - 2]), (player.number, colours)
