"""Websocket routes: the site's own sockets, then each game kind's (``games.registry``)."""

from django.urls import path

from accounts import consumers as account_consumers
from games import registry
from games.tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/presence/", account_consumers.PresenceConsumer.as_asgi()),
    *(route for _, routes in registry.hooks("websocket_routes") for route in routes()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
