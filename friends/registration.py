"""What friends registers with the other parts once the apps are loaded
(``FriendsConfig.ready``): its part of a player's data."""

from __future__ import annotations

from accounts import player_data as accounts_data

from . import player_data


def register(app_config) -> None:
    accounts_data.register("friends", export=player_data.export_player, forget=player_data.forget_player)
