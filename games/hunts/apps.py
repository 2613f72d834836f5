from django.apps import AppConfig


class HuntsConfig(AppConfig):
    name = "games.hunts"
    label = "hunts"
    verbose_name = "Live word hunts"
