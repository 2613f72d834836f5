from django.urls import path

from accounts import converters  # noqa: F401 (registers <username:...>)

from . import views

app_name = "api"

urlpatterns = [
    path("players/<username:username>", views.player, name="player"),
    path("players/<username:username>/games", views.player_games, name="player_games"),
    path("leaderboards/<str:pool>", views.leaderboard, name="leaderboard"),
]
