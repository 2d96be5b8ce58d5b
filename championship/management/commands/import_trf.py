"""``python manage.py import_trf FILE --slug S [--name N]``: create a tournament from a TRF file
(entrants with their starting numbers and ratings, every round published with its results).

The slug must be one Django accepts in a URL (letters, digits, hyphens, underscores); names
are read single-line and without control characters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_slug

from championship.interchange import TrfImportError, import_trf
from championship.management.trf_files import read_trf_file, trf_error
from championship.models import Tournament
from championship.pairing import PairingError, clean_name, parse_trf


class Command(BaseCommand):
    help = "Import a tournament from a FIDE TRF file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--slug", required=True)
        parser.add_argument("--name", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["slug"]
        limit = Tournament._meta.get_field("slug").max_length or 80
        try:
            validate_slug(slug)
        except ValidationError:
            raise CommandError(
                f"{slug!r} is not a valid slug: use letters, digits, hyphens and underscores"
            ) from None
        if len(slug) > limit:
            raise CommandError(f"the slug has {len(slug)} characters, more than {limit}")
        name_limit = Tournament._meta.get_field("name").max_length or 200
        name = clean_name(options["name"], name_limit)
        path = options["file"]
        text = read_trf_file(path)
        try:
            parse_trf(text)  # every problem of the file, with its line, before any write
        except PairingError as exc:
            raise trf_error(path, exc) from None
        try:
            t = import_trf(text, slug=slug, name=name)
        except TrfImportError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {t.entrants.count()} entrants, "
                f"{t.round_set.count()} rounds: /t/{t.slug}/"
            )
        )
        for number in t.round_set.filter(date=None).values_list("number", flat=True):
            self.stderr.write(
                f"warning: round {number} has no date in line 132: its games are imported "
                "unrated (date the round and count them again on its page)"
            )
