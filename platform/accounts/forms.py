from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from moderation.bans import ban_of, ban_text


class GuestForm(forms.Form):
    display_name = forms.CharField(label=_("Display name"), max_length=40, min_length=2, strip=True)


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "display_name")
        labels = {"username": _("Username"), "display_name": _("Display name")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].required = False

    def clean_display_name(self) -> str:
        return self.cleaned_data.get("display_name") or self.cleaned_data.get("username", "")


class LogInForm(AuthenticationForm):
    def confirm_login_allowed(self, user: Any) -> None:
        """A banned player is refused with the ban's reason and end."""
        super().confirm_login_allowed(user)
        ban = ban_of(user)
        if ban is not None:
            raise forms.ValidationError(ban_text(ban), code="banned")
