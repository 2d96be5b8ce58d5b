"""TRF interchange and the pair_trf / standings_trf command-line contracts."""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from championship.pairing import pair_swiss, parse_trf, read_trf, standings, write_trf
from championship.pairing.simulate import play_swiss
from tests.hypothesis_profiles import examples


def run(command: str, path: Path) -> str:
    out = io.StringIO()
    call_command(command, str(path), stdout=out)
    return out.getvalue()


def test_trf_round_trip() -> None:
    data, _ = play_swiss(13, 4, seed=3)
    text = write_trf(data)
    again = read_trf(text)
    assert [p.rounds for p in again.players] == [p.rounds for p in data.players]
    assert [p.rating for p in again.players] == [p.rating for p in data.players]
    assert write_trf(again).splitlines()[1:] == text.splitlines()[1:]


def test_pair_trf_prints_count_then_pairs_with_bye_as_zero(tmp_path: Path) -> None:
    data, _ = play_swiss(11, 5, seed=7, upto=3)
    path = tmp_path / "t.trf"
    path.write_text(write_trf(data))
    lines = run("pair_trf", path).splitlines()
    pairs = pair_swiss(data)
    assert lines[0] == str(len(pairs)) == "6"
    assert lines[1:] == [f"{p.white} {p.black or 0}" for p in pairs]
    assert lines[-1].endswith(" 0")  # 11 players: a bye


def test_standings_trf_csv(tmp_path: Path) -> None:
    data, _ = play_swiss(10, 4, seed=5)
    path = tmp_path / "t.trf"
    path.write_text(write_trf(data))
    rows = list(csv.reader(io.StringIO(run("standings_trf", path))))
    assert rows[0] == [
        "Rank",
        "SNo",
        "Name",
        "Pts",
        "BH",
        "BH-C1",
        "BH-M1",
        "SB",
        "DE",
        "WIN",
        "BWG",
        "ARO",
    ]
    expected = standings(data)
    assert [int(r[1]) for r in rows[1:]] == [r.number for r in expected]
    assert [float(r[3]) for r in rows[1:]] == [float(r.points) for r in expected]
    assert len(rows) == 11


def test_broken_line_is_named(tmp_path: Path) -> None:
    data, _ = play_swiss(6, 3, seed=2, upto=2)
    lines = write_trf(data).splitlines()
    lines[3] = lines[3][:95] + "x" + lines[3][96:]  # garble a result of the third player
    path = tmp_path / "bad.trf"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CommandError, match=r"line 4"):
        run("pair_trf", path)
    with pytest.raises(CommandError, match=r"line 4"):
        run("standings_trf", path)
    with pytest.raises(CommandError, match="cannot read"):
        run("pair_trf", tmp_path / "missing.trf")


@pytest.mark.django_db
def test_import_trf_then_export_gives_the_same_rounds(tmp_path: Path) -> None:
    from championship.manager import tournament_data
    from championship.models import Tournament

    data, _ = play_swiss(9, 5, seed=11, upto=3)
    path = tmp_path / "t.trf"
    path.write_text(write_trf(data))
    out = io.StringIO()
    call_command("import_trf", str(path), "--slug", "imp", stdout=out)
    assert "Imported 9 entrants, 3 rounds" in out.getvalue()
    t = Tournament.objects.get(slug="imp")
    again = tournament_data(t)
    assert [p.rounds for p in again.players] == [p.rounds for p in data.players]
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_trf", str(path), "--slug", "imp", stdout=io.StringIO())


# --- Malformed files: a CommandError naming the line, never a traceback (issue 16) ------------
def valid_trf() -> str:
    data, _ = play_swiss(8, 5, seed=6, upto=2)
    return write_trf(data)


def broken(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "broken.trf"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def replace_line(text: str, index: int, line: str) -> str:
    lines = text.splitlines()
    lines[index] = line
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "mutate, line, what",
    [
        (lambda t: t.replace("P3", "P\x003", 1), 4, "NUL"),
        (lambda t: replace_line(t, 2, t.splitlines()[2][:91] + "  99 w 1"), 3, "no player 99"),
        (lambda t: replace_line(t, 2, t.splitlines()[2][:98] + "Q"), 3, "result code"),
        (lambda t: replace_line(t, 1, t.splitlines()[1] + " " * 5000), 2, "more than 4096"),
        (lambda t: replace_line(t, 3, t.splitlines()[3][:40]), 4, "at least 84"),
        (lambda t: t.replace("XXR 5", "XXR five"), 10, "number of rounds"),
    ],
)
@pytest.mark.parametrize("command", ["pair_trf", "standings_trf"])
def test_malformed_file_is_a_command_error_naming_the_line(
    tmp_path: Path, command: str, mutate: object, line: int, what: str
) -> None:
    path = broken(tmp_path, mutate(valid_trf()))  # type: ignore[operator]
    with pytest.raises(CommandError, match=rf"line {line}: .*{what}"):
        run(command, path)


