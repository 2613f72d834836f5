"""Print each lexicon's version, size, load time and request counts."""

import time

from django.core.management.base import BaseCommand
from django.db.models import Count, Q

from lexicon import services
from lexicon.models import Lexicon, Status


class Command(BaseCommand):
    help = "Show word counts, versions, load times and request counts of every lexicon."

    def handle(self, *args, **options):
        rows = Lexicon.objects.annotate(
            change_count=Count("changes", distinct=True),
            open_count=Count("requests", filter=Q(requests__status=Status.OPEN), distinct=True),
        ).order_by("position", "code")
        self.stdout.write(
            f"{'code':9} {'version':>7} {'words':>7} {'nodes':>6} {'edges':>7}"
            f" {'load ms':>8} {'changes':>7} {'open':>5}"
        )
        for row in rows:
            services.forget_loaded()
            start = time.perf_counter()
            lexicon = services.get_lexicon(row.code, row.current_version)
            ms = 1000 * (time.perf_counter() - start)
            self.stdout.write(
                f"{row.code:9} {row.current_version:7} {len(lexicon):7}"
                f" {lexicon.node_count:6} {lexicon.edge_count:7} {ms:8.1f}"
                f" {row.change_count:7} {row.open_count:5}"
            )
        if not rows:
            self.stdout.write("No lexicon rows yet: run manage.py load_lexicons.")
        self.stdout.write(f"precompiled forms: {services.cache_dir()}")
