from django.urls import path

from lexicon import views

app_name = "lexicon"

urlpatterns = [
    path("", views.check, name="check"),
    path("request/", views.request_change, name="request"),
    path("requests/", views.my_requests, name="my_requests"),
    path("changes/", views.changes, name="changes"),
    path("define/", views.define, name="define"),
]
