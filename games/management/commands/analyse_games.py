"""``python manage.py analyse_games [--slug S]``: queue the engine's analysis of every finished
tournament game that has none for its moves (or whose analysis failed).

A tournament game is analysed as its sheet finishes it. Before analyses were keyed by the
moves (issue 21), the players' confirmations at the tablet dropped the analysis queued at a
game's end, and nothing queued it again: run this once after that upgrade (and whenever a
worker was away long enough for queued analyses to fail). Each game is asked once; games
analysed already, or not finished, are left alone (``games.analysis.request``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Q

from championship.models import Tournament
from games import analysis
from games.models import Game, GameAnalysis


class Command(BaseCommand):
    help = "Queue the analysis of finished tournament games that have none (or a failed one)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--slug", default="", help="only this tournament's games")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.exclude(board=None)
        if options["slug"]:
            if not Tournament.objects.filter(slug=options["slug"]).exists():
                raise CommandError(f"no tournament {options['slug']!r}")
            games = games.filter(board__round__tournament__slug=options["slug"])
        games = games.filter(
            Q(analysis=None) | Q(analysis__status=GameAnalysis.Status.FAILED)
        ).order_by("pk")
        queued = 0
        for pk in games.values_list("pk", flat=True).iterator():
            if analysis.request(pk) is not None:
                queued += 1
        self.stdout.write(self.style.SUCCESS(f"{queued} finished game(s) queued for analysis."))
