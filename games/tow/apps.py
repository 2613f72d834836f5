from django.apps import AppConfig

from games import registry


class TowConfig(AppConfig):
    name = "games.tow"
    label = "tow"
    verbose_name = "TOW"

    def ready(self) -> None:
        from .kind import KIND  # its hooks use the models, importable only once apps are loaded

        registry.register(KIND)
