from django.urls import path, re_path

from accounts import converters  # noqa: F401 (registers <username:...>)

from . import views

app_name = "api"

urlpatterns = [
    path("players/<username:username>", views.player, name="player"),
    path("players/<username:username>/games", views.player_games, name="player_games"),
    path("leaderboards/<str:pool>", views.leaderboard, name="leaderboard"),
    path("games/<str:kind>/<int:game_id>.<str:extension>", views.game_record, name="game_record"),
    path("games/<str:kind>/<int:game_id>/clock", views.game_clock, name="game_clock"),
    path("tournaments", views.tournaments, name="tournaments"),
    path("tournaments/<int:tournament_id>", views.tournament, name="tournament"),
    # Any other address under /api/ (a name no player can have, a NUL byte, a typo)
    # answers a JSON 404 too, not the site's HTML page.
    re_path(r"", views.not_found, name="not_found"),
]
