from django.apps import AppConfig


class LexiconConfig(AppConfig):
    name = "lexicon"
    verbose_name = "Lexicons"

    def ready(self) -> None:
        from lexicon import wordlists

        # Every process (web, worker, management command) refuses to start on a
        # missing or corrupt word list, naming the file, rather than fail mid-game.
        wordlists.check_files()
