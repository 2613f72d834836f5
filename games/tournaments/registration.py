"""What tournaments registers with the other parts once the apps are loaded
(``TournamentsConfig.ready``): a finished game read into its event, its part of a
player's data."""

from __future__ import annotations

from accounts import player_data as accounts_data
from games import registry

from . import player_data, services


def register(app_config) -> None:
    registry.on_game_finished(services.game_finished)
    accounts_data.register("tournaments", export=player_data.export_player, forget=player_data.forget_player)
