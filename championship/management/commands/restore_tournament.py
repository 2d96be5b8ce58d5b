"""``python manage.py restore_tournament FILE``: restore a tournament exported with
``export_tournament`` into a database that does not have it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from championship.backup import BackupError, restore_tournament
from championship.management.trf_files import read_trf_file


class Command(BaseCommand):
    help = "Restore a tournament from a file written by export_tournament."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            t = restore_tournament(read_trf_file(options["file"]))
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(self.style.SUCCESS(f"Restored {t.slug}: /t/{t.slug}/"))