def test_non_utf8_file_names_the_line(tmp_path: Path) -> None:
    raw = valid_trf().encode()
    at = raw.index(b"P5")
    path = broken(tmp_path, raw[:at] + b"\xff\xfe" + raw[at + 2 :])
    for command in ("pair_trf", "standings_trf"):
        with pytest.raises(CommandError, match=r"line 6: the file is not UTF-8"):
            run(command, path)


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["bad slug", "<b>", "", "x" * 81])
def test_import_refuses_a_bad_slug(tmp_path: Path, slug: str) -> None:
    from championship.models import Tournament

    path = broken(tmp_path, valid_trf())
    with pytest.raises(CommandError, match="slug"):
        call_command("import_trf", str(path), "--slug", slug, stdout=io.StringIO())
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_import_keeps_names_single_line_without_control_characters(tmp_path: Path) -> None:
    from championship.models import Entrant, Tournament

    lines = valid_trf().splitlines()
    lines[1] = lines[1][:14] + "Anna\x1b[31m\u202eEvil\tX".ljust(33)[:33] + lines[1][47:]
    path = broken(tmp_path, "\n".join(lines) + "\n")
    call_command(
        "import_trf", str(path), "--slug", "clean", "--name", "Cup\nXXR 99", stdout=io.StringIO()
    )
    t = Tournament.objects.get(slug="clean")
    assert t.name == "Cup XXR 99"
    name = Entrant.objects.get(tournament=t, starting_number=1).name
    assert name == "Anna[31m Evil X"
    assert all(ch.isprintable() for ch in name)


def test_written_names_cannot_forge_lines() -> None:
    data, _ = play_swiss(4, 3, seed=1, upto=1)
    data.name = "Cup\nXXR 1"
    data.players[0].name = "Eve\r\n001    9      Forged"
    text = write_trf(data, ruleset="dutch-2025")
    assert text.count("\n001 ") == 4 and "\nXXR 1\n" not in text
    assert "\n192 FIDE_DUTCH_2025\n" in text
    again = parse_trf(text)
    assert again.ruleset == "dutch-2025" and again.data.players[0].name.startswith("Eve 001")


def test_the_file_names_its_ruleset(tmp_path: Path) -> None:
    data, _ = play_swiss(10, 5, seed=2, upto=2)
    path = tmp_path / "t.trf"
    path.write_text(write_trf(data, ruleset="dutch-2017"))
    assert run("pair_trf", path).splitlines()[1:] == [
        f"{p.white} {p.black or 0}" for p in pair_swiss(data, "dutch-2017")
    ]
    path.write_text(write_trf(data).replace("XXR", "192 FIDE_BURSTEIN\nXXR"))
    with pytest.raises(CommandError, match="FIDE_BURSTEIN"):
        run("pair_trf", path)
    out = io.StringIO()
    call_command("pair_trf", str(path), "--ruleset", "dutch-2025", stdout=out)
    assert out.getvalue().splitlines()[0] == "5"


MUTATIONS = st.one_of(
    st.tuples(st.just("byte"), st.integers(0, 10**6), st.binary(min_size=1, max_size=3)),
    st.tuples(st.just("delete"), st.integers(0, 10**6), st.integers(1, 40)),
    st.tuples(
        st.just("line"),
        st.integers(0, 10**6),
        st.sampled_from(
            HOSTILE_LINES := [
                b"XXP 1 99",
                b"XXS WW=abc",
                b"XXC purple",
                b"XXA    1  9.5",
                b"XXZ 3",
                b"XXR 0",
                b"001    1      " + b"x" * 100,
                b"\x00",
                b"192 FIDE_DUTCH_2017",
                b"XXR 3",
                b"001 9999      Z" + b" " * 80,
                b"\xc3\x28",
                b"012 " + b"\xe2\x80\xae" * 30,
            ]
        ),
    ),
)


SLUGS = itertools.count()


def mutate(raw: bytes, mutations: list[tuple[str, int, object]]) -> bytes:
    for kind, where, what in mutations:
        at = where % (len(raw) + 1)
        if kind == "byte":
            raw = raw[:at] + what + raw[at + len(what) :]  # type: ignore[operator]
        elif kind == "delete":
            raw = raw[:at] + raw[at + what :]  # type: ignore[operator]
        else:
            start = raw.rfind(b"\n", 0, at) + 1
            raw = raw[:start] + what + b"\n" + raw[start:]  # type: ignore[operator]
    return raw


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=st.lists(MUTATIONS, min_size=1, max_size=4))
@pytest.mark.django_db
def test_mutated_files_give_a_command_error_or_an_answer(
    tmp_path: Path, mutations: list[tuple[str, int, object]]
) -> None:
    """Random damage to a valid TRF: each command answers or raises CommandError, nothing
    else (the import writes nothing when it refuses)."""
    from championship.models import Tournament

    raw = mutate(valid_trf().encode(), mutations)
    path = tmp_path / "fuzz.trf"
    path.write_bytes(raw)
    for command in ("pair_trf", "standings_trf"):
        with contextlib.suppress(CommandError):
            run(command, path)
    slug = f"fuzz-{next(SLUGS)}"
    try:
        call_command("import_trf", str(path), "--slug", slug, stdout=io.StringIO())
    except CommandError:
        assert not Tournament.objects.filter(slug=slug).exists()
