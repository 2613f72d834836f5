from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce


def due_from_last_move(apps, schema_editor):
    """A game in play is taken as due from its last move (or its start), which is what
    the bots' sweep went by before the due time was stored; the sweep still acts only
    where a bot is due."""
    Game = apps.get_model("tow", "Game")
    Move = apps.get_model("tow", "Move")
    last = Move.objects.filter(game=OuterRef("pk")).order_by("-number").values("created_at")[:1]
    Game.objects.filter(status="active").update(bot_due_at=Coalesce(Subquery(last), "started_at"))


class Migration(migrations.Migration):
    dependencies = [("tow", "0001_initial")]

    operations = [
        migrations.AddField(model_name="game", name="bot_due_at", field=models.DateTimeField(blank=True, null=True)),
        migrations.RunPython(due_from_last_move, migrations.RunPython.noop),
    ]
