from django.apps import AppConfig

from games import registry

from . import checks  # noqa: F401  registers the start-up checks (it loads no models)


class HuntsConfig(AppConfig):
    name = "games.hunts"
    label = "hunts"
    verbose_name = "Live word hunts"

    def ready(self) -> None:
        from . import kind  # its hooks use the models, importable only once the apps are loaded

        registry.register(kind.KIND)
