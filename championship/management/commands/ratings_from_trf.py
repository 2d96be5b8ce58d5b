"""``python manage.py ratings_from_trf FILE... [--tau 0.5]``: the club's ratings (Glicko-2,
docs/ratings.md) of the games in the given TRF-2016 files only, as CSV on stdout:
``name,rating,rd,volatility,games``, highest rating first. A stable contract (README).

Needs no database and never touches one: no system checks, no query (it runs with
``DATABASE_URL`` pointing at a server that does not exist)."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from championship.management.trf_files import read_trf_file, trf_error
from championship.pairing import PairingError
from championship.rating.glicko2 import DEFAULT_TAU
from championship.rating.series import rate_series
from championship.rating.trf_games import TrfGames, rated_games


def _tau(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise CommandError(f"--tau {text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise CommandError(f"--tau must be a positive number, not {text!r}")
    return value


class Command(BaseCommand):
    help = "Rate the games of TRF-2016 files with the club's Glicko-2 rules; print CSV."
    requires_system_checks: list[str] = []  # no database, nothing to check

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", type=Path, metavar="FILE")
        parser.add_argument(
            "--tau", default=str(DEFAULT_TAU), help="the system constant (default 0.5)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tau = _tau(options["tau"])
        files: list[tuple[str, TrfGames]] = []
        for path in options["files"]:
            try:
                files.append((str(path), rated_games(read_trf_file(path))))
            except PairingError as exc:
                raise trf_error(path, exc) from None
        rows, warnings = rate_series(files, tau=tau)
        for warning in warnings:
            self.stderr.write(f"warning: {warning}")
        writer = csv.writer(self.stdout, lineterminator="\n")
        writer.writerow(["name", "rating", "rd", "volatility", "games"])
        for row in rows:
            writer.writerow(
                [row.name, f"{row.rating:.2f}", f"{row.rd:.2f}", f"{row.volatility:.5f}", row.games]
            )
