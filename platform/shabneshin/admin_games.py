"""The admin's game column and filter: each game by its name in the reader's language («مافیا؛
گرگینه»), where Django's showed the stored slug ("werewolf") on the Persian admin too."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games import registry
from tables.models import game_name


@admin.display(description=_("game"), ordering="game")
def game(record: Any) -> str:
    return game_name(record.game)


class _GameFilter(admin.SimpleListFilter):
    title = _("game")
    parameter_name = "game"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [(engine.slug, game_name(engine.slug)) for engine in registry.all()]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        return queryset.filter(**{self.parameter_name: self.value()}) if self.value() else queryset


def game_filter(path: str = "game") -> type[admin.SimpleListFilter]:
    """A filter by the game at ``path`` ("game", "table__game"), its address parameter the path as
    Django's own filter named it."""
    return type(f"GameFilter_{path}", (_GameFilter,), {"parameter_name": path})


class GameByName(admin.ModelAdmin):
    """A change page that names the game («مافیا؛ گرگینه») where Django showed the stored slug: the
    field is shown read-only through ``game``, never edited here."""

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return [game if name == "game" else name for name in super().get_fields(request, obj)]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return [*(name for name in super().get_readonly_fields(request, obj) if name != "game"), game]
