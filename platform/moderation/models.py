"""What players and staff do to keep tables healthy: reports, a player's own mutes and blocks,
staff sanctions (chat mutes and bans, each with a reason and an end or none), hidden chat lines,
the devices a player has used, and an audit log of every moderator action."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Device(models.Model):
    """A browser a player has used, named by the signed long-lived device cookie (devices.py)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="devices", verbose_name=_("player")
    )
    device = models.CharField(_("device"), max_length=64, db_index=True)
    first_seen = models.DateTimeField(_("first seen"), auto_now_add=True)

    class Meta:
        verbose_name = _("device")
        verbose_name_plural = _("devices")
        constraints = [models.UniqueConstraint(fields=["user", "device"], name="one_row_per_user_device")]

    def __str__(self) -> str:
        return f"{self.user} @ {self.device[:8]}"


class Report(models.Model):
    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Insults or harassment")
        SPAM = "spam", _("Spam or flooding")
        CHEATING = "cheating", _("Cheating or sharing secrets")
        NAME = "name", _("Offensive name")
        OTHER = "other", _("Something else")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made", verbose_name=_("reporter")
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received", verbose_name=_("player")
    )
    table = models.ForeignKey("tables.Table", null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("table"))
    message = models.ForeignKey(
        "tables.ChatMessage", null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("chat message")
    )
    reason = models.CharField(_("reason"), max_length=20, choices=Reason.choices)
    note = models.CharField(_("note"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("reported"), auto_now_add=True)
    resolved_at = models.DateTimeField(_("resolved"), null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_reason_display()}: {self.reported}"


class PersonalMute(models.Model):
    """A player hides another player's chat lines, for themselves only."""

    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("personal mute")
        verbose_name_plural = _("personal mutes")
        constraints = [models.UniqueConstraint(fields=["muter", "muted"], name="one_mute_per_pair")]


class Block(models.Model):
    """A player keeps another from joining the tables they host."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair")]


class SanctionQuerySet(models.QuerySet["Sanction"]):
    def active(self) -> SanctionQuerySet:
        return self.active_at(timezone.now())

    def active_at(self, now: Any) -> SanctionQuerySet:
        """In force at ``now``: a moment, or an expression giving one (a precompiled query's
        ``Param``, accounts.sessions)."""
        return self.filter(lifted_at__isnull=True).filter(Q(until__isnull=True) | Q(until__gt=now))


class Sanction(models.Model):
    """A staff decision: a chat mute or a ban, for a period (``until``) or for good (no end)."""

    class Kind(models.TextChoices):
        CHAT_MUTE = "chat_mute", _("Muted in chat")
        BAN = "ban", _("Banned")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions", verbose_name=_("player")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    reason = models.CharField(_("reason (the player sees it)"), max_length=300)
    until = models.DateTimeField(_("until (empty: for good)"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
        verbose_name=_("decided by"),
    )
    created_at = models.DateTimeField(_("decided"), auto_now_add=True)
    lifted_at = models.DateTimeField(_("lifted"), null=True, blank=True)

    objects = SanctionQuerySet.as_manager()

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.user}"


class HiddenMessage(models.Model):
    """A chat line a moderator hid: everyone sees "hidden by a moderator" in its place."""

    message = models.OneToOneField(
        "tables.ChatMessage", on_delete=models.CASCADE, related_name="hidden", verbose_name=_("chat message")
    )
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("hidden by")
    )
    hidden_at = models.DateTimeField(_("hidden at"), auto_now_add=True)

    class Meta:
        verbose_name = _("hidden chat message")
        verbose_name_plural = _("hidden chat messages")


class ModeratorAction(models.Model):
    """The audit log: one row per moderator action, never edited."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("moderator")
    )
    action = models.CharField(_("action"), max_length=40)
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("player"),
    )
    details = models.TextField(_("details"), blank=True)
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("moderator action")
        verbose_name_plural = _("moderator actions")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.actor}: {self.action}"
