"""``python manage.py pair_trf FILE``: the next round of the tournament in a TRF file.

Output, as the established pairing programs print it: the number of pairs on the first line,
then one ``WHITE BLACK`` line per pair by starting number, a bye written as ``N 0``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from championship.management.trf_files import read_trf_file
from championship.pairing import PairingError, pair_trf_text


class Command(BaseCommand):
    help = "Print the next round's pairings (FIDE Dutch system) for a TRF file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        text = read_trf_file(options["file"])
        try:
            pairs = pair_trf_text(text)
        except PairingError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(str(len(pairs)))
        for pair in pairs:
            self.stdout.write(f"{pair.white} {pair.black or 0}")
