"""Players: registered accounts and guests, one model so a guest's games follow them."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """An account. A guest is a user with no usable password, created from a display name alone;
    signing up turns the guest into a registered account in place, keeping every seat and match."""

    display_name = models.CharField(_("display name"), max_length=40)
    is_guest = models.BooleanField(_("guest"), default=False, db_index=True)
    # The language the player chose in their account settings: set as the language cookie when
    # they log in, on any device ("" : the browser's, as for a visitor).
    language = models.CharField(_("language"), max_length=5, blank=True, default="", choices=settings.LANGUAGES)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.display_name or self.username

    @classmethod
    def create_guest(cls, display_name: str) -> User:
        user = cls(username=f"guest-{secrets.token_hex(8)}", display_name=display_name, is_guest=True)
        user.set_unusable_password()
        user.save()
        return user


class FormerName(models.Model):
    """A username a player was once known by: a guest's ``guest-…`` before they signed up or
    logged in. Links already shared (match pages, replays, recaps, chat) point at the profile
    address it made, so that address keeps leading to the player (history/player_views.py)."""

    name = models.CharField(_("former username"), max_length=150, unique=True)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="former_names", verbose_name=_("player"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("former username")
        verbose_name_plural = _("former usernames")

    def __str__(self) -> str:
        return self.name
