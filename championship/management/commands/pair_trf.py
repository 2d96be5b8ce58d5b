"""``python manage.py pair_trf FILE``: the next round of the tournament in a TRF file.

Output, as the established pairing programs print it: the number of pairs on the first line,
then one ``WHITE BLACK`` line per pair by starting number, a bye written as ``N 0``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from championship.pairing import PairingError, pair_trf_text


class Command(BaseCommand):
    help = "Print the next round's pairings (FIDE Dutch system) for a TRF file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            text = options["file"].read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {options['file']}: {exc}") from None
        try:
            pairs = pair_trf_text(text)
        except PairingError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(str(len(pairs)))
        for pair in pairs:
            self.stdout.write(f"{pair.white} {pair.black or 0}")
