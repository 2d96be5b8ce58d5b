"""TRF interchange and the pair_trf / standings_trf command-line contracts."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from championship.pairing import pair_swiss, read_trf, standings, write_trf
from championship.pairing.simulate import play_swiss


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
