from django.urls import path

from . import daily_views, ranked_views, views

app_name = "hunts"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.table_create, name="create"),
    path("ranked/<slug:pool>/join/", ranked_views.queue_join, name="queue_join"),
    path("ranked/cancel/", ranked_views.queue_cancel, name="queue_cancel"),
    path("ranked/bot/", ranked_views.queue_bot, name="queue_bot"),
    path("daily/", daily_views.daily_today, name="daily"),
    path("daily/<slug:pool>/play/", daily_views.daily_play, name="daily_play"),
    path("daily/<str:day>/<slug:pool>/", daily_views.daily_board, name="daily_board"),
    path("<int:table_id>/", views.table, name="table"),
    path("<int:table_id>/join/", views.table_join, name="join"),
    path("<int:table_id>/leave/", views.table_leave, name="leave"),
    path("<int:table_id>/bot/", views.table_add_bot, name="add_bot"),
    path("<int:table_id>/start/", views.round_start, name="start"),
    path("rounds/<int:round_id>/", views.round_detail, name="round"),
]
