from django.apps import AppConfig


class TowConfig(AppConfig):
    name = "games.tow"
    label = "tow"
    verbose_name = "TOW"
