from django.db import migrations, models
from django.db.models.functions import Now


def due_now(apps, schema_editor):
    # Games already waiting on a bot get a due time, so the sweep still finds them.
    Game = apps.get_model("crosswords", "Game")
    Game.objects.filter(status="active").update(bot_due_at=Now())


class Migration(migrations.Migration):
    dependencies = [
        ("crosswords", "0004_bots_and_analysis"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="bot_due_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(due_now, migrations.RunPython.noop),
    ]
