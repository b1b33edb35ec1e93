from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from moderation.admin import hide_messages
from shabneshin.localize import digits
from tables import moderator
from tables.models import ChatMessage, Match, Move, Seat, Table, TableEvent


class ReadOnlyInline(admin.TabularInline):
    """A log shown beside its table or match: never added to, changed or deleted here."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request: HttpRequest, obj: object = None) -> tuple[str, ...]:
        return tuple(self.fields or ())

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class MoveInline(ReadOnlyInline):
    model = Move
    fields = ("seq", "seat", "action", "source", "created_at")


class TableEventInline(ReadOnlyInline):
    """The host's actions at this table (tables.host), as everyone at the table saw them."""

    model = TableEvent
    fields = ("kind", "actor", "target", "params", "created_at")


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "is_bot", "autopilot", "seated_at", "seen_at")
    readonly_fields = ("seated_at", "seen_at")
    raw_id_fields = ("user",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "host", "visibility", "seat_count", "status", "created_at")
    list_filter = ("game", "visibility", "status", "speed")
    search_fields = ("token", "host__username", "host__display_name")
    readonly_fields = ("token", "created_at", "updated_at")
    raw_id_fields = ("host",)
    inlines = [SeatInline, TableEventInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "user", "is_bot")
    list_filter = ("is_bot", "table__game")
    search_fields = ("user__username", "user__display_name", "table__token")
    raw_id_fields = ("table", "user")


@admin.action(description=_("Abort the selected running matches"))
def abort_matches(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Match]) -> None:
    aborted = sum(1 for match in queryset if moderator.abort(match))
    modeladmin.message_user(
        request,
        digits(ngettext("%(n)d match aborted.", "%(n)d matches aborted.", aborted) % {"n": aborted}),
        messages.SUCCESS,
    )




@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "n_players", "status", "version", "started_at", "finished_at", "next_deadline")
    list_filter = ("game", "status", "n_players")
    search_fields = ("table__token", "table__seats__user__username", "table__seats__user__display_name")
    readonly_fields = ("table", "game", "seed", "n_players", "options", "state", "version", "result", "started_at")
    readonly_fields += ("deal_scheme", "deal_secret", "deal_commitment", "deal_seating")
    actions = [abort_matches]
    inlines = [MoveInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("match", "seq", "seat", "source", "created_at")
    list_filter = ("source", "match__game")
    search_fields = ("match__table__token",)
    readonly_fields = ("match", "seq", "seat", "action", "source", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("table", "seat", "author", "text", "created_at")
    list_filter = ("table__game",)
    search_fields = ("text", "author__username", "author__display_name")
    raw_id_fields = ("table", "author")
    actions = [hide_messages]
