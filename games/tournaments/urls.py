from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.create, name="create"),
    path("how-it-works/", views.howto, name="howto"),
    path("<int:tournament_id>/", views.event, name="event"),
    path("<int:tournament_id>/standings/", views.full_standings, name="standings"),
    path("<int:tournament_id>/join/", views.join, name="join"),
    path("<int:tournament_id>/leave/", views.leave, name="leave"),
    path("<int:tournament_id>/check-in/", views.check_in, name="check_in"),
    path("<int:tournament_id>/edit/", views.edit, name="edit"),
    path("<int:tournament_id>/direct/<str:action>/", views.direct, name="direct"),
    path("<int:tournament_id>/remove/", views.remove, name="remove"),
    path("pairings/<int:pairing_id>/correct/", views.correct, name="correct"),
]
