"""The move of results from boards to game results (championship 0006, games 0002) on a database
filled by ``seed_demo`` as it was before the move (``data/seed_demo_before_game_results.json.gz``,
made by that code's ``seed_demo`` and ``dumpdata``), with result history and a two-game pairing
added: every result, termination, confirmation, version and history line is kept, and each game
result knows its sheet."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Count

DATA = Path(__file__).parent / "data" / "seed_demo_before_game_results.json.gz"
BEFORE = [
    ("championship", "0005_result_change_longer"),
    ("games", "0001_games_and_turns"),
    ("registrations", "0003_outbox_sending_message_id"),
]
ORDER = [
    "auth.user",
    "championship.tournament",
    "registrations.registration",
    "registrations.masterclasssession",
    "registrations.masterclasssignup",
    "championship.entrant",
    "championship.round",
    "championship.board",
    "games.game",
    "games.turn",
]


def _load(apps: Any, rows: list[dict[str, Any]]) -> None:
    """Insert dumped rows through the historical models (foreign keys by id)."""
    for label in ORDER:
        model = apps.get_model(label)
        objects = []
        for row in rows:
            if row["model"] != label:
                continue
            fields = {}
            for name, value in row["fields"].items():
                field = model._meta.get_field(name)
                if field.many_to_many:
                    continue
                fields[field.attname] = value
            objects.append(model(pk=row["pk"], **fields))
        model.objects.bulk_create(objects)


@pytest.mark.django_db(transaction=True)
def test_results_move_to_game_results_with_nothing_lost() -> None:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        _load(old, json.loads(gzip.decompress(DATA.read_bytes())))
        Board = old.get_model("championship", "Board")
        Tournament = old.get_model("championship", "Tournament")
        ResultChange = old.get_model("championship", "ResultChange")
        # History lines, and a pairing of two games, as the old code wrote them.
        demo = Tournament.objects.get(slug="demo-swiss")
        boards = list(Board.objects.filter(round__tournament=demo).exclude(black=None))
        assert len(boards) > 40
        ResultChange.objects.create(board=boards[0], action="enter", old="", new="1-0 home")
        Tournament.objects.filter(pk=demo.pk).update(games_per_pairing=2)
        Board.objects.filter(pk=boards[1].pk).update(
            result2="1/2-1/2", termination2="cards", confirmed=False, version=7
        )
        two = Board.objects.get(pk=boards[1].pk)
        ResultChange.objects.create(
            board=two,
            action="correct",
            old=f"{two.result} {two.termination}; ",
            new=f"{two.result} {two.termination}; 1/2-1/2 cards",
        )
        expected = {
            (b.pk, 1): (b.result, b.termination, b.confirmed, b.version)
            for b in Board.objects.exclude(black=None)
        }
        expected.update(
            {
                (b.pk, 2): (b.result2, b.termination2, b.confirmed, b.version)
                for b in Board.objects.exclude(black=None).filter(round__tournament=demo)
            }
        )
        finished = {
            (game.board_id, game.number)
            for game in old.get_model("games", "Game").objects.exclude(board=None)
        }
        plies = {
            game.pk: game.plies
            for game in old.get_model("games", "Game")
            .objects.exclude(board=None)
            .annotate(plies=Count("turns"))
        }
    finally:
        executor.loader.build_graph()
        executor.migrate(latest)
    new = executor.loader.project_state(latest).apps
    GameResult = new.get_model("championship", "GameResult")
    Change = new.get_model("championship", "ResultChange")
    got = {
        (g.board_id, g.number): (g.result, g.termination, g.confirmed, g.version)
        for g in GameResult.objects.all()
    }
    assert got == expected
    # The history: one line on game 1; the two-game line only on the game it changed.
    lines = {
        (c.game_result.board_id, c.game_result.number, c.old, c.new)
        for c in Change.objects.select_related("game_result")
    }
    assert lines == {
        (boards[0].pk, 1, "", "1-0 home"),
        (boards[1].pk, 2, "", "1/2-1/2 cards"),
    }
    # Every game of a pairing knows its sheet; results the sheets decided say so.
    Game = new.get_model("games", "Game")
    for game in Game.objects.exclude(board=None):
        facts = GameResult.objects.get(board_id=game.board_id, number=game.number)
        assert facts.has_sheet and facts.sheet_plies == plies[game.pk]
        if facts.sheet_result:
            assert (facts.result, facts.termination) == (
                facts.sheet_result,
                facts.sheet_termination,
            )
            assert facts.source == "sheet"
    assert {(g.board_id, g.number) for g in GameResult.objects.filter(has_sheet=True)} == finished
