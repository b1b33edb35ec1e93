from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts import (
            checks,  # noqa: F401  (registers the layout check)
            sessions,  # noqa: F401  (connects the auth-generation signals)
        )
