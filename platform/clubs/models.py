"""Clubs, their members, and the nights they plan (ARCHITECTURE §9).

A Night is one real evening with its own RSVPs; a Series materialises recurring nights a few
weeks ahead. Who is going changes only through ``clubs.rsvp`` (which locks the night's row), and
everything due at a time (reminders, offers, RSVP deadlines) is a row the clock takes once.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from shabneshin.localize import format_date, is_persian

USER = settings.AUTH_USER_MODEL


def new_feed_token() -> str:
    return secrets.token_urlsafe(24)


class Club(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: listed on the clubs page")
        UNLISTED = "unlisted", _("Unlisted: anyone with the link")
        PRIVATE = "private", _("Private: members only")

    class JoinPolicy(models.TextChoices):
        OPEN = "open", _("Open: anyone may join")
        REQUEST = "request", _("By request, approved by an organizer")
        INVITE = "invite", _("By invite only")

    class Language(models.TextChoices):
        PERSIAN = "fa", _("Persian")
        ENGLISH = "en", _("English")

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("address"), max_length=50, unique=True, allow_unicode=False)
    description = models.TextField(_("description"), blank=True, max_length=2000)
    language = models.CharField(_("language"), max_length=5, choices=Language.choices, default=Language.PERSIAN)
    time_zone = models.CharField(_("time zone"), max_length=64, default="Asia/Tehran")
    visibility = models.CharField(_("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC)
    join_policy = models.CharField(
        _("who may join"), max_length=10, choices=JoinPolicy.choices, default=JoinPolicy.OPEN
    )
    suspended = models.BooleanField(_("suspended by staff"), default=False, db_index=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        ORGANIZER = "organizer", _("Organizer")
        MEMBER = "member", _("Member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club"))
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="club_memberships", verbose_name=_("player"))
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club")]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"


class JoinRequest(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an organizer")
        APPROVED = "approved", _("Approved")
        REFUSED = "refused", _("Refused")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests", verbose_name=_("club"))
    user = models.ForeignKey(
        USER, on_delete=models.CASCADE, related_name="club_join_requests", verbose_name=_("player")
    )
    message = models.TextField(_("message"), blank=True, max_length=500)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    decided_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("decided by")
    )

    class Meta:
        verbose_name = _("join request")
        verbose_name_plural = _("join requests")
        ordering = ["created_at"]


class Invite(models.Model):
    """An invite link's record; the link itself carries a signed reference to it (clubs.invites)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites", verbose_name=_("club"))
    created_by = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    uses = models.PositiveIntegerField(_("times used"), default=0)

    class Meta:
        verbose_name = _("invite link")
        verbose_name_plural = _("invite links")

    def is_usable(self, now=None) -> bool:  # noqa: ANN001
        now = now or timezone.now()
        return self.revoked_at is None and self.expires_at > now


