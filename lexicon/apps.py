from django.apps import AppConfig

from lexicon import wordlists


class LexiconConfig(AppConfig):
    name = "lexicon"
    verbose_name = "Lexicons"

    def ready(self) -> None:
        # Every process (web, worker, management command) refuses to start on a
        # missing or corrupt word list, naming the file, rather than fail mid-game.
        wordlists.check_files()
        from . import registration  # it uses the models, importable only once the apps are loaded

        registration.register(self)
