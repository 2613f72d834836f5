from django.apps import AppConfig


class HuntsConfig(AppConfig):
    name = "games.hunts"
    label = "hunts"
    verbose_name = "Live word hunts"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the start-up checks)
