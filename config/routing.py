"""Websocket routes; each app adds its consumers here."""

from django.urls import path

from accounts import consumers as account_consumers
from games.crosswords import consumers as crossword_consumers
from games.hunts.routing import websocket_urlpatterns as hunt_routes
from games.tow import consumers as tow_consumers

websocket_urlpatterns = [
    path("ws/presence/", account_consumers.PresenceConsumer.as_asgi()),
    *hunt_routes,
    path("ws/games/<int:game_id>/", crossword_consumers.GameConsumer.as_asgi()),
    path("ws/tow/<int:game_id>/", tow_consumers.GameConsumer.as_asgi()),
]
