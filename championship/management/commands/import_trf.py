"""``python manage.py import_trf FILE --slug S [--name N]``: create a tournament from a TRF file
(entrants with their starting numbers and ratings, every round published with its results)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from championship.interchange import TrfImportError, import_trf
from championship.management.trf_files import read_trf_file


class Command(BaseCommand):
    help = "Import a tournament from a FIDE TRF file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--slug", required=True)
        parser.add_argument("--name", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        text = read_trf_file(options["file"])
        try:
            t = import_trf(text, slug=options["slug"], name=options["name"])
        except TrfImportError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {t.entrants.count()} entrants, "
                f"{t.round_set.count()} rounds: /t/{t.slug}/"
            )
        )
