"""``manage.py ratings_from_trf``: the command-line contract (README) — the CSV, the rules of
what is rated, names across files, line 132, warnings — and that it needs no database."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from championship.rating import month_index
from championship.rating.trf_games import round_dates
from tests.hypothesis_profiles import examples

from .glicko2_reference import reference_series

ROOT = Path(__file__).resolve().parents[2]
Entry = tuple[int, str, str]  # opponent (0: none), colour, code


def player(n: int, name: str, rounds: list[Entry], points: float = 0.0) -> str:
    head = f"001 {n:>4}      {name:<33} {'':4} {'':3} {'':11} {'':10} {points:4.1f} {n:>4}"
    return head + "".join(f"  {o:>4} {c} {r}" if o else f"  0000 - {r}" for o, c, r in rounds)


def dates_line(*days: str) -> str:
    return "132" + " " * 88 + "  ".join(f"{d:<8}" for d in days).rstrip()


def trf(path: Path, *lines: str) -> Path:
    path.write_text("\n".join(["012 Test event", *lines]) + "\n", encoding="utf-8")
    return path


def run(*files: Path, tau: str | None = None) -> tuple[list[list[str]], str]:
    out, err = io.StringIO(), io.StringIO()
    args = [str(f) for f in files] + ([f"--tau={tau}"] if tau else [])
    call_command("ratings_from_trf", *args, stdout=out, stderr=err)
    return list(csv.reader(io.StringIO(out.getvalue()))), err.getvalue()


def test_csv_shape_and_what_is_rated(tmp_path: Path) -> None:
    """Round 1: 1-0 and a draw are rated; round 2: W/L (unrated), a forfeit, byes H and U;
    round 3: F and Z byes and a double forfeit."""
    path = trf(
        tmp_path / "a.trf",
        dates_line("26/03/07", "26/03/08", "26/03/09"),
        player(1, "Ivan Petrov", [(2, "w", "1"), (2, "b", "W"), (0, "-", "F")]),
        player(2, "Anna Smirnova", [(1, "b", "0"), (1, "w", "L"), (0, "-", "Z")]),
        player(3, "Boris Ivanov", [(4, "w", "="), (4, "b", "+"), (5, "w", "-")]),
        player(4, "Olga Kim", [(3, "b", "="), (3, "w", "-"), (0, "-", "H")]),
        player(5, "Pavel Orlov", [(0, "-", "H"), (0, "-", "U"), (3, "b", "-")]),
    )
    rows, err = run(path)
    assert rows[0] == ["name", "rating", "rd", "volatility", "games"]
    by_name = {r[0]: r for r in rows[1:]}
    assert set(by_name) == {"Ivan Petrov", "Anna Smirnova", "Boris Ivanov", "Olga Kim"}
    assert [r[0] for r in rows[1:3]] == ["Ivan Petrov", "Boris Ivanov"]  # rating order, name
    assert rows[-1][0] == "Anna Smirnova"
    assert [by_name[n][4] for n in ("Ivan Petrov", "Boris Ivanov")] == ["1", "1"]
    expected = reference_series([(0, "ivan", "anna", 1.0), (0, "boris", "olga", 0.5)])
    r, rd, sigma, _ = expected["ivan"]
    assert by_name["Ivan Petrov"][1:4] == [f"{r:.2f}", f"{rd:.2f}", f"{sigma:.5f}"]
    assert by_name["Boris Ivanov"][1:3] == ["1500.00", f"{expected['boris'][1]:.2f}"]
    assert err == ""


def test_one_person_across_files_by_name_and_months_between(tmp_path: Path) -> None:
    a = trf(
        tmp_path / "march.trf",
        dates_line("26/03/31"),
        player(1, "Ivan  Petrov", [(2, "w", "1")]),
        player(2, "Анна Смирнова", [(1, "b", "0")]),
    )
    b = trf(
        tmp_path / "may.trf",
        dates_line("2026/05/01"),
        player(1, "анна смирнова", [(2, "w", "=")]),
        player(2, "IVAN PETROV", [(1, "b", "=")]),
    )
    rows, _ = run(a, b)
    assert [r[0] for r in rows[1:]] == [
        "Ivan Petrov",
        "Анна Смирнова",
    ]  # as first written (one space)
    assert [r[4] for r in rows[1:]] == ["2", "2"]
    # March, April (nobody played: a period all the same), May.
    expected = reference_series([(0, "ivan", "anna", 1.0), (2, "anna", "ivan", 0.5)])
    assert rows[1][1:4] == [
        f"{expected['ivan'][0]:.2f}",
        f"{expected['ivan'][1]:.2f}",
        f"{expected['ivan'][2]:.5f}",
    ]


def test_rounds_without_a_date_are_left_out_with_a_warning(tmp_path: Path) -> None:
    path = trf(
        tmp_path / "a.trf",
        dates_line("26/03/07"),
        player(1, "A", [(2, "w", "1"), (2, "b", "1")]),
        player(2, "B", [(1, "b", "0"), (1, "w", "0")]),
    )
    rows, err = run(path)
    assert [r[4] for r in rows[1:]] == ["1", "1"]
    assert "round 2 has no date in line 132" in err and "a.trf" in err


def test_tau_changes_the_volatility_and_bad_tau_is_refused(tmp_path: Path) -> None:
    path = trf(
        tmp_path / "a.trf",
        dates_line("26/03/07", "26/04/07"),
        player(1, "A", [(2, "w", "0"), (2, "b", "1")]),
        player(2, "B", [(1, "b", "1"), (1, "w", "0")]),
    )
    low, _ = run(path, tau="0.3")
    high, _ = run(path, tau="1.2")
    assert low[1][3] != high[1][3]
    for bad in ("abc", "0", "-1", "nan"):
        with pytest.raises(CommandError, match="tau"):
            run(path, tau=bad)


def test_a_file_whose_entries_disagree_names_the_line(tmp_path: Path) -> None:
    path = trf(
        tmp_path / "a.trf",
        dates_line("26/03/07"),
        player(1, "A", [(2, "w", "1")]),
        player(2, "B", [(1, "b", "1")]),
    )
    with pytest.raises(CommandError, match=r"a\.trf: line 3: round 1"):
        run(path)
    with pytest.raises(CommandError, match="cannot read"):
        run(tmp_path / "missing.trf")


def test_round_dates_short_long_and_misplaced() -> None:
    assert round_dates(dates_line("26/03/07", "", "26/03/09")) == {
        1: date(2026, 3, 7),
        3: date(2026, 3, 9),
    }
    long = "132" + " " * 88 + "2026/03/07  2026/03/08"
    assert round_dates(long) == {1: date(2026, 3, 7), 2: date(2026, 3, 8)}
    aligned = "132" + " " * 86 + "2026/03/07  2026/03/08"  # ending where YY/MM/DD ends
    assert round_dates(aligned) == {1: date(2026, 3, 7), 2: date(2026, 3, 8)}
    assert round_dates("132 26/03/07 26/03/08") == {1: date(2026, 3, 7), 2: date(2026, 3, 8)}
    assert round_dates(dates_line("26/13/07")) == {1: None}
    assert round_dates(dates_line("99/12/31")) == {1: date(1999, 12, 31)}


def test_runs_without_a_database() -> None:
    """DATABASE_URL points at a server that does not exist: the command works all the same."""
    sample = ROOT / "tests" / "championship" / "data" / "ratings" / "march.trf"
    env = {**os.environ, "DATABASE_URL": "postgres://nobody@127.0.0.1:9/none"}
    proc = subprocess.run(
        [sys.executable, "manage.py", "ratings_from_trf", str(sample)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "name,rating,rd,volatility,games"
    assert len(proc.stdout.splitlines()) > 2


names = st.sampled_from(["Ivan", "Anna", "Boris", "Olga", "Pavel", "Irina"])


@settings(max_examples=examples(25), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.lists(
            st.tuples(st.integers(1, 28), st.sampled_from(["1", "=", "0", "+", "W"])), max_size=4
        ),
        min_size=1,
        max_size=4,
    )
)
def test_series_agrees_with_the_independent_implementation(
    tmp_path: Path, events: list[list[tuple[int, str]]]
) -> None:
    """Events in consecutive months, each round a game between two of the players."""
    files, games = [], []
    everyone = ["Ivan", "Anna", "Boris", "Olga", "Pavel", "Irina"]
    back = {"1": "0", "0": "1", "=": "=", "+": "-", "W": "L"}
    for e, rounds in enumerate(events):
        white, black = everyone[e % 6], everyone[(e + 1 + len(rounds)) % 6]
        if white == black:
            continue
        day = date(2025, 1 + 2 * e, 1)
        w_entries = [(2, "w", code) for _, code in rounds]
        b_entries = [(1, "b", back[code]) for _, code in rounds]
        dates = [f"{day:%y/%m}/{d:02d}" for d, _ in rounds]
        files.append(
            trf(
                tmp_path / f"e{e}.trf",
                dates_line(*dates),
                player(1, white, w_entries),
                player(2, black, b_entries),
            )
        )
        score = {"1": 1.0, "=": 0.5, "0": 0.0}
        games += [
            (month_index(day), white, black, score[code]) for _, code in rounds if code in score
        ]
    if not files:
        return
    rows, _ = run(*files)
    expected = reference_series(games)
    got = {r[0]: r[1:] for r in rows[1:]}
    assert set(got) == set(expected)
    for name, (r, rd, sigma, count) in expected.items():
        assert got[name] == [f"{r:.2f}", f"{rd:.2f}", f"{sigma:.5f}", str(count)]
