from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "games.ratings"
    label = "ratings"
    verbose_name = "Ratings and leaderboards"

    def ready(self) -> None:
        from . import registration  # it uses the models, importable only once the apps are loaded

        registration.register(self)
