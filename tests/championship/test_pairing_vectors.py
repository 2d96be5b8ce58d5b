"""The shared reference vectors: 200 rounds paired by bbpPairings 6.0.0 (FIDE Dutch, 2025
text); ours must be identical in pairs and colours.

The vectors are copied into ``pairing_vectors/`` (from ``../shared/pairing-vectors``) so the
suite needs nothing outside the repository and a change of the shared copy cannot change a
test's meaning without a commit here."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from championship.pairing import pair_trf_text

VECTORS = Path(__file__).parent / "pairing_vectors"
CASES = sorted(p.stem for p in VECTORS.glob("*.trf"))


def expected(case: str) -> list[tuple[int, int]]:
    lines = (VECTORS / f"{case}.expected").read_text().split()
    count, numbers = int(lines[0]), [int(x) for x in lines[1:]]
    pairs = list(zip(numbers[::2], numbers[1::2], strict=True))
    assert len(pairs) == count
    return pairs


def test_there_are_two_hundred_vectors() -> None:
    assert len(CASES) == 200


@pytest.mark.parametrize("case", CASES)
def test_vector_is_paired_as_the_reference_pairs_it(case: str) -> None:
    text = (VECTORS / f"{case}.trf").read_text(encoding="utf-8")
    got = {(p.white, p.black or 0) for p in pair_trf_text(text)}
    assert got == set(expected(case))  # pairs and colours


@pytest.mark.parametrize("case", ["005", "098", "143"])
def test_pair_trf_command_prints_the_reference_pairing(case: str) -> None:
    out = io.StringIO()
    call_command("pair_trf", str(VECTORS / f"{case}.trf"), stdout=out)
    lines = out.getvalue().split("\n")
    want = expected(case)
    assert lines[0] == str(len(want))
    assert {tuple(map(int, line.split())) for line in lines[1 : len(want) + 1]} == set(want)


def test_the_2017_ruleset_still_pairs_as_before() -> None:
    """Case 005 is one where the 2025 text changes the pairing (a zero-point absence no
    longer counts as a downfloat, 1.4.3): the 2017 engine keeps its old answer."""
    text = (VECTORS / "005.trf").read_text(encoding="utf-8")
    old = {(p.white, p.black or 0) for p in pair_trf_text(text, ruleset="dutch-2017")}
    new = {(p.white, p.black or 0) for p in pair_trf_text(text, ruleset="dutch-2025")}
    assert new == set(expected("005"))
    assert old == {(2, 3), (4, 9), (5, 6), (7, 0), (8, 1)}  # py4swiss 0.3.1, as before


@pytest.mark.django_db
def test_the_ruleset_is_a_tournament_setting_named_on_the_pages_and_in_the_trf(client) -> None:  # type: ignore[no-untyped-def]
    from championship import services
    from championship.models import Entrant, Tournament

    t = Tournament.objects.create(name="R", slug="r", starts_on="2027-03-14", ends_on="2027-03-14")
    assert t.ruleset == "dutch-2025"  # the default
    for i in range(6):
        Entrant.objects.create(tournament=t, name=f"P{i}", rating=2000 - i, checked_in=True)
    services.round_publish(round=services.round_pair_next(tournament=t))
    assert "FIDE Dutch (2025)" in client.get("/t/r/").content.decode()
    assert "\n192 FIDE_DUTCH_2025\n" in client.get("/t/r/export.trf").content.decode()
    Tournament.objects.filter(pk=t.pk).update(ruleset="dutch-2017")
    services.tournament_changed(t.pk)
    assert "FIDE Dutch (2017)" in client.get("/t/r/").content.decode()
    assert "\n192 FIDE_DUTCH_2017\n" in client.get("/t/r/export.trf").content.decode()
    page = client.get("/t/r/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "правила жеребьёвки" in page.lower()


@pytest.mark.django_db
def test_pairing_a_round_uses_the_tournaments_ruleset(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from championship import services
    from championship.models import Entrant, Tournament
    from championship.services import rounds

    asked: list[str] = []
    real = rounds.pair_swiss

    def spy(data, ruleset):  # type: ignore[no-untyped-def]
        asked.append(ruleset)
        return real(data, ruleset=ruleset)

    monkeypatch.setattr(rounds, "pair_swiss", spy)
    for slug, ruleset in (("a", "dutch-2017"), ("b", "dutch-2025")):
        t = Tournament.objects.create(
            name=slug, slug=slug, starts_on="2027-03-14", ends_on="2027-03-14", ruleset=ruleset
        )
        for i in range(4):
            Entrant.objects.create(tournament=t, name=f"P{i}", rating=2000 - i, checked_in=True)
        services.round_pair_next(tournament=t)
    assert asked == ["dutch-2017", "dutch-2025"]