class Series(models.Model):
    """A recurring night: the rule and the template every materialised occurrence starts from."""

    class Frequency(models.TextChoices):
        WEEKLY = "weekly", _("Every week")
        BIWEEKLY = "biweekly", _("Every two weeks")
        MONTHLY = "monthly", _("Every month, on the n-th weekday")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="series", verbose_name=_("club"))
    frequency = models.CharField(_("repeats"), max_length=10, choices=Frequency.choices)
    first_date = models.DateField(_("first date"))
    until = models.DateField(_("last date"), null=True, blank=True)
    local_time = models.TimeField(_("time"))
    # the template of each occurrence
    title = models.CharField(_("title"), max_length=100)
    duration = models.DurationField(_("duration"), default=timedelta(hours=3))
    online = models.BooleanField(_("online"), default=False)
    address = models.CharField(_("address"), max_length=200, blank=True)
    place_note = models.CharField(_("note about the place"), max_length=300, blank=True)
    games = models.JSONField(_("games offered"), default=list)
    capacity = models.PositiveIntegerField(_("capacity"))
    rsvp_lead = models.DurationField(_("RSVPs close before the start"), default=timedelta(hours=2))
    created_by = models.ForeignKey(
        USER, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return f"{self.title} ({self.get_frequency_display()})"


class Night(models.Model):
    """One game night. Issue 12's rounds and tables hang off this row."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights", verbose_name=_("club"))
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.SET_NULL, related_name="nights", verbose_name=_("series")
    )
    # the date the series rule gave this occurrence, kept when it is moved (the RECURRENCE-ID idea)
    occurrence_date = models.DateField(_("date in the series"), null=True, blank=True)
    title = models.CharField(_("title"), max_length=100)
    starts_at = models.DateTimeField(_("starts"), db_index=True)
    duration = models.DurationField(_("duration"), default=timedelta(hours=3))
    online = models.BooleanField(_("online"), default=False)
    address = models.CharField(_("address"), max_length=200, blank=True)
    place_note = models.CharField(_("note about the place"), max_length=300, blank=True)
    games = models.JSONField(_("games offered"), default=list)
    capacity = models.PositiveIntegerField(_("capacity"))
    rsvp_deadline = models.DateTimeField(_("RSVPs close"))
    deadline_done = models.BooleanField(_("RSVP deadline handled"), default=False, db_index=True)
    cancelled = models.BooleanField(_("cancelled"), default=False, db_index=True)
    sequence = models.PositiveIntegerField(_("calendar revision"), default=0)
    queue_counter = models.PositiveIntegerField(_("waitlist counter"), default=0)
    created_by = models.ForeignKey(
        USER, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    # Issue 12: the night itself. The seed is drawn when the night is published (first saved); its
    # sha256 is shown at once, the seed itself only once the night has ended (clubs.commitment).
    seed_secret = models.CharField(_("seed"), max_length=64, blank=True, default="")
    seed_commitment = models.CharField(_("seed's sha256"), max_length=64, blank=True, default="")
    fair_roles = models.BooleanField(_("fair roles across the night"), default=False)
    seats_locked = models.BooleanField(_("seats locked"), default=False, db_index=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        verbose_name = _("game night")
        verbose_name_plural = _("game nights")
        ordering = ["starts_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "occurrence_date"],
                condition=models.Q(series__isnull=False),
                name="one_night_per_occurrence",
            )
        ]

    def __str__(self) -> str:
        """The night by its title and start, as the admin names it in its lists and titles: on a
        Persian page the start is a Jalali date in Persian digits, in the reader's zone."""
        if is_persian():
            return f"{self.title} ({format_date(self.starts_at, 'short_datetime')})"
        return f"{self.title} {self.starts_at:%Y-%m-%d %H:%M}"

    @property
    def ends_at(self):  # noqa: ANN201
        return self.starts_at + self.duration

    def rsvp_open(self, now=None) -> bool:  # noqa: ANN001
        now = now or timezone.now()
        return self.attendance_open(now) and now < self.rsvp_deadline

    def attendance_open(self, now=None) -> bool:  # noqa: ANN001
        """Whether who is going may still change (an organizer's adding or removing included):
        not once the night is cancelled, has started, or was ended (early, before its start)."""
        now = now or timezone.now()
        return not self.cancelled and self.ended_at is None and now < self.starts_at

    def save(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
        if not self.seed_secret:
            from clubs import commitment

            self.seed_secret = commitment.new_secret()
            self.seed_commitment = commitment.commitment(self.seed_secret)
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "seed_secret", "seed_commitment"}
        super().save(*args, **kwargs)

    @property
    def ended(self) -> bool:
        return self.ended_at is not None

    def revealed_seed(self) -> str:
        """The seed, once the night has ended; before that, nothing."""
        return self.seed_secret if self.ended_at is not None else ""


class Rsvp(models.Model):
    class Answer(models.TextChoices):
        GOING = "going", _("Going")
        WAITING = "waiting", _("On the waitlist")
        MAYBE = "maybe", _("Maybe")
        NO = "no", _("Not going")

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="rsvps", verbose_name=_("game night"))
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="rsvps", verbose_name=_("player"))
    answer = models.CharField(_("answer"), max_length=10, choices=Answer.choices, db_index=True)
    queue_number = models.PositiveIntegerField(
        _("place on the waitlist"), null=True, blank=True
    )  # order on the waitlist
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("RSVP")
        verbose_name_plural = _("RSVPs")
        constraints = [models.UniqueConstraint(fields=["night", "user"], name="one_rsvp_per_night")]


