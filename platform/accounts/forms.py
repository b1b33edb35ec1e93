from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, SetPasswordForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import FormerName, User
from accounts.names import clean_display_name
from moderation.bans import ban_of, ban_text

# Django's own wording of these, in our words (and our glossary's «گذرواژه»).
PASSWORD = _("Password")
USERNAME_HELP = _("Letters, digits and @ . + - _ only.")
EMAIL = _("Email (optional)")
EMAIL_HELP = _("Only to send you a link to a new password if you forget yours. No other player sees it.")
TAKEN = _("That username is taken: pick another one.")


class GuestForm(forms.Form):
    display_name = forms.CharField(label=_("Display name"), max_length=40, min_length=2, strip=True)

    def clean_display_name(self) -> str:
        return clean_display_name(self.cleaned_data["display_name"])


class SignUpForm(UserCreationForm):
    error_messages = {
        **UserCreationForm.error_messages,
        "password_mismatch": _("The two passwords are not the same."),
    }

    class Meta:
        model = User
        fields = ("username", "display_name", "email")
        labels = {"username": _("Username"), "display_name": _("Display name"), "email": EMAIL}
        help_texts = {"username": USERNAME_HELP, "email": EMAIL_HELP}
        error_messages = {"username": {"unique": TAKEN}}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].required = False
        self.fields["password1"].label = PASSWORD
        self.fields["password1"].help_text = password_validation.password_validators_help_text_html()
        self.fields["password2"].label = _("Password again")
        self.fields["password2"].help_text = _("The same password, to be sure it is typed right.")

    def clean_username(self) -> str | None:
        """A name someone was known by before is taken too: their old profile address leads to
        them (accounts.models.FormerName)."""
        username = super().clean_username()
        if username and FormerName.objects.filter(name__iexact=username).exists():
            raise forms.ValidationError(TAKEN, code="unique")
        return username

    def clean_display_name(self) -> str:
        name = self.cleaned_data.get("display_name") or self.cleaned_data.get("username") or ""
        # No name yet means the username itself was refused: that error is shown already.
        return clean_display_name(name) if name else name


class LogInForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("That username and password do not match an account. Both are case-sensitive."),
        "inactive": _("This account is inactive."),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("Username")
        self.fields["password"].label = PASSWORD

    def confirm_login_allowed(self, user: Any) -> None:
        """A banned player is refused with the ban's reason and end."""
        super().confirm_login_allowed(user)
        ban = ban_of(user)
        if ban is not None:
            raise forms.ValidationError(ban_text(ban), code="banned")


class AccountForm(forms.ModelForm):
    """A registered player's settings: the name others see, the email a reset link goes to, and
    the language the site speaks to them on every device they log in on."""

    class Meta:
        model = User
        fields = ("display_name", "email", "language")
        labels = {"display_name": _("Display name"), "email": EMAIL, "language": _("Language")}
        help_texts = {
            "email": EMAIL_HELP,
            "language": _("Set on every device you log in on; “The browser's”: each browser's own language."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].required = True
        self.fields["language"].choices = [("", _("The browser's")), *self.fields["language"].choices[1:]]

    def clean_display_name(self) -> str:
        return clean_display_name(self.cleaned_data["display_name"])


def _new_password_fields(form: forms.Form) -> None:
    """Our words for a new password's two boxes: Django's Persian asks, under the second box, for
    the *previous* password, which a player resetting a forgotten one does not have."""
    form.fields["new_password1"].label = _("New password")
    form.fields["new_password1"].help_text = password_validation.password_validators_help_text_html()
    form.fields["new_password2"].label = _("New password again")
    form.fields["new_password2"].help_text = _("The same new password, to be sure it is typed right.")


class NewPasswordForm(SetPasswordForm):
    """A forgotten password's new one (the emailed link)."""

    error_messages = {**SetPasswordForm.error_messages, "password_mismatch": _("The two passwords are not the same.")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _new_password_fields(self)


class ChangePasswordForm(PasswordChangeForm):
    """A password changed with the current one."""

    error_messages = {
        **PasswordChangeForm.error_messages,
        "password_mismatch": _("The two passwords are not the same."),
        "password_incorrect": _("That is not your current password."),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["old_password"].label = _("Your current password")
        _new_password_fields(self)
