from django.urls import path

from . import views

app_name = "api"

urlpatterns = [
    path("players/<str:username>", views.player, name="player"),
    path("players/<str:username>/games", views.player_games, name="player_games"),
    path("leaderboards/<str:pool>", views.leaderboard, name="leaderboard"),
]
