"""The five shipped lexicons, at version 1 (``load_lexicons`` keeps names up to date)."""

from django.db import migrations


def create_rows(apps, schema_editor):
    from lexicon.wordlists import CATALOGUE

    Lexicon = apps.get_model("lexicon", "Lexicon")
    for position, (code, name, description, accepts) in enumerate(CATALOGUE):
        Lexicon.objects.get_or_create(
            code=code,
            defaults={"name": name, "description": description,
                      "accepts_requests": accepts, "position": position},
        )


class Migration(migrations.Migration):
    dependencies = [("lexicon", "0001_initial")]
    operations = [migrations.RunPython(create_rows, migrations.RunPython.noop)]
