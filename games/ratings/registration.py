"""What ratings registers with the other parts once the apps are loaded
(``RatingsConfig.ready``): a finished game rated and summed up, its part of a player's data."""

from __future__ import annotations

from accounts import player_data as accounts_data
from games import registry

from . import player_data, services, summaries


def register(app_config) -> None:
    registry.on_game_finished(services.outcome_record)
    registry.on_game_finished(summaries.game_finished)
    accounts_data.register("ratings", export=player_data.export_player, forget=player_data.forget_player)
