"""One home for each game's result: ``GameResult`` rows (one per game of a pairing) take the
board's result columns, and the result history moves from boards to game results. Nothing is
lost: every result, termination, confirmation and version is copied, and each history line of
a two-game pairing ("1-0 home; 1/2-1/2 cards") becomes a line per game that changed."""

import django.db.models.deletion
from django.db import migrations, models

RESULTS = [("1-0", "1-0"), ("0-1", "0-1"), ("1/2-1/2", "½-½")]
TERMINATIONS = [
    ("home", "home"),
    ("blocked", "blocked"),
    ("time", "time"),
    ("cards", "cards"),
    ("resign", "resign"),
    ("agreement", "agreement"),
    ("forfeit", "forfeit"),
]
SOURCES = [("organiser", "entered by an organiser"), ("sheet", "from the move sheet")]


def _games(text: str, two: bool) -> list[str]:
    """A board's history text split by game ("" for a game it did not mention)."""
    parts = [p.strip() for p in text.split(";")] if text else []
    parts += [""] * (2 - len(parts))
    return parts[:2] if two else [text.strip()]


def forward(apps, schema_editor):  # type: ignore[no-untyped-def]
    Board = apps.get_model("championship", "Board")
    GameResult = apps.get_model("championship", "GameResult")
    ResultChange = apps.get_model("championship", "ResultChange")
    made = []
    for board in Board.objects.exclude(black=None).select_related("round__tournament"):
        two = board.round.tournament.games_per_pairing == 2
        games = [(1, board.result, board.termination)]
        if two:
            games.append((2, board.result2, board.termination2))
        for number, result, termination in games:
            made.append(
                GameResult(
                    board=board,
                    number=number,
                    result=result,
                    termination=termination if result else "",
                    source="organiser" if result else "",
                    confirmed=board.confirmed,
                    version=board.version,
                )
            )
    GameResult.objects.bulk_create(made, batch_size=1000)
    by_board = {}
    for gr in GameResult.objects.all():
        by_board.setdefault(gr.board_id, {})[gr.number] = gr
    for change in ResultChange.objects.select_related("board__round__tournament").order_by("pk"):
        games = by_board.get(change.board_id)
        if not games:
            change.delete()  # a bye never had a result: no such history exists
            continue
        two = change.board.round.tournament.games_per_pairing == 2
        olds, news = _games(change.old, two), _games(change.new, two)
        first = True
        for number in sorted(games):
            old, new = olds[number - 1], news[number - 1]
            if two and old == new and change.action != "confirm":
                continue  # this game was not changed by that entry
            if first:
                change.game_result = games[number]
                change.old, change.new = old, new
                change.save(update_fields=["game_result", "old", "new"])
                first = False
            else:
                at = change.at
                extra = ResultChange.objects.create(
                    game_result=games[number],
                    user_id=change.user_id,
                    action=change.action,
                    old=old,
                    new=new,
                )
                ResultChange.objects.filter(pk=extra.pk).update(at=at)
        if first:  # nothing told the games apart: keep the line on game 1
            change.game_result = games[min(games)]
            change.save(update_fields=["game_result"])


def backward(apps, schema_editor):  # type: ignore[no-untyped-def]
    Board = apps.get_model("championship", "Board")
    GameResult = apps.get_model("championship", "GameResult")
    ResultChange = apps.get_model("championship", "ResultChange")
    for gr in GameResult.objects.all():
        fields = (
            {"result": gr.result, "termination": gr.termination}
            if gr.number == 1
            else {"result2": gr.result, "termination2": gr.termination}
        )
        Board.objects.filter(pk=gr.board_id).update(
            confirmed=gr.confirmed, version=gr.version, **fields
        )
    for change in ResultChange.objects.select_related("game_result"):
        change.board_id = change.game_result.board_id
        change.save(update_fields=["board"])


class Migration(migrations.Migration):
    dependencies = [
        ("championship", "0005_result_change_longer"),
    ]

    operations = [
        migrations.CreateModel(
            name="GameResult",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField(default=1, verbose_name="game")),
                (
                    "result",
                    models.CharField(
                        blank=True, choices=RESULTS, max_length=7, verbose_name="result"
                    ),
                ),
                (
                    "termination",
                    models.CharField(
                        blank=True, choices=TERMINATIONS, max_length=10, verbose_name="termination"
                    ),
                ),
                (
                    "source",
                    models.CharField(
                        blank=True, choices=SOURCES, max_length=9, verbose_name="source"
                    ),
                ),
                ("confirmed", models.BooleanField(default=True, verbose_name="confirmed")),
                ("version", models.PositiveIntegerField(default=0)),
                ("has_sheet", models.BooleanField(default=False, verbose_name="has a move sheet")),
                ("sheet_plies", models.PositiveSmallIntegerField(default=0)),
                ("sheet_result", models.CharField(blank=True, choices=RESULTS, max_length=7)),
                (
                    "sheet_termination",
                    models.CharField(blank=True, choices=TERMINATIONS, max_length=10),
                ),
                (
                    "board",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="results",
                        to="championship.board",
                    ),
                ),
            ],
            options={
                "verbose_name": "game result",
                "verbose_name_plural": "game results",
                "ordering": ["board", "number"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("board", "number"), name="game_result_unique"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(number__in=[1, 2]), name="game_result_number_1_or_2"
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="resultchange",
            name="game_result",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="changes",
                to="championship.gameresult",
            ),
        ),
        migrations.AddField(
            model_name="resultchange",
            name="source",
            field=models.CharField(blank=True, choices=SOURCES, max_length=9),
        ),
        migrations.AlterField(
            model_name="resultchange",
            name="board",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="changes",
                to="championship.board",
            ),
        ),
        migrations.RunPython(forward, backward),
        migrations.RemoveField(model_name="resultchange", name="board"),
        migrations.AlterField(
            model_name="resultchange",
            name="game_result",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="changes",
                to="championship.gameresult",
            ),
        ),
        migrations.RemoveField(model_name="board", name="result"),
        migrations.RemoveField(model_name="board", name="termination"),
        migrations.RemoveField(model_name="board", name="result2"),
        migrations.RemoveField(model_name="board", name="termination2"),
        migrations.RemoveField(model_name="board", name="confirmed"),
        migrations.RemoveField(model_name="board", name="version"),
    ]
