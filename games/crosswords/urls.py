from django.urls import path

from games.urls import game_paths

from . import views

app_name = "crosswords"
urlpatterns = [
    path("new/", views.new_game, name="new"),
    path("bot/", views.play_bot, name="play_bot"),
    *game_paths(views),
    path("<int:pk>/gcg/", views.gcg, name="gcg"),
]
