"""An analysis is keyed by the moves it analysed, not by the game's version (issue 21): the
players' confirmations, a dispute and the clock change the version but not the moves.

Every change of a sheet's moves deleted the game's analysis in the same transaction, so an
analysis still stored belongs to the game's moves now (only its version may have moved on
since: a confirmation made the page hide it). Each row gets the key of those moves; a done
analysis whose plies do not match them (a sheet edited some other way) is deleted, and its
counts on the pairing's result with it."""

import hashlib

from django.db import migrations, models

FIELDS = ("mistakes_white", "blunders_white", "mistakes_black", "blunders_black")


def moves_key(texts):
    # As games.analysis.moves_key (frozen here: a migration does not follow later code).
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()


def key_by_moves(apps, schema_editor):
    GameAnalysis = apps.get_model("games", "GameAnalysis")
    Turn = apps.get_model("games", "Turn")
    GameResult = apps.get_model("championship", "GameResult")
    for row in GameAnalysis.objects.select_related("game").iterator():
        texts = list(
            Turn.objects.filter(game_id=row.game_id).order_by("ply").values_list("text", flat=True)
        )
        played = [p.get("played") for p in row.plies or [] if isinstance(p, dict)]
        if row.status == "done" and played != texts:
            game = row.game
            if game.board_id is not None:
                GameResult.objects.filter(board_id=game.board_id, number=game.number).update(
                    **{f"analysis_{name}": None for name in FIELDS}
                )
            row.delete()
            continue
        GameAnalysis.objects.filter(pk=row.pk).update(moves=moves_key(texts))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_tablet_confirmations"),
        ("championship", "0010_gameresult_analysis_counts"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameanalysis",
            name="moves",
            field=models.CharField(default="", max_length=64),
            preserve_default=False,
        ),
        migrations.RunPython(key_by_moves, migrations.RunPython.noop),
        # A default first, so that going back can add the column again to stored rows.
        migrations.AlterField(
            model_name="gameanalysis", name="version", field=models.PositiveIntegerField(default=0)
        ),
        migrations.RemoveField(model_name="gameanalysis", name="version"),
    ]
