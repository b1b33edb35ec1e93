from __future__ import annotations

from django.urls import path

from history import player_views

app_name = "players"
urlpatterns = [
    path("players/", player_views.search, name="search"),
    path("players/<str:name>/", player_views.profile, name="profile"),
    path("players/<str:name>/visibility/", player_views.set_hidden, name="visibility"),
    path("leaderboards/", player_views.leaderboards, name="leaderboards"),
    path("leaderboards/<slug:slug>/", player_views.leaderboard, name="leaderboard"),
    path("leaderboards/<slug:slug>/club/<slug:club>/", player_views.club_leaderboard, name="club_leaderboard"),
]
