"""games 0006: analyses stored under the game's version get the key of the game's moves. A
done analysis of the moves the sheet has (its version moved on by a confirmation, which hid
it) is shown again; one whose plies are not the sheet's is deleted with its counts."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games import analysis
from games.selectors import replay

BEFORE = [("games", "0005_tablet_confirmations")]
TEXTS = ["4:5 24/20 13/8", "1:4 8/4 6/5*"]


@pytest.mark.django_db(transaction=True)
def test_stored_analyses_are_keyed_by_the_moves_they_analysed() -> None:
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        Game = old.get_model("games", "Game")
        Turn = old.get_model("games", "Turn")
        GameAnalysis = old.get_model("games", "GameAnalysis")
        # The championship's tables stay as they are: its rows through today's models.
        from championship.models import Board, Entrant, GameResult, Round, Tournament

        t = Tournament.objects.create(
            name="M", slug="m", starts_on="2027-03-14", ends_on="2027-03-14"
        )
        a, b = (Entrant.objects.create(tournament=t, name=n) for n in "AB")
        rnd = Round.objects.create(tournament=t, number=1, status="published")
        boards = [Board.objects.create(round=rnd, number=n, white=a, black=b) for n in (1, 2, 3)]
        counts = {
            "analysis_mistakes_white": 1,
            "analysis_blunders_white": 2,
            "analysis_mistakes_black": 3,
            "analysis_blunders_black": 0,
        }
        ids = {}
        for name, board, played, status, version in (
            ("kept", boards[0], TEXTS, "done", 3),  # confirmed since: version 5
            ("edited", boards[1], ["2:3 13/11 13/10", TEXTS[1]], "done", 5),
            ("queued", boards[2], [], "queued", 4),
        ):
            game = Game.objects.create(
                board_id=board.pk,
                number=1,
                version=5,
                termination="resign",
                termination_side="black",
            )
            Turn.objects.bulk_create(
                Turn(game=game, ply=i, text=text) for i, text in enumerate(TEXTS, 1)
            )
            GameResult.objects.create(board=board, number=1, result="1-0", **counts)
            GameAnalysis.objects.create(
                game=game,
                version=version,
                token=name,
                status=status,
                plies=[{"ply": i, "played": text} for i, text in enumerate(played, 1)],
                requested_at=timezone.now(),
                **{k.removeprefix("analysis_"): v for k, v in counts.items()},
            )
            ids[name] = game.pk
    finally:
        executor.loader.build_graph()
        executor.migrate(latest)
    new = executor.loader.project_state(latest).apps
    GameAnalysis = new.get_model("games", "GameAnalysis")
    GameResult = new.get_model("championship", "GameResult")
    from games.models import Game as LiveGame

    key = analysis.moves_key(replay(LiveGame.objects.get(pk=ids["kept"])))
    rows = {row.token: row for row in GameAnalysis.objects.all()}
    assert set(rows) == {"kept", "queued"}
    assert rows["kept"].moves == key and rows["queued"].moves == key
    edited = GameResult.objects.get(board__number=2)
    assert edited.analysis_mistakes_white is None and edited.analysis_blunders_black is None
    assert GameResult.objects.get(board__number=1).analysis_mistakes_white == 1
    # The analysis the confirmation had hidden is shown again.
    kept = LiveGame.objects.get(pk=ids["kept"])
    shown = analysis.shown(kept, replay(kept))
    assert shown is not None and shown.token == "kept"
