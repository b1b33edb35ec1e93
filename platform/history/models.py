"""Ratings (openskill, one per player and game), every change per match, and profile settings."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from shabneshin.localize import digits
from tables.models import game_name

# How a rating is shown: the ordinal (mu - 3 sigma, 0 for a newcomer) on a friendlier scale.
DISPLAY_BASE = 1500
DISPLAY_SCALE = 20
# A player stays provisional until both hold (README: Ratings).
PROVISIONAL_GAMES = 5
PROVISIONAL_SIGMA = 7.0


def shown(mu: float, sigma: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


class Rating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("player")
    )
    game = models.CharField(_("game"), max_length=20, db_index=True)
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_game")]

    def __str__(self) -> str:
        """The admin's name for it, in the reader's language: «آوا، دراکولا: ۱۵۶۵»."""
        return gettext("%(player)s, %(game)s: %(rating)s") % {
            "player": self.user,
            "game": game_name(self.game),
            "rating": digits(self.shown),
        }

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA


class RatingChange(models.Model):
    match = models.ForeignKey(
        "tables.Match", on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("player")
    )
    game = models.CharField(_("game"), max_length=20, db_index=True)
    seat = models.PositiveSmallIntegerField(_("seat"))
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu_after = models.FloatField(_("mu after"))
    sigma_after = models.FloatField(_("sigma after"))
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="one_change_per_player_and_match")]

    def __str__(self) -> str:
        """The admin's name for it: «مسابقهٔ دراکولا #۳۲، آوا: ‎+۱۲»."""
        return gettext("%(match)s, %(player)s: %(change)s") % {
            "match": self.match,
            "player": self.user,
            "change": digits(f"{self.delta:+d}"),
        }

    @property
    def before(self) -> int:
        return shown(self.mu_before, self.sigma_before)

    @property
    def after(self) -> int:
        return shown(self.mu_after, self.sigma_after)

    @property
    def delta(self) -> int:
        return self.after - self.before


class ProfileSettings(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile_settings", verbose_name=_("player")
    )
    hidden = models.BooleanField(_("hide my profile from strangers"), default=False)

    class Meta:
        verbose_name = _("profile settings")
        verbose_name_plural = _("profile settings")
