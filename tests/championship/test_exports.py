"""The public standings and crosstable downloads: formula-safe, typed, in the page's language."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest
from django.test import Client
from django.utils import translation

from games.demo import create_running_swiss

pytestmark = pytest.mark.django_db

HOSTILE = '=HYPERLINK("http://x","y")'


def _hostile_tournament() -> None:
    t = create_running_swiss(slug="x", players=6, rounds=2)
    first = t.entrants.order_by("pk").first()
    assert first is not None
    first.name = HOSTILE
    first.club = "@SUM(1+1)"
    first.save()


@pytest.mark.parametrize("page", ["standings", "crosstable"])
def test_a_name_that_looks_like_a_formula_stays_text_in_csv(client: Client, page: str) -> None:
    _hostile_tournament()
    raw = client.get(f"/t/x/{page}/?format=csv").content
    assert raw.startswith(b"\xef\xbb\xbf")  # Excel on Windows reads the Cyrillic right
    cells = [c for row in csv.reader(io.StringIO(raw.decode("utf-8-sig"))) for c in row]
    assert "'" + HOSTILE in cells and HOSTILE not in cells
    assert not any(c.startswith(("=", "@")) for c in cells)


@pytest.mark.parametrize("page", ["standings", "crosstable"])
def test_xlsx_cells_are_typed_and_never_formulas(client: Client, page: str) -> None:
    _hostile_tournament()
    raw = client.get(f"/t/x/{page}/?format=xlsx").content
    book = openpyxl.load_workbook(io.BytesIO(raw))
    sheet = book.active
    assert sheet.title == page.capitalize()
    values = [c for row in sheet.iter_rows() for c in row]
    assert all(c.data_type != "f" for c in values)
    assert HOSTILE in [c.value for c in values]
    points = [row[-1].value for row in sheet.iter_rows(min_row=2)]
    assert points and all(isinstance(p, int | float) for p in points), points  # not "3.0"


def test_headers_follow_the_language(client: Client) -> None:
    _hostile_tournament()
    with translation.override("ru"):
        raw = client.get("/t/x/standings/?format=csv", HTTP_ACCEPT_LANGUAGE="ru").content
    header = next(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert header[0] != "Rank" and header[2] != "Name"
