from __future__ import annotations

from django.urls import path

from history import views

app_name = "history"
urlpatterns = [
    path("", views.my_games, name="my_games"),
    path("export.json", views.export, name="export"),
    path("<int:match_id>/", views.match_detail, name="match"),
    path("<int:match_id>/verify/", views.verify, name="verify"),
    path("<int:match_id>/unlisted/", views.set_unlisted, name="unlisted"),
]
