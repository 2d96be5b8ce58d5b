"""Tie-breaks (FIDE C.07, 2023) and standings on worked examples computed by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from championship.pairing import Player, RoundEntry, TournamentData, standings
from championship.pairing.tiebreaks import TIEBREAKS, compute


def entry(opp: int | None, colour: str | None, code: str) -> RoundEntry:
    return RoundEntry(opp, colour, code)  # type: ignore[arg-type]


def four_players() -> TournamentData:
    """R1: 1-4 1-0, 2-3 ½-½; R2: 4-3 0-1, 1-2 ½-½; R3: 2-4 1-0, 3-1 0-1."""
    p = [Player(1, "A", 2000), Player(2, "B", 1900), Player(3, "C", 1800), Player(4, "D", 1700)]
    p[0].rounds = [entry(4, "w", "1"), entry(2, "w", "="), entry(3, "b", "1")]
    p[1].rounds = [entry(3, "w", "="), entry(1, "b", "="), entry(4, "w", "1")]
    p[2].rounds = [entry(2, "b", "="), entry(4, "b", "1"), entry(1, "w", "0")]
    p[3].rounds = [entry(1, "b", "0"), entry(3, "w", "0"), entry(2, "b", "0")]
    return TournamentData("t", p, 3)


EXPECTED = {
    #     BH   BH-C1 BH-M1 SB   WIN BWG ARO
    1: (3.5, 3.5, 1.5, 2.5, 2, 1, 1800),
    2: (4.0, 4.0, 1.5, 2.0, 1, 0, 1833),
    3: (4.5, 4.5, 2.0, 1.0, 1, 1, 1867),
    4: (6.0, 4.5, 2.0, 0.0, 0, 0, 1900),
}


def test_played_games_worked_example() -> None:
    values = compute(four_players(), 3, [t.key for t in TIEBREAKS])
    for number, (bh, c1, m1, sb, win, bwg, aro) in EXPECTED.items():
        v = values[number]
        assert (v["bh"], v["bh_c1"], v["bh_m1"], v["sb"], v["win"], v["bwg"]) == (
            bh,
            c1,
            m1,
            sb,
            win,
            bwg,
        )
        assert round(v["aro"]) == aro
        assert v["de"] == 0  # nobody shares a score


def test_standings_rank_and_counts() -> None:
    data = four_players()
    data.players[3].terminations = {2: "time"}  # D lost round 2 on time
    rows = standings(data)
    assert [r.number for r in rows] == [1, 2, 3, 4]
    d = rows[3]
    assert (d.games, d.wins, d.draws, d.losses, d.time_losses, d.unplayed) == (3, 0, 0, 3, 1, 0)
    assert rows[0].points == Fraction(5, 2)


def test_direct_encounter_decides_equal_points() -> None:
    """R1: A-B 1-0, C-D ½; R2: C-A 1-0, B-D 1-0; R3: D-A ½, B-C ½. A and B have 1½ each and
    A beat B: DE puts A first; C (2) and D (1) are alone on their scores."""
    a, b, c, d = (Player(i, n) for i, n in enumerate("ABCD", start=1))
    a.rounds = [entry(2, "w", "1"), entry(3, "b", "0"), entry(4, "b", "=")]
    b.rounds = [entry(1, "b", "0"), entry(4, "w", "1"), entry(3, "w", "=")]
    c.rounds = [entry(4, "w", "="), entry(1, "w", "1"), entry(2, "b", "=")]
    d.rounds = [entry(3, "b", "="), entry(2, "b", "0"), entry(1, "w", "=")]
    data = TournamentData("t", [a, b, c, d], 3)
    values = compute(data, 3, ["de", "bh"])
    assert [values[n]["de"] for n in (1, 2, 3, 4)] == [1, 0, 0, 0]
    assert values[2]["bh"] == values[1]["bh"] == 4.5  # Buchholz cannot separate them ...
    rows = standings(data, order=["bh", "de"])
    assert [(r.number, r.rank) for r in rows] == [(3, 1), (1, 2), (2, 3), (4, 4)]  # ... DE does
    rows = standings(data, order=["bh"])
    assert [(r.number, r.rank, r.shared) for r in rows] == [
        (3, 1, False),
        (1, 2, False),
        (2, 2, True),
        (4, 4, False),
    ]


def test_pairing_allocated_bye_counts_as_own_score_in_buchholz() -> None:
    """C.07 (2023) art. 16: for the Buchholz of a player with an unplayed round, that round
    counts as an opponent with the player's own score."""
    a, b, c = Player(1, "A"), Player(2, "B"), Player(3, "C")
    a.rounds = [entry(2, "w", "1")]
    b.rounds = [entry(1, "b", "0")]
    c.rounds = [entry(None, None, "U")]
    data = TournamentData("t", [a, b, c], 1)
    v = compute(data, 1, ["bh", "win"])
    assert v[3]["bh"] == 1.0  # C: own score 1
    assert v[3]["win"] == 1.0  # WIN counts a bye with a win's points
    assert v[2]["bh"] == 1.0 and v[1]["bh"] == 0.0


@pytest.mark.parametrize("key", [t.key for t in TIEBREAKS])
def test_every_tiebreak_has_a_fide_abbreviation(key: str) -> None:
    t = next(t for t in TIEBREAKS if t.key == key)
    assert t.abbreviation and t.name


# --- Our fast pass against tiebreak-core ------------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from championship.pairing.simulate import apply_round, new_tournament  # noqa: E402
from championship.pairing.tiebreaks import FAST, _library_values, fast_values, to_core  # noqa: E402
from tests.hypothesis_profiles import examples  # noqa: E402


def random_field_with_unplayed_rounds(n: int, rounds: int, seed: int) -> TournamentData:
    """A Swiss with requested byes, forfeits, withdrawals and late entries."""
    import random

    from championship.pairing import pair_swiss

    rng = random.Random(seed)
    data = new_tournament(n, rounds, seed)
    for r in range(1, rounds + 1):
        for p in data.players:
            if len(p.rounds) >= r:
                continue
            x = rng.random()
            if r > 1 and x < 0.08:
                p.rounds.append(RoundEntry(None, None, rng.choice("HZ")))  # requested bye / absent
        pairs = pair_swiss(data)
        apply_round(data, pairs, rng)
    return data


@settings(max_examples=examples(25))
@given(n=st.integers(5, 24), rounds=st.integers(2, 6), seed=st.integers(0, 10_000))
def test_fast_values_equal_tiebreak_core(n: int, rounds: int, seed: int) -> None:
    rounds = min(rounds, n // 2)
    data = random_field_with_unplayed_rounds(n, rounds, seed)
    for upto in range(1, rounds + 1):
        core = to_core(data, upto)
        ours = fast_values(core, sorted(FAST))
        theirs = _library_values(core, sorted(FAST), upto)
        for number in core:
            for criterion in FAST:
                assert ours[number][criterion] == pytest.approx(theirs[number][criterion]), (
                    number,
                    criterion,
                    upto,
                )
