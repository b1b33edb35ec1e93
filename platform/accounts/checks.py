"""Start-up checks: the layout invariants of ARCHITECTURE §1, and (with ``check --deploy``) the
settings a public server must not keep."""

from __future__ import annotations

import importlib
from typing import Any

from django.conf import settings
from django.core import checks


@checks.register()
def platform_is_a_plain_folder(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    errors: list[checks.CheckMessage] = []
    if (settings.PLATFORM_DIR / "__init__.py").exists():
        errors.append(
            checks.Error(
                "platform/__init__.py exists: it shadows the standard library's platform module.",
                id="shabneshin.E001",
            )
        )
    if not hasattr(importlib.import_module("platform"), "python_version"):
        errors.append(checks.Error("`import platform` is not the standard library's module.", id="shabneshin.E002"))
    return errors


@checks.register(checks.Tags.security, deploy=True)
def secret_key_is_not_the_development_default(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    if settings.SECRET_KEY == settings.DEV_SECRET_KEY and not settings.DEBUG:
        return [
            checks.Error(
                "SECRET_KEY is the public development default: anyone can forge sessions and signed cookies.",
                hint="Set the SECRET_KEY environment variable to a long random value.",
                id="shabneshin.E003",
            )
        ]
    return []
