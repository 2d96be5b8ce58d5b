"""Tell each pairing's game result what its move sheet says (the championship keeps it now:
``GameResult.has_sheet`` and ``sheet_*``), and mark the results that came from a sheet.

The sheets are replayed through the rules engine, a pure library whose rules do not change;
a sheet it cannot replay (none should exist) is marked as a sheet with its turns counted."""

from django.db import migrations


def forward(apps, schema_editor):  # type: ignore[no-untyped-def]
    from games.engine import EngineError
    from games.engine.game import Game as EngineGame

    Game = apps.get_model("games", "Game")
    Turn = apps.get_model("games", "Turn")
    GameResult = apps.get_model("championship", "GameResult")
    for game in Game.objects.exclude(board=None).order_by("pk"):
        texts = list(
            Turn.objects.filter(game=game).order_by("ply").values_list("text", flat=True)
        )
        outcome = None
        eg = EngineGame()
        try:
            for text in texts:
                eg.play(text)
            if game.termination and eg.outcome is None:
                eg.terminate(game.termination, game.termination_side or None)
            if eg.outcome is not None:
                outcome = (eg.outcome.result, eg.outcome.termination)
        except EngineError:
            outcome = None
        result, _created = GameResult.objects.get_or_create(
            board_id=game.board_id, number=game.number
        )
        result.has_sheet = True
        result.sheet_plies = len(texts)
        result.sheet_result, result.sheet_termination = outcome or ("", "")
        if outcome is not None and (result.result, result.termination) == outcome:
            result.source = "sheet"  # the board's result followed from this sheet
        result.save()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_games_and_turns"),
        ("championship", "0006_game_results"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
