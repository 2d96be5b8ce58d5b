"""``python manage.py remove_demo``: remove the demo data ``seed_demo`` made (its tournaments
with their entrants, rounds, games, registrations, master-class sessions and sign-ups) and
nothing else. The same as the organisers' page *Remove the demo data*."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from registrations.services.demo import demo_data, demo_remove


class Command(BaseCommand):
    help = "Remove the demo data made by seed_demo (and nothing else)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="say what would be removed, remove nothing"
        )

    def handle(self, *args: object, **options: object) -> None:
        found = demo_data() if options["dry_run"] else demo_remove()
        if not found:
            self.stdout.write("There is no demo data.")
            return
        verb = "Would remove" if options["dry_run"] else "Removed"
        self.stdout.write(
            self.style.SUCCESS(
                f"{verb}: {len(found.tournaments)} tournament(s) ({', '.join(found.tournaments)}), "
                f"{found.registrations} registration(s), {found.sessions} master-class "
                f"session(s), {found.signups} sign-up(s)."
            )
        )
