"""Copy each result's pool and finishing time onto its players (read by player histories)."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery

POOL_CHOICES = [("rampage", "Word Rampage"), ("classic4", "Classic 4×4"), ("classic5", "Classic 5×5"),
                ("wordgrid", "Word Grid"), ("wordgame", "Wordgame"), ("tow", "TOW")]


def copy_from_results(apps, schema_editor):
    RatedPlayer = apps.get_model("ratings", "RatedPlayer")
    RatedResult = apps.get_model("ratings", "RatedResult")
    result = RatedResult.objects.filter(pk=OuterRef("result_id"))
    RatedPlayer.objects.update(pool=Subquery(result.values("pool")[:1]),
                               finished_at=Subquery(result.values("finished_at")[:1]))


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratedplayer",
            name="pool",
            field=models.CharField(choices=POOL_CHOICES, max_length=10, null=True),
        ),
        migrations.AddField(
            model_name="ratedplayer",
            name="finished_at",
            field=models.DateTimeField(null=True),
        ),
        migrations.RunPython(copy_from_results, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="ratedplayer",
            name="pool",
            field=models.CharField(choices=POOL_CHOICES, max_length=10),
        ),
        migrations.AlterField(
            model_name="ratedplayer",
            name="finished_at",
            field=models.DateTimeField(),
        ),
        migrations.AddIndex(
            model_name="ratedplayer",
            index=models.Index(fields=["user", "pool", "result"], name="ratings_rat_user_id_pool_idx"),
        ),
    ]
