"""``python manage.py standings_trf FILE``: the standings of the tournament in a TRF file as
CSV: rank, starting number, name, points, then BH, BH-C1, BH-M1, SB, DE, WIN, BWG, ARO."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from championship.management.trf_files import read_trf_file, trf_error
from championship.pairing import PairingError, read_trf, standings
from championship.pairing.tiebreaks import DEFAULT_ORDER

COLUMNS = ("bh", "bh_c1", "bh_m1", "sb", "de", "win", "bwg", "aro")
HEADERS = ("BH", "BH-C1", "BH-M1", "SB", "DE", "WIN", "BWG", "ARO")


def number(value: float) -> str:
    return f"{value:g}" if value != int(value) else str(int(value))


class Command(BaseCommand):
    help = "Print the standings with FIDE C.07 tie-breaks for a TRF file, as CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--order",
            default=",".join(DEFAULT_ORDER),
            help="tie-break order for ranking (keys: bh, bh_c1, bh_m1, sb, de, win, bwg, aro)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        text = read_trf_file(path)
        order = [k.strip() for k in options["order"].split(",") if k.strip()]
        unknown = [k for k in order if k not in COLUMNS]
        if unknown:
            raise CommandError(f"unknown tie-break(s): {', '.join(unknown)}")
        try:
            data = read_trf(text)
        except PairingError as exc:
            raise trf_error(path, exc) from None
        writer = csv.writer(self.stdout, lineterminator="\n")
        writer.writerow(["Rank", "SNo", "Name", "Pts", *HEADERS])
        for row in standings(data, order=order, extra=COLUMNS):
            aro = row.tiebreaks["aro"]
            writer.writerow(
                [row.rank, row.number, row.name, number(float(row.points))]
                + [number(row.tiebreaks[k]) for k in COLUMNS[:-1]]
                + [str(round(aro))]
            )