class Offer(models.Model):
    """A freed seat offered to the first on the waitlist, until it is taken or expires."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        EXPIRED = "expired", _("Expired")

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="offers", verbose_name=_("game night"))
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="seat_offers", verbose_name=_("player"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), db_index=True)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat offer")
        verbose_name_plural = _("seat offers")


class Reminder(models.Model):
    class Kind(models.TextChoices):
        BEFORE = "before", _("Before the night")
        START = "start", _("At the start")

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="reminders", verbose_name=_("game night"))
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="night_reminders", verbose_name=_("player"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    due_at = models.DateTimeField(_("due"), db_index=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True, db_index=True)
    skipped = models.BooleanField(_("skipped"), default=False)

    class Meta:
        verbose_name = _("reminder")
        verbose_name_plural = _("reminders")
        constraints = [models.UniqueConstraint(fields=["night", "user", "kind"], name="one_reminder_of_a_kind")]


class OutgoingMail(models.Model):
    """One club email to one person (clubs.outbox): tried at once after its change commits, and
    again by the clock with growing waits while the mail server refuses it, until it is sent, it
    is no longer of use (its moment passed, or what it tells of changed) or its tries are used up.
    Its text may hold a link that works without logging in (a seat offer), so the text is blanked
    once the mail is sent or of no more use, and the admin never shows it."""

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Given up: every try failed")
        EXPIRED = "expired", _("Given up: no longer of use")

    class Kind(models.TextChoices):
        REMINDER = "reminder", _("Reminder")
        OFFER = "offer", _("Seat offer")
        NIGHT_UPDATE = "night_update", _("Night changed or cancelled")
        RECAP = "recap", _("Recap")

    user = models.ForeignKey(
        USER, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )  # their address goes with them
    night = models.ForeignKey(
        Night, null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("game night")
    )
    to = models.EmailField(_("recipient"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    subject = models.CharField(_("subject"), max_length=300)
    body = models.TextField(_("text"), blank=True, default="")
    ics = models.TextField(_("calendar file"), blank=True, default="")
    ics_method = models.CharField(_("calendar method"), max_length=10, blank=True, default="")
    state = models.CharField(_("delivery"), max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(_("tries"), default=0)
    next_try_at = models.DateTimeField(_("next try"), null=True, blank=True, db_index=True)
    not_after = models.DateTimeField(_("of use until"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=300, blank=True, default="")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("outgoing mail")
        verbose_name_plural = _("outgoing mail")
        ordering = ["-created_at", "-pk"]


class Notification(models.Model):
    """An on-site message; ``kind`` and ``params`` are rendered in the reader's language."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="notifications", verbose_name=_("player"))
    kind = models.CharField(_("kind"), max_length=30)
    params = models.JSONField(_("details"), default=dict)
    url = models.CharField(_("link"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at"]


class Preferences(models.Model):
    """A person's club settings: when to be reminded, and the secret of their calendar feed."""

    user = models.OneToOneField(
        USER, on_delete=models.CASCADE, related_name="club_preferences", verbose_name=_("player")
    )
    reminder_minutes = models.PositiveIntegerField(_("remind me this many minutes before"), default=120)
    feed_token = models.CharField(_("calendar feed token"), max_length=64, unique=True, default=new_feed_token)

    class Meta:
        verbose_name = _("club preferences")
        verbose_name_plural = _("club preferences")

    @classmethod
    def of(cls, user) -> Preferences:  # noqa: ANN001
        prefs, _created = cls.objects.get_or_create(user=user)
        return prefs


# --- the night itself (issue 12) --------------------------------------------------------------------


class CheckIn(models.Model):
    """Someone present at a night. A member checks themselves in ("I'm here") or is checked in by
    an organizer; a walk-in guest gets a guest account of their own at check-in (so their seats,
    points and awards are an ordinary person's), which the organizer hands over by a link.
    Checking out keeps the row (``present`` false) so that who checked in whom stays on record."""

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="checkins", verbose_name=_("game night"))
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="night_checkins", verbose_name=_("player"))
    walk_in = models.BooleanField(_("walk-in guest"), default=False)
    present = models.BooleanField(_("present"), default=True, db_index=True)
    checked_in_by = models.ForeignKey(
        USER, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("checked in by")
    )
    checked_out_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("checked out by")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        ordering = ["created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["night", "user"], name="one_checkin_per_person")]

    @property
    def person(self) -> str:
        """The opaque id clubs.seating sees: u<user id> for members, w<check-in id> for walk-ins."""
        return f"w{self.pk}" if self.walk_in else f"u{self.user_id}"


class PairRule(models.Model):
    class Kind(models.TextChoices):
        APART = "apart", _("Keep apart")
        TOGETHER = "together", _("Prefer together")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="pair_rules", verbose_name=_("club"))
    a = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+", verbose_name=_("first player"))
    b = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+", verbose_name=_("second player"))
    kind = models.CharField(_("rule"), max_length=10, choices=Kind.choices)
    created_by = models.ForeignKey(
        USER, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("pair rule")
        verbose_name_plural = _("pair rules")
        constraints = [models.UniqueConstraint(fields=["club", "a", "b"], name="one_rule_per_pair")]


class Round(models.Model):
    """One round of a night. ``inputs`` are the public inputs the seating was drawn from (the
    checked-in people, the games, the earlier tables, the pair rules) and ``edits`` the
    organizer's swaps, locks and re-runs in order, so the verify page recomputes it exactly."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Seating drafted")
        CONFIRMED = "confirmed", _("Tables ready")
        STARTED = "started", _("Playing")
        ENDED = "ended", _("Ended")

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("game night"))
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT, db_index=True)
    games = models.JSONField(_("games"), default=list)  # [{"game", "options", "min_players", "max_players"}]
    allow_bots = models.BooleanField(_("bots may fill seats"), default=False)
    inputs = models.JSONField(_("seating inputs"), default=dict)
    edits = models.JSONField(_("organizer's edits"), default=list)
    seating = models.JSONField(_("seating"), default=dict)  # the current Seating, as clubs.rounds stores it
    quality = models.PositiveSmallIntegerField(_("seating quality"), default=0)
    created_by = models.ForeignKey(
        USER, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    ended_early = models.BooleanField(_("ended early"), default=False)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["night", "number"]
        constraints = [models.UniqueConstraint(fields=["night", "number"], name="one_round_number_per_night")]


class RoundTable(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round"))
    index = models.PositiveSmallIntegerField(_("table number"))
    table = models.OneToOneField(
        "tables.Table", on_delete=models.CASCADE, related_name="night_table", verbose_name=_("table")
    )
    people = models.JSONField(_("players"), default=list)  # person ids in seat order
    locked = models.BooleanField(_("locked"), default=False)
    deal_attempt = models.PositiveSmallIntegerField(_("deal attempt"), default=0)  # fair roles: which attempt was dealt
    scored = models.BooleanField(_("scored"), default=False)

    class Meta:
        verbose_name = _("round table")
        verbose_name_plural = _("round tables")
        ordering = ["round", "index"]
        constraints = [models.UniqueConstraint(fields=["round", "index"], name="one_table_index_per_round")]


class Undoable(models.Model):
    """Given by an organizer, logged, and undone (never deleted)."""

    given_by = models.ForeignKey(
        USER, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("given by")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("undone by")
    )

    class Meta:
        abstract = True


class Award(Undoable):
    """Best player of a table: by the players' votes or the organizer's pick."""

    round_table = models.ForeignKey(
        RoundTable, on_delete=models.CASCADE, related_name="awards", verbose_name=_("round table")
    )
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="night_awards", verbose_name=_("player"))
    by_vote = models.BooleanField(_("by the players' vote"), default=False)

    class Meta:
        verbose_name = _("best player award")
        verbose_name_plural = _("best player awards")


class AwardVote(models.Model):
    round_table = models.ForeignKey(RoundTable, on_delete=models.CASCADE, related_name="votes")
    voter = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    candidate = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round_table", "voter"], name="one_vote_per_table")]


class Penalty(Undoable):
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="penalties", verbose_name=_("game night"))
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="night_penalties", verbose_name=_("player"))
    points = models.DecimalField(_("points"), max_digits=7, decimal_places=2)
    reason = models.CharField(_("reason"), max_length=200)

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")


class PointsEntry(models.Model):
    """The points log: a person's night total is the sum of their lines, and nothing else writes
    points (clubs.scoreboard), so no total changes without a line saying why and who."""

    class Kind(models.TextChoices):
        TABLE = "table", _("Table result")
        AWARD = "award", _("Best player")
        PENALTY = "penalty", _("Penalty")
        UNDO = "undo", _("Undone")

    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="points", verbose_name=_("game night"))
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="night_points", verbose_name=_("player"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    points = models.DecimalField(_("points"), max_digits=7, decimal_places=2)
    raw = models.DecimalField(
        _("points before normalising"), max_digits=7, decimal_places=2, default=0
    )  # before normalisation
    game = models.CharField(_("game"), max_length=20, blank=True, default="")
    side = models.CharField(_("side"), max_length=40, blank=True, default="")
    won = models.BooleanField(_("won"), default=False)
    round_table = models.ForeignKey(
        RoundTable, null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("round table")
    )
    award = models.ForeignKey(
        Award, null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("best player award")
    )
    penalty = models.ForeignKey(
        Penalty, null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("penalty")
    )
    version = models.CharField(_("scoring version"), max_length=20, blank=True, default="")
    note = models.CharField(_("note"), max_length=200, blank=True, default="")
    by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("by")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("points log line")
        verbose_name_plural = _("points log")
        ordering = ["created_at", "pk"]


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("from"))
    ends_on = models.DateField(_("to"))
    created_by = models.ForeignKey(
        USER, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-starts_on"]

    def __str__(self) -> str:
        return self.name
