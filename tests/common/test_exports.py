"""common.exports: CSV and XLSX that cannot run code and keep each value's type, opened back
with the csv module and openpyxl as a spreadsheet would read them."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook

from common.exports import (
    FORMULA_TRIGGERS,
    Sheet,
    csv_bytes,
    export_response,
    is_formula_like,
    sheet_name,
    xlsx_bytes,
)

HOSTILE_NAMES = [
    '=HYPERLINK("http://x","y")',
    "@SUM(1+1)",
    "+1+1",
    "-2+3",
    "=cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    "  =1+1",
    "＝1+1",
    "#N/A",
    "#DIV/0!",
    'Анна "Аня" Иванова, Торонто',
    "a;=1+1",
    "\u202eevil.exe",  # right-to-left override
    "محمد علي",  # right-to-left script
    "שלום",
]


def read_csv(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf"), "a byte-order mark for Excel"
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def read_xlsx(data: bytes):  # type: ignore[no-untyped-def]
    workbook = load_workbook(io.BytesIO(data))
    return workbook, workbook.active


def sheet_xml(data: bytes) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read("xl/worksheets/sheet1.xml").decode()


def test_hostile_names_are_text_in_csv_never_formulas() -> None:
    rows = read_csv(csv_bytes(Sheet("Players", ["Name"], [[n] for n in HOSTILE_NAMES])))
    assert rows[0] == ["Name"]
    for name, (cell,) in zip(HOSTILE_NAMES, rows[1:], strict=True):
        assert not cell.startswith(FORMULA_TRIGGERS)
        if is_formula_like(name):
            assert cell == "'" + name
        else:
            assert cell == name  # Cyrillic, quotes, right-to-left text: unchanged


def test_every_csv_text_field_is_quoted_so_another_separator_cannot_start_a_cell() -> None:
    text = csv_bytes(Sheet("x", ["Name", "Points"], [["a;=1+1", 3]])).decode("utf-8-sig")
    assert text.splitlines()[1] == '"a;=1+1",3'
    # Read as a Russian Excel would, splitting on ";": the quoted field stays one cell.
    (row,) = list(csv.reader(io.StringIO(text.splitlines()[1]), delimiter=";"))
    assert row == ["a;=1+1,3"]


def test_hostile_names_are_string_cells_in_xlsx_never_formulas() -> None:
    data = xlsx_bytes(Sheet("Players", ["Name"], [[n] for n in HOSTILE_NAMES]))
    _, ws = read_xlsx(data)
    for row, name in enumerate(HOSTILE_NAMES, start=2):
        cell = ws.cell(row=row, column=1)
        assert cell.data_type == "s", name
        assert cell.value == name.replace("\r", "\n")  # XML reads a carriage return as \n
        assert cell.quotePrefix == is_formula_like(name), name
    xml = sheet_xml(data)
    assert "<f>" not in xml and "<f " not in xml  # no formula anywhere
    assert 't="e"' not in xml  # "#N/A" is text, not an error value


def test_types_numbers_dates_in_toronto_booleans_phones() -> None:
    registered = datetime(2026, 12, 23, 23, 30, 15, 123456, tzinfo=UTC)  # 18:30 in Toronto
    row = [3.0, 1700.0, Decimal("1.5"), Decimal("2.0"), 7, registered, date(2027, 3, 14)]
    row += [True, False, "+14165550123", None]
    sheet = Sheet("Registrations", [f"h{i}" for i in range(len(row))], [row])

    (_, values) = read_csv(csv_bytes(sheet))
    assert values[:5] == ["3", "1700", "1.5", "2", "7"]
    assert values[5:7] == ["2026-12-23 18:30", "2027-03-14"]
    assert values[7:9] == ["Yes", "No"]
    assert values[9] == "'+14165550123"  # a phone is text, never the number 14165550123
    assert values[10] == ""

    _, ws = read_xlsx(xlsx_bytes(sheet))
    cells = [ws.cell(row=2, column=c) for c in range(1, len(row) + 1)]
    assert [c.value for c in cells[:5]] == [3, 1700, 1.5, 2, 7]
    assert all(c.data_type == "n" for c in cells[:5])
    assert cells[5].is_date and cells[5].value == datetime(2026, 12, 23, 18, 30, 15)
    assert cells[5].number_format == "yyyy-mm-dd hh:mm"
    assert cells[6].is_date and cells[6].value.date() == date(2027, 3, 14)
    assert [c.value for c in cells[7:9]] == ["Yes", "No"]
    assert cells[9].value == "+14165550123" and cells[9].data_type == "s"
    assert cells[10].value is None


def test_booleans_and_the_sheet_name_in_the_users_language() -> None:
    with translation.override("ru"):
        sheet = Sheet("Регистрации", ["Имя", "Подтверждён"], [["Анна", True], ["Борис", False]])
        rows = read_csv(csv_bytes(sheet))
        workbook, ws = read_xlsx(xlsx_bytes(sheet))
    assert rows == [["Имя", "Подтверждён"], ["Анна", "Да"], ["Борис", "Нет"]]
    assert workbook.sheetnames == ["Регистрации"]
    assert [[c.value for c in r] for r in ws.iter_rows()][1:] == [["Анна", "Да"], ["Борис", "Нет"]]
    assert ws.freeze_panes == "A2"


def test_sheet_names_excel_accepts() -> None:
    assert sheet_name("Standings: round 3/5 [final]?") == "Standings  round 3 5  final"
    assert len(sheet_name("x" * 100)) == 31
    assert sheet_name("'*'") == "Sheet"


def test_the_response_is_a_download_with_the_right_type() -> None:
    sheet = Sheet("Sign-ups", ["Name"], [["Анна"]])
    csv_response = export_response(sheet, fmt="csv", filename="signups-3")
    assert csv_response["Content-Type"] == "text/csv; charset=utf-8"
    assert csv_response["Content-Disposition"] == 'attachment; filename="signups-3.csv"'
    xlsx_response = export_response(sheet, fmt="xlsx", filename="signups-3")
    assert xlsx_response["Content-Type"].endswith("spreadsheetml.sheet")
    assert xlsx_response.content[:2] == b"PK"
    with pytest.raises(ValueError):
        export_response(sheet, fmt="pdf", filename="x")


@given(st.text(max_size=40))
def test_any_text_survives_csv_and_is_never_a_formula(text: str) -> None:
    (_, (cell,)) = read_csv(csv_bytes(Sheet("t", ["h"], [[text]])))
    assert not is_formula_like(cell)
    assert cell == ("'" + text if is_formula_like(text) else text)


@given(st.text(max_size=40))
def test_any_text_is_a_string_cell_in_xlsx(text: str) -> None:
    data = xlsx_bytes(Sheet("t", ["h"], [[text]]))
    cell = read_xlsx(data)[1].cell(row=2, column=1)
    assert "<f>" not in sheet_xml(data)
    assert cell.value is None or cell.data_type == "s"
