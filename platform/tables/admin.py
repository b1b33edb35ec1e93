from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from moderation.admin import hide_messages
from shabneshin.admin_confirm import confirmation
from shabneshin.admin_games import GameByName, game, game_filter
from shabneshin.localize import digits
from shabneshin.readonly_admin import ReadOnlyAdmin
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


SECRET_WHILE_RUNNING = {Match: ("seed", "state"), Move: ("action", "state_hash")}
"""What a running match keeps from everyone, staff too: the seed deals every card still to come,
the state holds every hidden hand and role, a move's action may be a secret choice (a night kill, a
card laid face down) and its state hash could be checked against guessed states. A staff member
may sit at another table, or at this one; once the match is over, all of it shows here as it does
on the match's public page."""


def _running(match: Match | None) -> bool:
    return match is not None and match.status == Match.Status.PLAYING


class MoveInline(ReadOnlyInline):
    model = Move
    fields = ("seq", "seat", "action", "source", "created_at")

    def get_fields(self, request: HttpRequest, obj: Match | None = None) -> tuple[str, ...]:  # type: ignore[override]
        secret = SECRET_WHILE_RUNNING[Move] if _running(obj) else ()
        return tuple(f for f in self.fields if f not in secret)

    def get_readonly_fields(self, request: HttpRequest, obj: object = None) -> tuple[str, ...]:
        return self.get_fields(request, obj)  # type: ignore[arg-type]


class TableEventInline(ReadOnlyInline):
    """The host's actions at this table (tables.host), as everyone at the table saw them."""

    model = TableEvent
    fields = ("kind", "actor", "target", "params", "created_at")


class SeatInline(ReadOnlyInline):
    """Who sits where is the table's own business (seating, the host's powers): a seat changed here
    would hand a player's hidden hand to someone else."""

    model = Seat
    fields = ("number", "user", "is_bot", "autopilot", "left_at_version", "seated_at", "seen_at")


@admin.register(Table)
class TableAdmin(GameByName):
    """Staff may unlist a table (its visibility); everything else is the table's record. A table is
    never added or deleted here: it is made through the lobby, and deleting it would delete its
    match, its moves and the ratings they gave."""

    list_display = ("id", game, "host", "visibility", "seat_count", "status", "created_at")
    list_filter = (game_filter(), "visibility", "status", "speed")
    search_fields = ("token", "host__username", "host__display_name")
    readonly_fields = ("token", "host", "seat_count", "options", "speed", "status", "next_table")
    readonly_fields += ("created_at", "updated_at", "event_count")
    inlines = [SeatInline, TableEventInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "user", "is_bot")
    list_filter = ("is_bot", game_filter("table__game"))
    search_fields = ("user__username", "user__display_name", "table__token")


@admin.action(description=_("Abort the selected running matches"), permissions=["abort"])
def abort_matches(
    modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Match]
) -> TemplateResponse | None:
    running = queryset.filter(status=Match.Status.PLAYING).select_related("table")
    asking = confirmation(
        modeladmin,
        request,
        queryset,
        action="abort_matches",
        title=_("Abort matches"),
        question=_(
            "Abort these running matches? Their games end at once for everyone at the table, with no winner "
            "and no rating change. This cannot be undone."
        ),
        lines=[str(match) for match in running],
    )
    if asking is not None:
        return asking
    aborted = sum(1 for match in running if moderator.abort(match))
    modeladmin.message_user(
        request,
        digits(ngettext("%(n)d match aborted.", "%(n)d matches aborted.", aborted) % {"n": aborted}),
        messages.SUCCESS,
    )
    return None


@admin.register(Match)
class MatchAdmin(GameByName):
    """A match is the moderator's record: staff read it and may abort it, never edit a field (a
    status set by hand would show a live game's secret on its page and leave the table waiting),
    add one or delete one (its ratings and its history go with it)."""

    list_display = ("id", game, "n_players", "status", "version", "started_at", "finished_at", "next_deadline")
    list_filter = (game_filter(), "status", "n_players")
    search_fields = ("table__token", "table__seats__user__username", "table__seats__user__display_name")
    actions = [abort_matches]
    inlines = [MoveInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_abort_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("tables.change_match")

    def get_fields(self, request: HttpRequest, obj: Match | None = None) -> list[str]:  # type: ignore[override]
        fields = list(super().get_fields(request, obj))
        if _running(obj):
            fields = [f for f in fields if f not in SECRET_WHILE_RUNNING[Match]] + ["kept_secret"]
        return fields

    def get_readonly_fields(self, request: HttpRequest, obj: Match | None = None) -> tuple[str, ...]:  # type: ignore[override]
        return ("kept_secret",) if _running(obj) else ()

    @admin.display(description=_("kept secret"))
    def kept_secret(self, obj: Match) -> str:
        return str(_("The seed, the state and the moves' actions show here once the match is over."))


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    """Moves are the match's log: a move deleted here would leave a match that no longer replays."""

    list_display = ("match", "seq", "seat", "source", "created_at")
    list_filter = ("source", game_filter("match__game"))
    search_fields = ("match__table__token",)

    def get_exclude(self, request: HttpRequest, obj: Move | None = None) -> tuple[str, ...]:  # type: ignore[override]
        return SECRET_WHILE_RUNNING[Move] if obj is not None and _running(obj.match) else ()


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    """What a player said is never rewritten or deleted here: hiding a line (for everyone, live) is
    the logged way (moderation)."""

    list_display = ("table", "seat", "author", "text", "created_at")
    list_filter = ("table__game",)
    search_fields = ("text", "author__username", "author__display_name")
    actions = [hide_messages]
