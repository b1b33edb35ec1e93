from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "display_name", "is_guest", "is_staff", "date_joined", "last_login")
    list_filter = ("is_guest", "is_staff", "is_superuser", "is_active")
    search_fields = ("username", "display_name", "email")
    fieldsets = (*UserAdmin.fieldsets, (_("Shabneshin"), {"fields": ("display_name", "is_guest", "language")}))

    def delete_view(self, request: HttpRequest, object_id: str, extra_context: Any = None) -> HttpResponse:
        """A player who sat at a game is part of other players' history (their matches, moves and
        ratings): they are deactivated or banned, never deleted. Said plainly, instead of Django's
        page about permissions on related objects."""
        from tables.models import Seat, Table

        player = self.get_object(request, object_id)
        if player is not None and (
            Table.objects.filter(host=player).exists() or Seat.objects.filter(user=player).exists()
        ):
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
