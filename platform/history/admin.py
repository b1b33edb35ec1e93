from __future__ import annotations

from django.contrib import admin

from history.models import ProfileSettings, Rating, RatingChange
from shabneshin.readonly_admin import ReadOnlyAdmin


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    """Ratings come from matches only (``manage.py recompute_ratings`` rebuilds them): read, never
    add, edit or delete."""

    list_display = ("user", "game", "shown", "mu", "sigma", "games", "updated_at")
    list_filter = ("game",)
    search_fields = ("user__username", "user__display_name")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    """Changes come from matches only (recompute_ratings rebuilds them): read, never edit."""

    list_display = ("match", "user", "game", "seat", "delta", "created_at")
    list_filter = ("game",)
    search_fields = ("user__username", "match__table__token")


@admin.register(ProfileSettings)
class ProfileSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "hidden")
    raw_id_fields = ("user",)
