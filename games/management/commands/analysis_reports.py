"""Derive what issue 24 adds from what is already stored: the report and the exercises of
every done analysis that has none (analyses finished before the feature, or whose report
failed), and the opening explorer's rows of every game (``--openings``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.db.models import F, Prefetch

from games import openings, reports, selectors
from games.models import Game, GameAnalysis, OpeningMove, Turn


class Command(BaseCommand):
    help = (
        "Make the missing game reports and exercises of done analyses, and (with --openings) "
        "the opening explorer's rows of every game."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--ms",
            type=float,
            default=None,
            help="Time to judge each exercise's plays (default: the analysis' time per ply).",
        )
        parser.add_argument(
            "--openings", action="store_true", help="Rebuild the opening explorer's rows."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        missing = GameAnalysis.objects.filter(status=GameAnalysis.Status.DONE).exclude(
            report__token=F("token")
        )
        done = 0
        for row in missing.only("pk", "token"):
            if reports.derive(row.pk, row.token, ms_per_ply=options["ms"]) == "done":
                done += 1
        self.stdout.write(f"{done} report(s) made.")
        if options["openings"]:
            n = 0
            games = Game.objects.select_related("board__white", "board__black").prefetch_related(
                Prefetch("turns", queryset=Turn.objects.order_by("ply"))
            )
            with transaction.atomic():
                OpeningMove.objects.all().delete()
                batch = []
                for game in games.iterator(chunk_size=500):
                    turns = list(game.turns.all())
                    if turns:
                        batch.append((game, selectors.sheet(game, turns)))
                    if len(batch) >= 500:
                        openings.games_recorded(batch)
                        n += len(batch)
                        batch = []
                openings.games_recorded(batch)
                n += len(batch)
            self.stdout.write(f"The opening explorer knows {n} game(s) with turns.")
