"""Tables (the lobby's unit: a game, its seats, its link), matches (state + version) and the
append-only move log. The moderator (moderator.py) is the only writer of Match and Move."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import registry
from games.base import Engine
from shabneshin.localize import digits


def game_name(slug: str) -> str:
    """A game's name in the reader's language (the slug of a game no longer registered)."""
    try:
        return gettext(registry.get(slug).name)
    except KeyError:
        return slug


def new_token() -> str:
    return secrets.token_urlsafe(16)


class Table(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: listed in the lobby")
        PRIVATE = "private", _("Private: only with the invite link")

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Speed(models.TextChoices):
        RELAXED = "relaxed", _("Relaxed (double time)")
        NORMAL = "normal", _("Normal")
        FAST = "fast", _("Fast (half time)")

    token = models.CharField(_("table token"), max_length=32, unique=True, default=new_token, editable=False)
    game = models.CharField(_("game"), max_length=20, db_index=True)
    # PROTECT: deleting the host would delete every other player's match at the table, its moves and
    # the ratings it gave (a player with history is banned or deactivated instead).
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_tables", verbose_name=_("host")
    )
    visibility = models.CharField(_("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC)
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    speed = models.CharField(_("speed"), max_length=10, choices=Speed.choices, default=Speed.NORMAL)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    next_table = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("next game")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    # How many TableEvents it has: a process reads them again only when this changed (events are
    # only ever appended), so a move at a table costs no query for them.
    event_count = models.PositiveIntegerField(_("events"), default=0)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        """The admin's name for it, in the reader's language: «مافیا؛ گرگینه #۱۲»."""
        return f"{game_name(self.game)} #{digits(self.pk)}"

    @property
    def engine(self) -> Engine:
        return registry.get(self.game)

    def timers(self) -> dict[str, float]:
        factor = {"relaxed": 2.0, "normal": 1.0, "fast": 0.5}[self.speed] * settings.TIMER_SCALE
        return {key: value * factor for key, value in self.engine.timers.items()}


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table"))
    number = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
        verbose_name=_("player"),
    )
    is_bot = models.BooleanField(_("practice bot"), default=False)
    # A player who keeps missing deadlines is played by a practice bot until they come back.
    missed_deadlines = models.PositiveSmallIntegerField(_("missed deadlines in a row"), default=0)
    autopilot = models.BooleanField(_("played by a bot for now"), default=False)
    # The match's version when the player left the game ("Leave the game", tables.moderator
    # ``leave_game``): the autopilot plays the seat from then on for good, and the leave counts
    # for the ratings as a loss (history.ratings). Null while they play.
    left_at_version = models.PositiveIntegerField(_("left the game at version"), null=True, blank=True)
    # When the player took this seat (the host role passes to the longest seated), and the last
    # heartbeat of a socket of theirs at this table (tables.presence): presence, in the database,
    # so every process sees it and a crashed process's sockets simply age out.
    seated_at = models.DateTimeField(_("seated at"), null=True, blank=True)
    seen_at = models.DateTimeField(_("last seen connected"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_seat_number_per_table"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=models.Q(user__isnull=False), name="one_seat_per_player"
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(table)s, seat %(n)s") % {"table": self.table, "n": digits(self.number)}

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.is_bot

    @property
    def played_by_bot(self) -> bool:
        return self.is_bot or self.autopilot

    @property
    def left_game(self) -> bool:
        return self.left_at_version is not None


class Match(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="match", verbose_name=_("table"))
    game = models.CharField(_("game"), max_length=20, db_index=True)
    seed = models.BigIntegerField(_("seed"))
    n_players = models.PositiveSmallIntegerField(_("players"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    state = models.JSONField(_("state"))
    version = models.PositiveIntegerField(_("version"), default=0)
    # Seat number (as text) -> the version at which that seat's current decision opened
    # (tables.decisions): a form rendered at or after it is not stale.
    decision_versions = models.JSONField(_("decision versions"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLAYING, db_index=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    next_deadline = models.DateTimeField(_("next deadline"), null=True, blank=True, db_index=True)
    window_started_at = models.DateTimeField(_("decision window started"), null=True, blank=True)
    last_move_at = models.DateTimeField(_("last move"), null=True, blank=True)
    # The version at which the current decision window opened (a host's "extend" names it).
    window_version = models.PositiveIntegerField(_("decision window opened at version"), default=0)
    # The host's powers (tables.host): a pause stops every clock until it is resumed, when every
    # deadline moves on by the paused time; one extension per decision window doubles its limit.
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    paused_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("paused by"),
    )
    extended_window = models.DateTimeField(_("extended decision window"), null=True, blank=True)
    # Why an aborted match ended: "" (the staff), "abandoned" (the lobby's clean-up) or "paused".
    end_reason = models.CharField(_("end reason"), max_length=16, blank=True, default="")
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # Verifiable deals (history/deals.py): the seed is derived from a secret drawn at the start,
    # whose sha256 is published at once and which is revealed when the match is over.
    deal_scheme = models.CharField(_("deal scheme"), max_length=16, blank=True, default="")
    deal_secret = models.CharField(_("deal secret"), max_length=64, blank=True, default="")
    deal_commitment = models.CharField(_("deal commitment"), max_length=64, blank=True, default="")
    deal_seating = models.CharField(_("seating at the deal"), max_length=500, blank=True, default="")
    # A practice game (with bots) its players chose to keep off the public record.
    unlisted = models.BooleanField(_("unlisted"), default=False)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return gettext("%(game)s match #%(n)s") % {"game": game_name(self.game), "n": digits(self.pk)}

    @property
    def engine(self) -> Engine:
        return registry.get(self.game)

    def seat_of(self, user: Any) -> int | None:
        if not getattr(user, "is_authenticated", False):
            return None
        seat = self.table.seats.filter(user=user).first()
        return seat.number if seat else None


class Move(models.Model):
    class Source(models.TextChoices):
        PLAYER = "player", _("Player")
        BOT = "bot", _("Practice bot")
        CLOCK = "clock", _("Clock")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves", verbose_name=_("match"))
    seq = models.PositiveIntegerField(_("number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.JSONField(_("action"))
    source = models.CharField(_("by"), max_length=10, choices=Source.choices)
    # sha256 of the canonical JSON of the state after this move (history/deals.py), so a replay
    # can name the first move where it parts from what was played.
    state_hash = models.CharField(_("state hash"), max_length=64, blank=True, default="")
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="one_move_per_seq")]

    def __str__(self) -> str:
        return gettext("%(match)s, move %(n)s") % {"match": self.match, "n": digits(self.seq)}


class TableEvent(models.Model):
    """A line of the table's own log, shown to everyone beside the game's log: what the host (or
    the clock, for the host role) did, and who left the game. ``log_at`` is how many game log entries there were then,
    so the line sits at its moment in every seat's log. Names are kept as they were shown."""

    class Kind(models.TextChoices):
        KICK = "kick", _("Removed from the table")
        SETTINGS = "settings", _("Settings changed")
        HOST = "host", _("Host role handed over")
        HOST_AWAY = "host_away", _("Host role passed on")
        PAUSE = "pause", _("Paused")
        RESUME = "resume", _("Resumed")
        EXTEND = "extend", _("Decision extended")
        TO_BOT = "to_bot", _("Seat handed to a bot")
        END = "end", _("Game ended by the host")
        PAUSE_LIMIT = "pause_limit", _("Aborted after a long pause")
        LEFT = "left", _("Left the game")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events", verbose_name=_("table"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("by"),
    )
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("player it concerns"),
    )
    params = models.JSONField(_("details"), default=dict, blank=True)
    log_at = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("table event")
        verbose_name_plural = _("table events")
        ordering = ["table", "pk"]


class Watcher(models.Model):
    """A signed-in person whose socket came to a table (tables.presence.came_to_watch), seated or
    not: how a spectator who never sat nor wrote is known to be at the table, so that its people
    may block them (moderation.views). Anyone without an account leaves no row."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="watchers", verbose_name=_("table"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    came_at = models.DateTimeField(_("came to watch at"))

    class Meta:
        verbose_name = _("watcher")
        verbose_name_plural = _("watchers")
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="one_watcher_row_per_player")]

    def __str__(self) -> str:
        return f"{self.user}: {self.table}"


class ChatMessage(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat", verbose_name=_("table"))
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, verbose_name=_("author"))
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    text = models.CharField(_("text"), max_length=500)
    # A practice bot's templated line (``games/<slug>/talk.py``): its key and parameters, so each
    # reader sees it in their own language (``bot_chat.line_html``). ``text`` keeps the line in
    # the site's language, for the admin and moderation. Empty for a player's message (and for bot
    # lines stored before keys existed: those show their text).
    key = models.CharField(_("line key"), max_length=40, blank=True, default="")
    params = models.JSONField(_("line parameters"), default=dict, blank=True)
    created_at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        """What the admin's lists show of a line (a report's, a hidden one's): who said what."""
        text = self.text if len(self.text) <= 60 else self.text[:59] + "…"
        return f"{self.author or '—'}: {text}"
