"""Staff's moderation tools in the Django admin: the report queue (with the reported lines in
their context), sanctions, hidden lines, devices and the read-only audit log."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from moderation import actions, bans
from moderation.models import Device, HiddenMessage, ModeratorAction, Report, Sanction
from shabneshin.admin_confirm import confirmation
from shabneshin.localize import digits
from shabneshin.readonly_admin import ReadOnlyAdmin
from tables.models import ChatMessage

CONTEXT_LINES = 5


class StatusFilter(admin.SimpleListFilter):
    title = _("status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("open", _("Open")), ("resolved", _("Resolved"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Report]) -> QuerySet[Report]:
        if self.value() == "open":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "resolved":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


def _done(modeladmin: admin.ModelAdmin, request: HttpRequest, count: int) -> None:
    modeladmin.message_user(
        request,
        digits(ngettext("%(n)d player or line handled.", "%(n)d players or lines handled.", count) % {"n": count}),
        messages.SUCCESS,
    )


@admin.action(description=_("Mark the selected reports resolved"))
def resolve_reports(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Report]) -> None:
    _done(modeladmin, request, sum(actions.resolve(request.user, r) for r in queryset))


@admin.action(description=_("Hide the reported chat messages"))
def hide_reported_messages(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Report]) -> None:
    hidden = sum(
        actions.hide_message(request.user, r.message) for r in queryset.select_related("message__table") if r.message
    )
    _done(modeladmin, request, hidden)


def _sanction_reported(name: str, kind: str, days: int | None, question: str):  # noqa: ANN202
    def act(
        modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Report]
    ) -> TemplateResponse | None:
        users = {r.reported_id: r for r in queryset.select_related("reported")}
        asking = confirmation(
            modeladmin,
            request,
            queryset,
            action=name,
            title=_("Sanction players"),
            question=question,
            lines=[str(report.reported) for report in users.values()],
        )
        if asking is not None:
            return asking
        until = timezone.now() + timedelta(days=days) if days else None
        for report in users.values():
            # the reason's key: each player reads it in their own language (bans.reason_text)
            actions.sanction(request.user, report.reported, kind, report.reason, until)
            actions.resolve(request.user, report)
        _done(modeladmin, request, len(users))
        return None

    act.__name__ = name
    return act


mute_reported_for_a_day = admin.action(description=_("Mute the reported players in chat for 24 hours"))(
    _sanction_reported(
        "mute_reported_for_a_day",
        Sanction.Kind.CHAT_MUTE,
        1,
        _("Mute these players in every chat for 24 hours? Their reports are marked resolved."),
    )
)
ban_reported_for_a_week = admin.action(description=_("Ban the reported players for 7 days"))(
    _sanction_reported(
        "ban_reported_for_a_week",
        Sanction.Kind.BAN,
        7,
        _("Ban these players for 7 days? They are logged out at once. Their reports are marked resolved."),
    )
)
ban_reported_for_good = admin.action(description=_("Ban the reported players for good"))(
    _sanction_reported(
        "ban_reported_for_good",
        Sanction.Kind.BAN,
        None,
        _("Ban these players for good? They are logged out at once. Their reports are marked resolved."),
    )
)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "reported", "reason", "reporter", "table", "message", "resolved_at")
    list_filter = (StatusFilter, "reason")
    search_fields = ("reported__username", "reported__display_name", "note", "message__text")
    readonly_fields = (
        "reporter",
        "reported",
        "table",
        "message",
        "reason",
        "note",
        "created_at",
        "resolved_at",
        "context",
    )
    actions = [
        resolve_reports,
        hide_reported_messages,
        mute_reported_for_a_day,
        ban_reported_for_a_week,
        ban_reported_for_good,
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("in context"))
    def context(self, report: Report) -> SafeString:
        """The reported line with the lines around it (or the player's last lines at the table)."""
        if report.message_id is not None:
            message = report.message
            around = ChatMessage.objects.filter(table_id=message.table_id).select_related("author")
            before = list(around.filter(pk__lt=message.pk).order_by("-pk")[:CONTEXT_LINES])[::-1]
            after = list(around.filter(pk__gt=message.pk).order_by("pk")[:CONTEXT_LINES])
            lines = [*before, message, *after]
        elif report.table_id is not None:
            lines = list(
                ChatMessage.objects.filter(table_id=report.table_id, author_id=report.reported_id).order_by("-pk")[:10]
            )[::-1]
        else:
            lines = []
        return render_to_string("moderation/_context.html", {"lines": lines, "reported": report.message_id})


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "reason_shown", "until", "lifted_at", "created_by", "created_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "user__display_name", "reason")
    raw_id_fields = ("user",)
    fields = ("user", "kind", "reason", "until", "lifted_at")

    @admin.display(description=_("reason"), ordering="reason")
    def reason_shown(self, sanction: Sanction) -> str:
        return bans.reason_text(sanction)

    def save_model(self, request: HttpRequest, obj: Sanction, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
        actions.record_sanction(request.user, obj, created=not change)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # lift a sanction instead, so the audit log keeps it


@admin.register(HiddenMessage)
class HiddenMessageAdmin(admin.ModelAdmin):
    list_display = ("message", "hidden_by", "hidden_at")
    readonly_fields = ("message", "hidden_by", "hidden_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # hide from the report queue or the chat list, so it is logged and broadcast


@admin.register(Device)
class DeviceAdmin(admin.ModelAdmin):
    list_display = ("user", "device", "first_seen")
    search_fields = ("user__username", "user__display_name", "device")
    readonly_fields = ("user", "device", "first_seen")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(ModeratorAction)
class ModeratorActionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "actor", "action", "target", "details")
    list_filter = ("action",)
    search_fields = ("actor__username", "target__username", "target__display_name", "details")


@admin.action(description=_("Hide the selected chat messages (for everyone, live)"))
def hide_messages(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
    _done(modeladmin, request, sum(actions.hide_message(request.user, m) for m in queryset.select_related("table")))
