from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from history.models import ProfileSettings, Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "shown", "mu", "sigma", "games", "updated_at")
    list_filter = ("game",)
    search_fields = ("user__username", "user__display_name")
    readonly_fields = ("user", "game", "mu", "sigma", "games")


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    """Changes come from matches only (recompute_ratings rebuilds them): read, never edit."""

    list_display = ("match", "user", "game", "seat", "delta", "created_at")
    list_filter = ("game",)
    search_fields = ("user__username", "match__table__token")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(ProfileSettings)
class ProfileSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "hidden")
    raw_id_fields = ("user",)
