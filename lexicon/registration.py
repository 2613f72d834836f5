"""What lexicon registers with the other parts once the apps are loaded
(``LexiconConfig.ready``): its part of a player's data (their dictionary requests) and
the offensive-words preference."""

from __future__ import annotations

from django import forms

from accounts import player_data as accounts_data
from accounts import preferences

from . import player_data, selectors, services


def register(app_config) -> None:
    accounts_data.register("dictionary_requests", export=player_data.export_player, forget=player_data.forget_player)
    preferences.register(
        preferences.Preference(
            name="offensive_words",
            field=_offensive_words_field,
            initial=selectors.offensive_words_shown,
            save=lambda user, show: services.offensive_words_show(user=user, show=show),
        )
    )


def _offensive_words_field():
    return forms.BooleanField(
        required=False,
        label="Show offensive words",
        help_text="List offensive words among the words nobody found. Bots never play them either way.",
    )
