from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.sign_up, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("u/<str:username>/", views.profile, name="profile"),
    path("settings/", views.account_settings, name="settings"),
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/read/", views.notifications_read, name="notifications_read"),
    path("healthz", views.healthz, name="healthz"),
]
