"""What chat registers with the other parts once the apps are loaded (``ChatConfig.ready``):
the moderators' group after ``migrate``, its part of a player's data, the chat preference."""

from __future__ import annotations

from django import forms
from django.db.models.signals import post_migrate

from accounts import player_data as accounts_data
from accounts import preferences

from . import player_data, selectors, services


def register(app_config) -> None:
    # After ``migrate`` (the permissions exist by then): the chat moderators' group.
    post_migrate.connect(
        lambda sender, **kwargs: services.ensure_moderators_group(),
        sender=app_config,
        weak=False,
        dispatch_uid="chat.moderators_group",
    )
    accounts_data.register("chat", export=player_data.export_player, forget=player_data.forget_player)
    preferences.register(
        preferences.Preference(
            name="chat",
            field=_chat_field,
            initial=selectors.chat_enabled,
            save=lambda user, enabled: services.chat_enable(user=user, enabled=enabled),
        )
    )


def _chat_field():
    return forms.BooleanField(
        required=False, label="Chat", help_text="Show chat at game tables and let me write in it."
    )
