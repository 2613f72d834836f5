"""Websocket routes of the hunts, included by config/routing.py."""

from django.urls import path

from . import consumers, queue_consumer

websocket_urlpatterns = [
    path("ws/hunts/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/hunts/queue/", queue_consumer.QueueConsumer.as_asgi()),
    path("ws/hunts/<int:table_id>/", consumers.TableConsumer.as_asgi()),
]
