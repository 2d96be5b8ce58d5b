"""``python manage.py pair_trf FILE [--ruleset dutch-2025|dutch-2017]``: the next round of
the tournament in a TRF file.

Output, as the established pairing programs print it: the number of pairs on the first line,
then one ``WHITE BLACK`` line per pair by starting number, a bye written as ``N 0``. The
ruleset is the one given, else the one the file names in its ``192`` line, else FIDE Dutch
(2025)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from championship.management.trf_files import read_trf_file, trf_error
from championship.pairing import RULESET_KEYS, PairingError, pair_trf_text


class Command(BaseCommand):
    help = "Print the next round's pairings (FIDE Dutch system) for a TRF file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--ruleset",
            choices=RULESET_KEYS,
            default=None,
            help="dutch-2025 (FIDE Dutch, 2025 text; the default) or dutch-2017",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        text = read_trf_file(path)
        try:
            pairs = pair_trf_text(text, ruleset=options["ruleset"])
        except PairingError as exc:
            raise trf_error(path, exc) from None
        self.stdout.write(str(len(pairs)))
        for pair in pairs:
            self.stdout.write(f"{pair.white} {pair.black or 0}")
