from django.urls import path

from . import views

app_name = "crosswords"
urlpatterns = [
    path("new/", views.new_game, name="new"),
    path("bot/", views.play_bot, name="play_bot"),
    path("<int:pk>/", views.game, name="game"),
    path("<int:pk>/preview/", views.preview, name="preview"),
    path("<int:pk>/play/", views.play, name="play"),
    path("<int:pk>/swap/", views.swap, name="swap"),
    path("<int:pk>/pass/", views.pass_turn, name="pass"),
    path("<int:pk>/resign/", views.resign, name="resign"),
    path("<int:pk>/accept/", views.accept, name="accept"),
    path("<int:pk>/decline/", views.decline, name="decline"),
    path("<int:pk>/cancel/", views.cancel, name="cancel"),
    path("<int:pk>/rematch/", views.rematch, name="rematch"),
    path("<int:pk>/replay/", views.replay, name="replay"),
]
