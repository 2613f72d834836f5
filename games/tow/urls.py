from django.urls import path

from games.urls import game_paths

from . import views

app_name = "tow"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("<int:pk>/state/", views.state, name="state"),
    path("<int:pk>/vote/", views.vote, name="vote"),
    *game_paths(views),
]
