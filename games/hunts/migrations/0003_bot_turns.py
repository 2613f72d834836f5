from django.db import migrations, models


class Migration(migrations.Migration):
    """A bot's due turn and when, stored on its seat in the round (services/bots.py)."""

    dependencies = [
        ("hunts", "0002_ranked_queue_and_daily_challenge"),
    ]

    operations = [
        migrations.AddField(
            model_name="roundplayer",
            name="bot_turn",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="roundplayer",
            name="bot_next_turn_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="roundplayer",
            index=models.Index(condition=models.Q(("bot_next_turn_at__isnull", False)),
                               fields=["bot_next_turn_at"], name="hunt_bot_turn_due"),
        ),
    ]
