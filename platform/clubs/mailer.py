"""Email, through Django's email framework: one message per person, to their address alone, in
their own language (account settings) or else the club's. Calendar changes carry an .ics
(METHOD:REQUEST or CANCEL).

Each message is worded inside the transaction of the change it tells of and stored there
(:mod:`clubs.outbox`), so the change and its mail commit together; it is sent once that has
committed. A message that cannot be sent (the mail server is down, an address is refused) is
logged and tried again later. Neither a mail server's fault nor one in the wording ever turns a
stored change into an error page, or keeps the next person's message from going: each function
here words its messages in a savepoint, and a fault there is logged and leaves the change without
its mail (:func:`_in_a_savepoint`)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.core import signing
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import calendar, outbox
from clubs.models import Night, Offer, OutgoingMail, Reminder, Rsvp
from shabneshin.localize import digits, format_date
from tables.templatetags.persian import short_number

OFFER_SALT = "clubs.offer"
Kind = OutgoingMail.Kind
log = logging.getLogger(__name__)


def _in_a_savepoint(words: Callable[..., int]) -> Callable[..., int]:
    """Words and stores messages in a savepoint of the caller's transaction; a fault there is
    logged, stores none of them, and leaves the change itself to commit (0 stored)."""

    @functools.wraps(words)
    def wrapper(*args: Any, **kwargs: Any) -> int:
        try:
            with transaction.atomic():
                return words(*args, **kwargs)
        except Exception:
            log.exception("club mail (%s) could not be worded; the change stands without it", words.__name__)
            return 0

    return wrapper


def offer_token(offer: Offer) -> str:
    return signing.dumps({"o": offer.pk, "u": offer.user_id}, salt=OFFER_SALT)


def offer_link(offer: Offer) -> str:
    return calendar.absolute(f"{calendar.night_path(offer.night)}offer/{offer_token(offer)}/")


def language_of(user: Any, night: Night) -> str:
    """The language a member reads the club's mail in: their own choice, else the club's."""
    return getattr(user, "language", "") or night.club.language


def _when(night: Night, language: str) -> str:
    return format_date(night.starts_at, "datetime", language, night.club.time_zone)


@_in_a_savepoint
def send_night_update(night: Night, method: str) -> int:
    """The night moved or changed place (REQUEST), or was cancelled (CANCEL): tell everyone going;
    how many messages were stored."""
    night = Night.objects.select_related("club").get(pk=night.pk)
    sent = 0
    for answer in Rsvp.objects.filter(night=night, answer=Rsvp.Answer.GOING).select_related("user"):
        language = language_of(answer.user, night)
        with translation.override(language):
            if method == "CANCEL":
                subject = _("Cancelled: %(night)s") % {"night": night.title}
                body = _("%(night)s (%(club)s) on %(when)s was cancelled.")
            else:
                subject = _("Changed: %(night)s") % {"night": night.title}
                body = _("%(night)s (%(club)s) is now on %(when)s. The attached calendar entry replaces the old one.")
            body = body % {"night": night.title, "club": night.club.name, "when": _when(night, language)}
            body += "\n\n" + calendar.absolute(calendar.night_path(night))
            ics = calendar.single(night, method, attendee=answer.user)
            sent += bool(
                outbox.send(
                    answer.user, Kind.NIGHT_UPDATE, subject, body, ics, method, not_after=night.starts_at, night=night
                )
            )
    return sent


@_in_a_savepoint
def send_offer(offer: Offer) -> int:
    offer = Offer.objects.select_related("night__club", "user").get(pk=offer.pk)
    night = offer.night
    language = language_of(offer.user, night)
    with translation.override(language):
        subject = _("A seat is free: %(night)s") % {"night": night.title}
        body = _(
            "A seat is free at %(night)s (%(club)s) on %(when)s. It is yours if you accept it before %(until)s:"
        ) % {
            "night": night.title,
            "club": night.club.name,
            "when": _when(night, language),
            "until": format_date(offer.expires_at, "datetime", language, night.club.time_zone),
        }
        text = body + "\n\n" + offer_link(offer)
        return bool(outbox.send(offer.user, Kind.OFFER, subject, text, not_after=offer.expires_at, night=night))


START_REMINDER_OF_USE_MINUTES = 30  # "starting now" a while after the start, not later


def _reminder_of_use_until(reminder: Reminder) -> datetime:
    if reminder.kind == Reminder.Kind.START:
        return reminder.night.starts_at + timedelta(minutes=START_REMINDER_OF_USE_MINUTES)
    return reminder.night.starts_at


@_in_a_savepoint
def send_reminder(reminder: Reminder) -> int:
    reminder = Reminder.objects.select_related("night__club", "user").get(pk=reminder.pk)
    night = reminder.night
    language = language_of(reminder.user, night)
    with translation.override(language):
        if reminder.kind == Reminder.Kind.START:
            subject = _("Starting now: %(night)s") % {"night": night.title}
        else:
            subject = _("Soon: %(night)s") % {"night": night.title}
        body = _("%(night)s (%(club)s) starts on %(when)s.") % {
            "night": night.title,
            "club": night.club.name,
            "when": _when(night, language),
        }
        place = _("Online") if night.online else night.address
        text = f"{body}\n{place}\n\n{calendar.absolute(calendar.night_path(night))}"
        until = _reminder_of_use_until(reminder)
        return bool(outbox.send(reminder.user, Kind.REMINDER, subject, text, not_after=until, night=night))


def _bot_played(row: dict) -> str:
    """A scoreboard line's note that a bot played for the person (clubs.autopiloted), or nothing."""
    n = row.get("bot_played", 0)
    if not n:
        return ""
    told = ngettext("A bot played for them at %(n)s table.", "A bot played for them at %(n)s tables.", n)
    return f" ({told % {'n': n}})"


def _recap_line(row: dict) -> str:
    """A scoreboard line of the recap mail, its numbers in the reader's digits but never the
    person's name («۱. P3: ۱۲», not «۱. P۳: ۱۲»)."""
    return f"{digits(row['place'])}. {row['name']}: {digits(short_number(row['total']))}{digits(_bot_played(row))}"


@_in_a_savepoint
def send_recap(night: Night) -> int:
    """The recap of an ended night, to everyone who was there or going, each in their language;
    how many messages were stored."""
    from clubs import recap, scoreboard, tonight

    board = scoreboard.rows(night, tonight.names(night))
    link = calendar.absolute(calendar.night_path(night) + "recap/")
    worded: dict[str, tuple[str, str]] = {}
    sent = 0
    for person in recap.audience(night):
        language = language_of(person, night)
        if language not in worded:
            with translation.override(language):
                lines = [_recap_line(row) for row in board[:10]]
                subject = _("Recap: %(night)s") % {"night": night.title}
                body = _("%(night)s (%(club)s) has ended. The final scoreboard:") % {
                    "night": night.title,
                    "club": night.club.name,
                }
                closing = _("The whole recap, and the check of every round's seating:")
                worded[language] = (subject, "\n".join([body, "", *lines, "", closing, link]))
        subject, text = worded[language]
        sent += bool(outbox.send(person, Kind.RECAP, subject, text, night=night))
    return sent
