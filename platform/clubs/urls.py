from __future__ import annotations

from django.urls import path

from clubs import standings_views as standings
from clubs import tonight_views as tonight
from clubs import views

app_name = "clubs"
night = "clubs/<slug:slug>/nights/<int:night_id>/"
urlpatterns = [
    path("clubs/", views.club_list, name="list"),
    path("clubs/new/", views.club_create, name="create"),
    path("clubs/<slug:slug>/", views.club_detail, name="detail"),
    path("clubs/<slug:slug>/edit/", views.club_edit, name="edit"),
    path("clubs/<slug:slug>/join/", views.join, name="join"),
    path("clubs/<slug:slug>/leave/", views.leave, name="leave"),
    path("clubs/<slug:slug>/members/", views.member_list, name="members"),
    path("clubs/<slug:slug>/members/remove/", views.member_remove, name="member_remove"),
    path("clubs/<slug:slug>/members/role/", views.member_role, name="member_role"),
    path("clubs/<slug:slug>/requests/", views.request_decide, name="request_decide"),
    path("clubs/<slug:slug>/standings/", standings.standings_page, name="standings"),
    path("clubs/<slug:slug>/seasons/", standings.season_add, name="season_add"),
    path("clubs/<slug:slug>/members/<int:user_id>/", standings.member_page, name="member"),
    path("clubs/<slug:slug>/pair-rules/", standings.pair_rules, name="pair_rules"),
    path("clubs/<slug:slug>/invites/", views.invite_list, name="invites"),
    path("clubs/<slug:slug>/invites/revoke/", views.invite_revoke, name="invite_revoke"),
    path("clubs/<slug:slug>/invite/<str:token>/", views.invite_accept, name="invite"),
    path("clubs/<slug:slug>/calendar.ics", views.club_ics, name="club_ics"),
    path("clubs/<slug:slug>/nights/new/", views.night_new, name="night_new"),
    path(night, views.night_detail, name="night"),
    path(night + "edit/", views.night_edit, name="night_edit"),
    path(night + "cancel/", views.night_cancel, name="night_cancel"),
    path(night + "end-series/", views.night_end_series, name="night_end_series"),
    path(night + "rsvp/", views.night_rsvp, name="rsvp"),
    path(night + "attendees/", views.night_attendee, name="attendee"),
    path(night + "offer/", views.night_offer, name="offer"),
    path(night + "offer/<str:token>/", views.offer_link, name="offer_link"),
    path(night + "event.ics", views.night_ics, name="night_ics"),
    path(night + "here/", tonight.check_in_self, name="check_in"),
    path(night + "checkins/", tonight.check_in_others, name="checkins"),
    path(night + "walk-in/<str:token>/", tonight.walkin_link, name="walkin"),
    path(night + "verify/", tonight.verify_page, name="verify"),
    path(night + "vote/", tonight.vote, name="vote"),
    path(night + "awards/", tonight.awards, name="awards"),
    path(night + "penalties/", tonight.penalties, name="penalties"),
    path(night + "end/", tonight.end_night, name="end_night"),
    path(night + "recap/", tonight.recap_page, name="recap"),
    path(night + "repeat/", tonight.repeat, name="repeat"),
    path(night + "rounds/", tonight.round_start, name="round_start"),
    path(night + "rounds/<int:round_id>/", tonight.round_action, name="round_action"),
    path("calendar/", views.calendar_settings, name="calendar"),
    path("calendar/<str:token>.ics", views.user_ics, name="user_ics"),
    path("nights/", views.my_nights, name="my_nights"),
    path("notifications/", views.notification_list, name="notifications"),
]
