"""Websocket routes; each app adds its consumers here."""

from django.urls import path

from accounts import consumers as account_consumers

websocket_urlpatterns = [
    path("ws/presence/", account_consumers.PresenceConsumer.as_asgi()),
]
