from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from . import registration  # it uses the models, importable only once the apps are loaded

        registration.register(self)
