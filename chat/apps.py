from django.apps import AppConfig


class ChatConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"

    def ready(self) -> None:
        from . import registration  # it uses the models, importable only once the apps are loaded

        registration.register(self)
