from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubs.models import (
    Award,
    CheckIn,
    Club,
    Invite,
    JoinRequest,
    Membership,
    Night,
    Notification,
    Offer,
    OutgoingMail,
    PairRule,
    Penalty,
    PointsEntry,
    Preferences,
    Reminder,
    Round,
    RoundTable,
    Rsvp,
    Season,
    Series,
)
from shabneshin.admin_calendar import JalaliDrillDown
from shabneshin.admin_games import GameByName, game, game_filter
from shabneshin.readonly_admin import ReadOnlyAdmin


def _report(modeladmin: admin.ModelAdmin, request: HttpRequest, text: str) -> None:
    modeladmin.message_user(request, text, messages.SUCCESS)


@admin.action(description=_("Suspend the selected clubs"))
def suspend_clubs(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Club]) -> None:
    n = queryset.update(suspended=True)
    _report(modeladmin, request, ngettext("%(n)d club suspended.", "%(n)d clubs suspended.", n) % {"n": n})


@admin.action(description=_("Lift the suspension of the selected clubs"))
def unsuspend_clubs(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Club]) -> None:
    n = queryset.update(suspended=False)
    _report(modeladmin, request, ngettext("%(n)d club reinstated.", "%(n)d clubs reinstated.", n) % {"n": n})


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "visibility", "join_policy", "language", "time_zone", "suspended", "created_at")
    list_filter = ("visibility", "join_policy", "language", "suspended")
    search_fields = ("name", "slug", "description")
    actions = [suspend_clubs, unsuspend_clubs]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("club", "user", "role", "joined_at")
    list_filter = ("role",)
    search_fields = ("club__name", "club__slug", "user__username", "user__display_name")
    raw_id_fields = ("club", "user")


@admin.register(JoinRequest)
class JoinRequestAdmin(admin.ModelAdmin):
    list_display = ("club", "user", "status", "created_at")
    list_filter = ("status",)
    search_fields = ("club__name", "user__username", "user__display_name", "message")
    raw_id_fields = ("club", "user", "decided_by")


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ("club", "created_by", "created_at", "expires_at", "revoked_at", "uses")
    list_filter = ("revoked_at",)
    search_fields = ("club__name", "club__slug", "created_by__username")
    raw_id_fields = ("club", "created_by")


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ("title", "club", "frequency", "first_date", "until", "local_time", "capacity")
    list_filter = ("frequency",)
    search_fields = ("title", "club__name", "club__slug")
    raw_id_fields = ("club", "created_by")


@admin.register(Night)
class NightAdmin(JalaliDrillDown):
    list_display = ("title", "club", "starts_at", "capacity", "cancelled", "sequence")
    list_filter = ("cancelled", "online", "club__visibility")
    search_fields = ("title", "club__name", "club__slug", "address")
    date_hierarchy = "starts_at"
    raw_id_fields = ("club", "series", "created_by")
    exclude = ("seed_secret",)  # revealed on the night's page once it has ended, to staff as to all


@admin.register(Rsvp)
class RsvpAdmin(admin.ModelAdmin):
    list_display = ("night", "user", "answer", "queue_number", "updated_at")
    list_filter = ("answer",)
    search_fields = ("night__title", "night__club__name", "user__username", "user__display_name")
    raw_id_fields = ("night", "user")


@admin.register(Offer)
class OfferAdmin(admin.ModelAdmin):
    list_display = ("night", "user", "status", "created_at", "expires_at")
    list_filter = ("status",)
    search_fields = ("night__title", "user__username", "user__display_name")
    raw_id_fields = ("night", "user")


@admin.register(Reminder)
class ReminderAdmin(admin.ModelAdmin):
    list_display = ("night", "user", "kind", "due_at", "sent_at", "skipped")
    list_filter = ("kind", "skipped", "sent_at")
    search_fields = ("night__title", "user__username", "user__display_name")
    raw_id_fields = ("night", "user")


@admin.action(description=_("Send the selected given-up mail again"))
def send_mail_again(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[OutgoingMail]) -> None:
    from clubs import outbox

    n = outbox.send_again(queryset)
    _report(
        modeladmin,
        request,
        ngettext("%(n)d mail will be tried again.", "%(n)d mails will be tried again.", n) % {"n": n},
    )


@admin.register(OutgoingMail)
class OutgoingMailAdmin(ReadOnlyAdmin):
    """What club mail went, waits or was given up, and why. Never its text: a seat offer's link
    works without logging in."""

    list_display = ("created_at", "to", "kind", "subject", "state", "attempts", "next_try_at", "sent_at")
    list_filter = ("state", "kind")
    search_fields = ("to", "subject", "user__username", "night__title")
    fields = ("user", "night", "to", "kind", "subject", "state", "attempts", "next_try_at", "not_after")
    fields += ("last_error", "created_at", "sent_at")
    readonly_fields = fields
    actions = [send_mail_again]


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "created_at", "read_at")
    list_filter = ("kind", "read_at")
    search_fields = ("user__username", "user__display_name", "kind")
    raw_id_fields = ("user",)


@admin.register(Preferences)
class PreferencesAdmin(admin.ModelAdmin):
    list_display = ("user", "reminder_minutes")
    search_fields = ("user__username", "user__display_name")
    raw_id_fields = ("user",)
    exclude = ("feed_token",)


# --- the night itself (issue 12) ---------------------------------------------------------------------


# Rows written only through their module (rounds, scoreboard): staff look, never edit, so no point
# changes without its log line and no seating without its recomputation.
ReadOnly = ReadOnlyAdmin


@admin.register(CheckIn)
class CheckInAdmin(ReadOnly):
    list_display = ("night", "user", "walk_in", "present", "checked_in_by", "created_at")
    list_filter = ("walk_in", "present")
    search_fields = ("night__title", "night__club__slug", "user__username", "user__display_name")


@admin.register(PairRule)
class PairRuleAdmin(admin.ModelAdmin):
    list_display = ("club", "a", "b", "kind", "created_at")
    list_filter = ("kind",)
    search_fields = ("club__slug", "a__username", "b__username")
    raw_id_fields = ("club", "a", "b", "created_by")


@admin.register(Round)
class RoundAdmin(ReadOnly):
    list_display = ("night", "number", "status", "quality", "created_at")
    list_filter = ("status",)
    search_fields = ("night__title", "night__club__slug")


@admin.register(RoundTable)
class RoundTableAdmin(ReadOnly):
    list_display = ("round", "index", "table", "locked", "scored")
    search_fields = ("round__night__title", "table__token")


@admin.register(Award)
class AwardAdmin(ReadOnly):
    list_display = ("round_table", "user", "by_vote", "given_by", "created_at", "undone_at")
    search_fields = ("user__username", "round_table__round__night__title")


@admin.register(Penalty)
class PenaltyAdmin(ReadOnly):
    list_display = ("night", "user", "points", "reason", "given_by", "created_at", "undone_at")
    search_fields = ("user__username", "night__title", "reason")


@admin.register(PointsEntry)
class PointsEntryAdmin(GameByName, ReadOnly):
    list_display = ("night", "user", "kind", "points", game, "won", "by", "created_at")
    list_filter = ("kind", game_filter())
    search_fields = ("user__username", "night__title", "note")


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("club", "name", "starts_on", "ends_on")
    search_fields = ("club__slug", "name")
    raw_id_fields = ("club", "created_by")
