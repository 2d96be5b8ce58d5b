"""Spreadsheet downloads (CSV and XLSX) that are safe to open and right in the user's language.

One function for every export of the site: give it a :class:`Sheet` (a title, the headers and
the rows, as Python values) and a format; it answers the download.

- **No formulas from data** (OWASP, "CSV Injection"): a text cell that a spreadsheet would read
  as a formula — starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (or their
  full-width forms, which some Excel input modes turn into the ASCII ones), also after leading
  spaces — gets a leading apostrophe in CSV, and every text field is quoted, so a spreadsheet
  that splits on another separator (``;`` in a Russian Excel) cannot start a new cell inside
  it. In XLSX every text is a string cell, never a formula nor an error value, and such cells
  carry Excel's "quote prefix" so that editing them later does not turn them into formulas.
- **Typed values**: numbers stay numbers (``3``, not ``3.0``; ``Decimal("1.5")`` is ``1.5``),
  dates and times are shown in the site's time zone (Toronto) as real date cells in XLSX and
  as ``2026-12-23 18:30`` in CSV, booleans are the words of the current language ("Yes"/"Да"),
  anything else (a phone number, a lazy translation) is text: ``+14165550123`` stays text.
- CSV is UTF-8 with a byte-order mark, so Excel on Windows reads Cyrillic right; the XLSX
  sheet is named after what it holds (the title, cut to Excel's 31 characters).

Headers and the title are whatever the caller passes: translate them in the request's language
(``gettext``), as the rest of the page.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction

from django.http import HttpResponse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext

#: The formats :func:`export_response` writes.
EXPORT_FORMATS = ("csv", "xlsx")

#: First characters that make a spreadsheet read a cell as a formula (OWASP), with the
#: full-width forms Excel's East Asian input modes convert to them.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")

CSV_CONTENT_TYPE = "text/csv; charset=utf-8"
XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
DATETIME_TEXT = "%Y-%m-%d %H:%M"
DATE_TEXT = "%Y-%m-%d"
DATETIME_CELL = "yyyy-mm-dd hh:mm"
DATE_CELL = "yyyy-mm-dd"

#: Characters XML 1.0 cannot carry (openpyxl refuses them): dropped from XLSX text.
_XML_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
#: Characters Excel forbids in a sheet's name.
_SHEET_NAME_ILLEGAL = re.compile(r"[\[\]:*?/\\\x00-\x1f]")


@dataclass(frozen=True)
class Sheet:
    """What an export holds: ``title`` names the XLSX sheet, ``headers`` the columns, and each
    row is a sequence of plain values (str, int, float, Decimal, bool, date, datetime, None or
    anything whose ``str()`` is the text to show)."""

    title: str
    headers: Sequence[str]
    rows: Iterable[Sequence[object]]


def is_formula_like(text: str) -> bool:
    """Would a spreadsheet read this text as the start of a formula?"""
    return text.startswith(FORMULA_TRIGGERS) or text.lstrip(" ").startswith(FORMULA_TRIGGERS)


def neutralise(text: str) -> str:
    """``text`` as a CSV cell that is never a formula: a leading apostrophe where needed."""
    return "'" + text if is_formula_like(text) else text


def _number(value: int | float | Decimal | Fraction) -> int | float | Decimal:
    """3.0 → 3; a whole Decimal or Fraction → int; 3/2 → 1.5; other numbers as they are."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value():
        return int(value)
    return value


def _local(value: datetime) -> datetime:
    """An aware time in the site's time zone, without its zone (spreadsheets have none)."""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return value.replace(tzinfo=None, microsecond=0)


def _yes_no(value: bool) -> str:
    return gettext("Yes") if value else gettext("No")


def csv_cell(value: object) -> str | int | float:
    """The value as written to CSV (text is quoted by the writer)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return _yes_no(value)
    if isinstance(value, int | float | Decimal | Fraction):
        number = _number(value)
        return float(number) if isinstance(number, Decimal) else number
    if isinstance(value, datetime):
        return _local(value).strftime(DATETIME_TEXT)
    if isinstance(value, date):
        return value.strftime(DATE_TEXT)
    return neutralise(str(value))


def csv_bytes(sheet: Sheet) -> bytes:
    """UTF-8 with a byte-order mark; every text field quoted, numbers bare."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n")
    writer.writerow([csv_cell(str(h)) for h in sheet.headers])
    for row in sheet.rows:
        writer.writerow([csv_cell(v) for v in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def sheet_name(title: str) -> str:
    """A name Excel accepts: no ``[]:*?/\\``, at most 31 characters, not empty."""
    name = _SHEET_NAME_ILLEGAL.sub(" ", str(title)).strip().strip("'").strip()
    return name[:31].strip() or "Sheet"


def xlsx_bytes(sheet: Sheet) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    workbook = Workbook()
    worksheet = workbook.active
    assert worksheet is not None
    worksheet.title = sheet_name(sheet.title)
    widths: list[int] = []

    def put(row: int, column: int, value: object) -> None:
        cell = worksheet.cell(row=row, column=column)
        shown: str
        if value is None:
            shown = ""
        elif isinstance(value, bool):
            shown = _yes_no(value)
            _text(cell, shown)
        elif isinstance(value, int | float | Decimal | Fraction):
            number = _number(value)
            cell.value = float(number) if isinstance(number, Decimal) else number
            shown = str(number)
        elif isinstance(value, datetime):
            cell.value = _local(value)
            cell.number_format = DATETIME_CELL
            shown = DATETIME_CELL
        elif isinstance(value, date):
            cell.value = value
            cell.number_format = DATE_CELL
            shown = DATE_CELL
        else:
            shown = _XML_ILLEGAL.sub("", str(value))
            _text(cell, shown)
        while len(widths) < column:
            widths.append(0)
        widths[column - 1] = max(widths[column - 1], len(shown))

    for column, header in enumerate(sheet.headers, start=1):
        put(1, column, str(header))
        worksheet.cell(row=1, column=column).font = Font(bold=True)
    row_number = 1
    for row_number, row in enumerate(sheet.rows, start=2):
        for column, value in enumerate(row, start=1):
            put(row_number, column, value)
    for column, width in enumerate(widths, start=1):
        worksheet.column_dimensions[get_column_letter(column)].width = min(60, max(6, width + 2))
    worksheet.freeze_panes = "A2"
    if sheet.headers:
        worksheet.auto_filter.ref = f"A1:{get_column_letter(len(sheet.headers))}{row_number}"
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _text(cell: object, text: str) -> None:
    """A string cell whatever the text looks like (openpyxl would make ``=…`` a formula and
    ``#N/A`` an error); formula-like text also gets Excel's quote prefix."""
    cell.value = text  # type: ignore[attr-defined]
    cell.data_type = "s"  # type: ignore[attr-defined]
    if is_formula_like(text):
        cell.quotePrefix = True  # type: ignore[attr-defined]


def export_response(sheet: Sheet, *, fmt: str, filename: str) -> HttpResponse:
    """The download of ``sheet`` as ``filename.csv`` or ``filename.xlsx`` (``fmt`` one of
    :data:`EXPORT_FORMATS`)."""
    if fmt == "csv":
        response = HttpResponse(csv_bytes(sheet), content_type=CSV_CONTENT_TYPE)
    elif fmt == "xlsx":
        response = HttpResponse(xlsx_bytes(sheet), content_type=XLSX_CONTENT_TYPE)
    else:
        raise ValueError(f"unknown export format {fmt!r}")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"{filename}.{fmt}"
    )
    return response
