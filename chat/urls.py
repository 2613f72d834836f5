from django.urls import path

from accounts import converters  # noqa: F401 (registers <username:...>)

from . import views

app_name = "chat"
urlpatterns = [
    path("muted/", views.muted, name="muted"),
    path("mute/<username:username>/", views.mute, name="mute"),
    path("unmute/<username:username>/", views.unmute, name="unmute"),
    path("report/<int:message_id>/", views.report, name="report"),
]
