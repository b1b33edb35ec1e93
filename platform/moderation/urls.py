from __future__ import annotations

from django.urls import path

from moderation import views

app_name = "moderation"
urlpatterns = [
    path("me/blocked/", views.mine, name="mine"),
    path("t/<str:token>/watching/", views.watchers, name="watchers"),
    path("t/<str:token>/player/<int:user_id>/", views.player, name="player"),
    path("t/<str:token>/player/<int:user_id>/mute/", views.mute, name="mute"),
    path("t/<str:token>/player/<int:user_id>/block/", views.block, name="block"),
]
