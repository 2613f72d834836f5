from django.apps import AppConfig


class FriendsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "friends"

    def ready(self) -> None:
        from . import registration  # it uses the models, importable only once the apps are loaded

        registration.register(self)
