"""Create the lexicon rows and moderators group; precompile each current version, the
bots' clean copy of it (``offensive.clean_lexicon``) and the word frequencies
(idempotent)."""

import time

from django.core.management.base import BaseCommand, CommandError

from lexicon import frequency, offensive, services, wordlists


class Command(BaseCommand):
    help = "Create the lexicon rows and the moderators group if missing, and precompile each lexicon's current version."

    def handle(self, *args, **options):
        try:
            rows = services.ensure_lexicons()
            services.ensure_moderators_group()
            for row in rows:
                start = time.perf_counter()
                lexicon = services.get_lexicon(row.code, row.current_version)
                offensive.clean_lexicon(lexicon)  # so no bot's first turn on this machine builds it
                seconds = time.perf_counter() - start
                if options["verbosity"] >= 1:
                    self.stdout.write(
                        f"{row.code:9} v{row.current_version:<4} {len(lexicon):7} words  ({seconds:.2f} s)"
                    )
        except wordlists.WordListError as error:
            raise CommandError(str(error)) from None
        start = time.perf_counter()
        path = frequency.ensure_table()
        if options["verbosity"] >= 1:
            self.stdout.write(f"frequencies {path.name}  ({time.perf_counter() - start:.2f} s)")
