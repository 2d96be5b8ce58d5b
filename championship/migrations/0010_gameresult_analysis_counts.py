from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("championship", "0009_tournament_report_header")]

    operations = [
        migrations.AddField(
            model_name="gameresult",
            name=f"analysis_{kind}_{side}",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        )
        for kind in ("mistakes", "blunders")
        for side in ("white", "black")
    ]
