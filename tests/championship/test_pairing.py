"""Swiss (Dutch) and round-robin pairings against the rules they implement."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from championship.pairing import (
    NOTE_MESSAGES,
    RULESET_CHOICES,
    Pair,
    PairingError,
    Player,
    RoundEntry,
    TournamentData,
    explain,
    note_text,
    pair_swiss,
    round_robin_round,
)
from championship.pairing.swiss import colour_need
from tests.hypothesis_profiles import examples

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


@pytest.mark.parametrize("ruleset", ["dutch-2025", "dutch-2017"])
def test_no_legal_pairing_is_a_clear_error_with_a_code(ruleset: str) -> None:
    data = TournamentData("t", [Player(1, "A"), Player(2, "B")], 3)
    data.players[0].rounds.append(RoundEntry(2, "w", "1"))
    data.players[1].rounds.append(RoundEntry(1, "b", "0"))
    with pytest.raises(PairingError, match="no legal pairing") as caught:
        pair_swiss(data, ruleset)
    assert caught.value.code == "pairing.no_legal_pairing"
    assert caught.value.as_dict()["params"] == {}


def test_all_rounds_paired_is_refused() -> None:
    data, _ = play_swiss(6, 2, seed=1)
    with pytest.raises(PairingError, match="already paired") as caught:
        pair_swiss(data)
    assert (caught.value.code, caught.value.params) == ("pairing.all_rounds_paired", {"rounds": 2})


def test_unknown_ruleset_is_refused() -> None:
    with pytest.raises(PairingError) as caught:
        pair_swiss(new_tournament(4, 3), "dubov")
    assert caught.value.code == "pairing.unknown_ruleset"
    assert [key for key, _ in RULESET_CHOICES] == ["dutch-2025", "dutch-2017"]


def test_a_pab_after_a_forfeit_win_goes_to_another_player() -> None:
    """C2 (C.04.1 Art. 4, 2025): a player who scored a win's points without playing does not
    get the pairing-allocated bye, even when the lowest score calls for it."""
    data = TournamentData("t", [Player(i, f"P{i}", 2000 - i) for i in range(1, 6)], 4)
    p = {x.number: x for x in data.players}
    p[1].rounds.append(RoundEntry(2, "w", "1"))
    p[2].rounds.append(RoundEntry(1, "b", "0"))
    p[3].rounds.append(RoundEntry(4, "w", "0"))
    p[4].rounds.append(RoundEntry(3, "b", "1"))
    p[5].rounds.append(RoundEntry(None, None, "U"))
    pairs = pair_swiss(data)
    bye = [x.white for x in pairs if x.black is None]
    assert bye and bye[0] != 5  # 5 had the PAB already
    assert bye[0] in (2, 3)  # the lowest score, 0 points (C5)


def test_colour_preferences() -> None:
    assert colour_need([]).strength == ""
    assert colour_need(["w"]).colour == "b" and colour_need(["w"]).strength == "strong"
    assert colour_need(["w", "b"]).strength == "mild" and colour_need(["w", "b"]).colour == "w"
    assert (
        colour_need(["b", "w", "w"]).colour == "b"
        and colour_need(["b", "w", "w"]).strength == "absolute"
    )
    assert colour_need(["w", "w", "b", "w"]).colour == "b"


# --- Explanations ------------------------------------------------------------------------------
def test_explanations_are_notes_with_codes_and_params() -> None:
    data, history = play_swiss(9, 3, seed=4)
    before = TournamentData(
        data.name,
        [Player(p.number, p.name, p.rating, rounds=p.rounds[:2]) for p in data.players],
        3,
    )
    pairs = history[2]
    notes = explain(before, pairs, 3)
    assert len(notes) == len(pairs)
    for pair, e in zip(pairs, notes, strict=True):
        codes = [n["code"] for n in e.notes]
        assert all(set(n) == {"code", "params"} for n in e.notes)
        assert all(code in NOTE_MESSAGES for code in codes)
        if pair.black is None:
            assert codes == ["bye.pab"] and e.notes[0]["params"]["player"] == pair.white
            continue
        # Exactly one rule of 5.2 decides the colours.
        assert len([c for c in codes if c.startswith("colour.") and "not_met" not in c]) == 1
        assert "warning.rematch" not in codes
        if e.white_score != e.black_score:
            floats = {n["params"]["player"]: n["code"] for n in e.notes if n["code"] in FLOATS}
            high = pair.white if float(e.white_score) > float(e.black_score) else pair.black
            low = pair.black if high == pair.white else pair.white
            assert floats == {high: "float.down", low: "float.up"}
        else:
            assert codes[0] == "pair.same_score"


FLOATS = ("float.down", "float.up")


def test_explanation_says_who_gets_white_by_alternation() -> None:
    """Both 2 points, both a mild preference for White: 5.2.3 alternates from the latest
    round in which they had different colours (round 2: Ivanova Black, Petrov White)."""
    ivanova = Player(1, "Ivanova", 2000, rounds=[RoundEntry(n, c, r) for n, c, r in IVANOVA])
    petrov = Player(2, "Petrov", 1990, rounds=[RoundEntry(n, c, r) for n, c, r in PETROV])
    others = [Player(i, f"P{i}", 1900 - i) for i in range(3, 7)]
    data = TournamentData("t", [ivanova, petrov, *others], 6)
    (note,) = explain(data, [Pair(1, 2)], 5)
    assert note.notes[0] == {"code": "pair.same_score", "params": {"score": "2"}}
    colour = next(n for n in note.notes if n["code"].startswith("colour."))
    assert colour == {
        "code": "colour.alternate",
        "params": {
            "player": 1,
            "colour": "w",
            "previous": "b",
            "opponent_previous": "w",
            "round": 2,
        },
    }
    assert note_text(colour) == (
        "1 gets White: had Black in round 2, when the opponent had White (5.2.3)"
    )


IVANOVA = [(3, "w", "1"), (4, "b", "0"), (5, "w", "1"), (6, "b", "0")]
PETROV = [(3, "b", "0"), (4, "w", "1"), (5, "w", "1"), (6, "b", "0")]


def test_explanation_warns_after_a_manual_rematch() -> None:
    data, history = play_swiss(6, 3, seed=1, upto=2)
    first = history[0][0]
    (note,) = explain(data, [Pair(first.white, first.black)], 3)
    assert "warning.rematch" in [n["code"] for n in note.notes]
    assert note.warnings


# --- The fast paths give the reference procedure's pairing ------------------------------------
@settings(max_examples=examples(8))
@given(seed=st.integers(0, 100_000))
def test_windows_and_shortcuts_pair_as_the_whole_graph_does(seed: int) -> None:
    """The engine pairs big fields bracket by bracket in windows (with a completability
    certificate) and accepts perfect first candidates at once; the reference procedure uses
    one graph of the whole round. Both must give the same pairing, round after round."""
    import random

    import championship.pairing.dutch.engine as engine
    from championship.pairing.dutch.state import build_field
    from championship.pairing.simulate import apply_round

    rng = random.Random(seed)
    n = rng.randrange(24, 70)
    data = new_tournament(n, 7, seed)
    saved = engine.WINDOW_FROM
    engine.WINDOW_FROM = 20
    try:
        for _ in range(5):
            for p in data.players:
                if rng.random() < 0.03:
                    p.rounds.append(RoundEntry(None, None, rng.choice("HZ")))
            fast = engine.DutchPairer(build_field(data, initial_colour="w")).pair()
            slow = engine.DutchPairer(build_field(data, initial_colour="w"), exact=True).pair()
            assert fast == slow
            apply_round(data, [Pair(b.white, b.black, "" if b.black else "U") for b in fast], rng)
    finally:
        engine.WINDOW_FROM = saved


def test_a_natural_bracket_before_the_last_scoregroup_with_the_pab_to_come() -> None:
    """501 players, round 6: a bracket of six paired by its first candidate (3.4) right above
    the last scoregroup, where the PAB goes; working out whether that scoregroup floats
    exactly the PAB assignee (C9) read a partner the shortcut had not computed (an
    IndexError). Now paired, as the whole-graph procedure pairs it."""
    import championship.pairing.dutch.engine as engine
    from championship.pairing.dutch.state import build_field

    data, _ = play_swiss(501, 9, 2, upto=5)
    fast = engine.DutchPairer(build_field(data, initial_colour="w")).pair()
    slow = engine.DutchPairer(build_field(data, initial_colour="w"), exact=True).pair()
    assert fast == slow
    assert sorted([b.white for b in fast] + [b.black for b in fast if b.black]) == list(
        range(1, 502)
    )


@pytest.mark.parametrize(
    "name",
    [
        "championship.pairing.swiss",
        "championship.pairing.explain",
        "championship.pairing.errors",
        "championship.pairing.trf",
        "championship.pairing.tiebreaks",
        "championship.pairing.standings",
        "championship.pairing.roundrobin",
        "championship.pairing.simulate",
        "championship.pairing.dutch.engine",
        "championship.pairing.dutch.state",
        "championship.pairing.dutch.colours",
        "championship.pairing.dutch.matcher",
    ],
)
def test_pairing_signatures_hold_no_any(name: str) -> None:
    """The pairing package is mypy strict (pyproject.toml); its public functions and methods
    also name no ``Any`` (py4swiss, untyped, is behind Protocols in ``dutch/matcher.py``)."""
    import importlib
    import inspect
    import typing

    def has_any(hint: object) -> bool:
        return hint is typing.Any or any(has_any(arg) for arg in typing.get_args(hint))

    module = importlib.import_module(name)
    functions = []
    for attr, obj in vars(module).items():
        if attr.startswith("_") or getattr(obj, "__module__", None) != name:
            continue
        if inspect.isfunction(obj):
            functions.append(obj)
        elif inspect.isclass(obj):
            functions += [
                f
                for key, f in vars(obj).items()
                if inspect.isfunction(f) and (not key.startswith("_") or key == "__init__")
            ]
    offenders = [
        f"{f.__qualname__}: {param}"
        for f in functions
        for param, hint in typing.get_type_hints(f).items()
        if has_any(hint)
    ]
    assert not offenders


# --- Swiss: absolute criteria over generated tournaments (2025 text) ---------------------------
@settings(max_examples=examples(25))
@given(
    n=st.integers(5, 40),
    rounds=st.integers(3, 9),
    seed=st.integers(0, 100_000),
    forbid=st.integers(0, 4),
)
def test_absolute_criteria_hold_in_generated_tournaments(
    n: int, rounds: int, seed: int, forbid: int
) -> None:
    """Random results with draws and forfeits, requested byes, absences and withdrawals,
    forbidden pairs: every round keeps C1 (no rematch, no forbidden pair), C2 (at most one
    PAB; none after a PAB or a win's points without playing), C3 (no two non-topscorers with
    the same absolute colour preference; no colour difference beyond 2, no colour three times
    running, pairs with a topscorer in the last round excepted) and pairs every present player once."""
    import random

    from championship.pairing.simulate import apply_round

    rng = random.Random(seed)
    rounds = min(rounds, max(3, n // 2))
    data = new_tournament(n, rounds, seed)
    numbers = [p.number for p in data.players]
    data.forbidden_pairs = [tuple(sorted(rng.sample(numbers, 2))) for _ in range(forbid)]  # type: ignore[misc]
    forbidden = {frozenset(x) for x in data.forbidden_pairs}
    withdrawn: set[int] = set()
    by = {p.number: p for p in data.players}
    for r in range(1, rounds + 1):
        for p in data.players:
            if p.number in withdrawn:
                p.rounds.append(RoundEntry(None, None, "Z"))
            elif rng.random() < 0.03:
                withdrawn.add(p.number)
                p.rounds.append(RoundEntry(None, None, "Z"))
            elif rng.random() < 0.05:
                p.rounds.append(RoundEntry(None, None, rng.choice("HF")))
        present = [p.number for p in data.players if len(p.rounds) < r]
        try:
            pairs = pair_swiss(data)
        except PairingError as exc:
            assert exc.code == "pairing.no_legal_pairing"
            return
        seen = [p.white for p in pairs] + [p.black for p in pairs if p.black]
        assert sorted(seen) == sorted(present)
        last_round = r == rounds
        for pair in pairs:
            if pair.black is None:
                history = by[pair.white].rounds
                assert all(e.code != "U" for e in history), "a second PAB"
                assert not any(
                    not e.played and data.points.table[e.code] >= data.points.win for e in history
                ), "a PAB after a win's points without playing"
                continue
            key = frozenset((pair.white, pair.black))
            assert key not in forbidden
            for e in by[pair.white].rounds:
                assert not (e.played and e.opponent == pair.black), "a rematch"
            # C3 binds two non-topscorers only: in the last round a topscorer may meet a player
            # with the same absolute preference, and then one of the two gets it unmet (5.2.2).
            if last_round and any(_topscorer(by[x], r - 1, data) for x in (pair.white, pair.black)):
                continue
            for who, colour in ((pair.white, "w"), (pair.black, "b")):
                colours = [e.colour for e in by[who].rounds if e.played] + [colour]
                assert abs(colours.count("w") - colours.count("b")) <= 2, (who, colours)
                assert not (len(colours) >= 3 and colours[-1] == colours[-2] == colours[-3])
        apply_round(data, [p for p in pairs], rng)
        for p in data.players:
            while len(p.rounds) < r:
                p.rounds.append(RoundEntry(None, None, "Z"))


def _topscorer(player: Player, played: int, data: TournamentData) -> bool:
    return 2 * player.points(data.points, played) > played * data.points.win
