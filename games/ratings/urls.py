from django.urls import path

from . import views

app_name = "ratings"

urlpatterns = [
    path("", views.leaderboard, name="leaderboards"),
    path("<slug:pool>/", views.leaderboard, name="leaderboard"),
    path("change/<slug:kind>/<int:object_id>/<int:user_id>/", views.change, name="change"),
]
