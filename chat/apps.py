from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ChatConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"

    def ready(self):
        post_migrate.connect(_moderators_group, sender=self)


def _moderators_group(sender, **kwargs):
    """After ``migrate`` (the permissions exist by then): the chat moderators' group."""
    from .services import ensure_moderators_group

    ensure_moderators_group()
