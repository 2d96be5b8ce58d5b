"""``python manage.py export_tournament SLUG FILE``: a whole tournament to one JSON file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from championship.backup import export_tournament
from championship.models import Tournament


class Command(BaseCommand):
    help = "Export a tournament (entrants, rounds, results, history, registrations) to a file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        t = Tournament.objects.filter(slug=options["slug"]).first()
        if t is None:
            raise CommandError(f"no tournament {options['slug']!r}")
        options["file"].write_text(export_tournament(t), encoding="utf-8")
        self.stdout.write(self.style.SUCCESS(f"Exported {t.slug} to {options['file']}"))
