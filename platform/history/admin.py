from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from history.models import ProfileSettings, Rating, RatingChange
from shabneshin.admin_games import GameByName, game, game_filter
from shabneshin.readonly_admin import ReadOnlyAdmin


@admin.register(Rating)
class RatingAdmin(GameByName, ReadOnlyAdmin):
    """Ratings come from matches only (``manage.py recompute_ratings`` rebuilds them): read, never
    add, edit or delete."""

    list_display = ("user", game, "rating", "mu", "sigma", "games", "updated_at")
    list_filter = (game_filter(),)
    search_fields = ("user__username", "user__display_name")

    @admin.display(description=_("rating"))
    def rating(self, rating: Rating) -> int:
        return rating.shown


@admin.register(RatingChange)
class RatingChangeAdmin(GameByName, ReadOnlyAdmin):
    """Changes come from matches only (recompute_ratings rebuilds them): read, never edit."""

    list_display = ("match", "user", game, "seat", "delta", "created_at")
    list_filter = (game_filter(),)
    search_fields = ("user__username", "match__table__token")


@admin.register(ProfileSettings)
class ProfileSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "hidden")
    raw_id_fields = ("user",)
