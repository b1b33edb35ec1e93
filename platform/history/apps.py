from __future__ import annotations

from django.apps import AppConfig
from django.db.models.signals import pre_save
from django.utils.translation import gettext_lazy as _


class HistoryConfig(AppConfig):
    name = "history"
    verbose_name = _("History")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from history.deals import stamp_move
        from tables.models import Move

        pre_save.connect(stamp_move, sender=Move, dispatch_uid="history.stamp_move")
