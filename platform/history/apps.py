from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HistoryConfig(AppConfig):
    name = "history"
    verbose_name = _("History")
    default_auto_field = "django.db.models.BigAutoField"
