from __future__ import annotations

from django.urls import path

from tables import host_views, views

app_name = "tables"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/<slug:slug>/", views.create, name="create"),
    path("rules/<slug:slug>/", views.rules, name="rules"),
    path("t/<str:token>/", views.detail, name="detail"),
    path("t/<str:token>/sit/", views.sit, name="sit"),
    path("t/<str:token>/leave/", views.leave, name="leave"),
    path("t/<str:token>/bot/add/", views.add_bot, name="add_bot"),
    path("t/<str:token>/bot/fill/", views.fill_bots, name="fill_bots"),
    path("t/<str:token>/bot/remove/", views.remove_bot, name="remove_bot"),
    path("t/<str:token>/start/", views.start, name="start"),
    path("t/<str:token>/again/", views.play_again, name="play_again"),
    path("t/<str:token>/leave-game/", views.leave_game, name="leave_game"),
    path("t/<str:token>/host/", host_views.power, name="host"),
    path("t/<str:token>/host/settings/", host_views.settings_page, name="host_settings"),
]
