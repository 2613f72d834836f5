from django.apps import AppConfig


class CrosswordsConfig(AppConfig):
    name = "games.crosswords"
    label = "crosswords"
    verbose_name = "Word Grid and Wordgame"
