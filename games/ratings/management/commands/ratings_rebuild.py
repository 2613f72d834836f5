"""``manage.py ratings_rebuild [--pool P]``: replay rated results to recompute ratings."""

from django.core.management.base import BaseCommand, CommandError

from games.ratings import services
from games.ratings.pools import pool_codes


class Command(BaseCommand):
    help = "Recompute ratings by replaying every rated result in finishing order."

    def add_arguments(self, parser):
        parser.add_argument(
            "--pool",
            action="append",
            choices=pool_codes(),
            help="Only this pool (repeatable); every pool if none is given.",
        )

    def handle(self, *args, pool=None, **options):
        pools = pool or pool_codes()
        try:
            replayed = services.ratings_rebuild(pools=pools)
        except Exception as error:  # shown as a command error rather than a traceback
            raise CommandError(f"Rebuild failed, nothing changed: {error}") from error
        for code, count in replayed.items():
            self.stdout.write(f"{code}: {count} results replayed")
