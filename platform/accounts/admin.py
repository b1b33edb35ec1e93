from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin import actions
from django.contrib.auth.admin import UserAdmin
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from shabneshin.localize import list_separator


def _who_played(players: QuerySet[User]) -> QuerySet[User]:
    """The players who sat at a game or hosted one: other players' history, never deleted."""
    return players.filter(Q(seats__isnull=False) | Q(hosted_tables__isnull=False)).distinct()


@admin.action(permissions=["delete"], description=actions.delete_selected.short_description)
def delete_selected(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[User]) -> Any:
    """Django's own, unless a selected player played: then nobody is deleted, and the list says who
    and what to do (Django's page spoke of the staff member's permissions on tables and ratings)."""
    played = [str(player) for player in _who_played(queryset).order_by("display_name")]
    if played:
        messages.error(
            request,
            _(
                "Nobody was deleted: %(names)s played or hosted games, which are other players' "
                "history too. Untick Active to close their accounts, or ban them from the report "
                "queue or Sanctions."
            )
            % {"names": list_separator().join(played)},
        )
        return None
    return actions.delete_selected(modeladmin, request, queryset)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "display_name", "is_guest", "is_staff", "date_joined", "last_login")
    list_filter = ("is_guest", "is_staff", "is_superuser", "is_active")
    search_fields = ("username", "display_name", "email")
    fieldsets = (*UserAdmin.fieldsets, (_("Shabneshin"), {"fields": ("display_name", "is_guest", "language")}))
    actions = [delete_selected]  # in place of the site's own, by its name

    def delete_view(self, request: HttpRequest, object_id: str, extra_context: Any = None) -> HttpResponse:
        """A player who sat at a game is part of other players' history (their matches, moves and
        ratings): they are deactivated or banned, never deleted. Said plainly, instead of Django's
        page about permissions on related objects."""
        player = self.get_object(request, object_id)
        if player is not None and _who_played(User.objects.filter(pk=player.pk)).exists():
            messages.error(
                request,
                _(
                    "This player has played or hosted games, which are other players' history too: "
                    "they cannot be deleted. Untick Active to close the account, or ban them from the "
                    "report queue or Sanctions."
                ),
            )
            return redirect("admin:accounts_user_change", object_id)
        return super().delete_view(request, object_id, extra_context)
