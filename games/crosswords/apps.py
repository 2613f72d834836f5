from django.apps import AppConfig

from games import registry


class CrosswordsConfig(AppConfig):
    name = "games.crosswords"
    label = "crosswords"
    verbose_name = "Word Grid and Wordgame"

    def ready(self) -> None:
        from .kind import KIND, analyse_when_finished  # its hooks use the models, importable only once apps are loaded

        registry.register(KIND)
        registry.on_game_finished(analyse_when_finished)
