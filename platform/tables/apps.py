from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = _("Tables and matches")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings

        from shabneshin import admin_calendar
        from tables import chat  # noqa: F401  (connects the chat-generation signals)

        admin_calendar.install()  # the admin's dates in the page's calendar

        if settings.BENCH_COUNTERS:
            from shabneshin import counters

            counters.install()
