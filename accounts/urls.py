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
    path("settings/push/", views.push_subscribe, name="push_subscribe"),
    path("settings/push/off/", views.push_unsubscribe, name="push_unsubscribe"),
    path("settings/data/", views.account_data, name="account_data"),
    path("settings/delete/", views.account_delete, name="account_delete"),
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/read/", views.notifications_read, name="notifications_read"),
    path("notifications/seen/", views.notifications_seen, name="notifications_seen"),
    path("notifications/<int:pk>/", views.notification_open, name="notification_open"),
    path("healthz", views.healthz, name="healthz"),
]
