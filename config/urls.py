from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views

from . import howto, metrics, pwa

urlpatterns = [
    path("", account_views.home, name="home"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("favicon.ico", pwa.favicon, name="favicon"),
    path("metrics", metrics.view, name="metrics"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path("how-to-play/", howto.index, name="howto"),
    path("how-to-play/<slug:game>/", howto.game, name="howto_game"),
    path("admin/", admin.site.urls),
    path("hunts/", include("games.hunts.urls")),
    path("words/", include("lexicon.urls")),
    # My games lists every kind of game; the crossword pages live under it.
    path("games/", account_views.my_games, name="my_games"),
    path("games/", include("games.crosswords.urls")),
    path("tow/", include("games.tow.urls")),
    path("ratings/", include("games.ratings.urls")),
    path("tournaments/", include("games.tournaments.urls")),
    path("api/", include("api.urls")),
    path("chat/", include("chat.urls")),
    path("friends/", include("friends.urls")),
    path("", include("accounts.urls")),
]
