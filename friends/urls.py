from django.urls import path

from accounts import converters  # noqa: F401 (registers <username:...>)

from . import views

app_name = "friends"
urlpatterns = [
    path("", views.friends, name="list"),
    path("follow/<username:username>/", views.follow, name="follow"),
    path("unfollow/<username:username>/", views.unfollow, name="unfollow"),
    path("challenge/<username:username>/", views.challenge, name="challenge"),
    path("invitations/<int:pk>/", views.invitation, name="invitation"),
    path("invitations/<int:pk>/accept/", views.invitation_accept, name="invitation_accept"),
    path("invitations/<int:pk>/decline/", views.invitation_decline, name="invitation_decline"),
]
