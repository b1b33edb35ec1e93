"""Password rules with our own words: Django's Persian catalogue lacks the current wording of the
length rule (so it showed in English) and calls a password «رمز عبور», where our glossary
(locale/GLOSSARY.md) says «گذرواژه». Numbers in the messages follow the page's digits."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from shabneshin.localize import digits


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return _("This password is too short: it needs at least %(n)s characters.") % {"n": digits(self.min_length)}

    def get_help_text(self) -> str:
        return _("Your password needs at least %(n)s characters.") % {"n": digits(self.min_length)}


class CommonPasswordValidator(password_validation.CommonPasswordValidator):
    def validate(self, password: str, user: Any = None) -> None:
        try:
            super().validate(password, user)
        except ValidationError:
            raise ValidationError(_("This password is too common."), code="password_too_common") from None

    def get_help_text(self) -> str:
        return _("Your password cannot be a commonly used password.")
