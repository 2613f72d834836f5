from django.urls import include, path

from . import (
    converters,  # noqa: F401 (registers <username:...>)
    views,
)

urlpatterns = [
    path("signup/", views.sign_up, name="signup"),
    path("signup/confirm/<uidb64>/<token>/", views.sign_up_confirm, name="signup_confirm"),
    path("accounts/password_reset/", views.password_reset, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("u/<username:username>/", views.profile, name="profile"),
    path("settings/", views.account_settings, name="settings"),
    path("settings/email/<str:token>/", views.email_change_confirm, name="email_change_confirm"),
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/read/", views.notifications_read, name="notifications_read"),
    path("notifications/<int:pk>/", views.notification_open, name="notification_open"),
    path("healthz", views.healthz, name="healthz"),
]
