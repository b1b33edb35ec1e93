"""On-site notifications: stored as a kind and its parameters, worded in the reader's language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from clubs.models import Notification
from shabneshin.localize import digits

MESSAGES = {
    "offer": _("A seat is free at %(night)s: it is yours if you accept it."),
    "offer_expired": _("Your seat offer for %(night)s expired; you are off the waitlist."),
    "reminder_before": _("%(night)s starts soon."),
    "reminder_start": _("%(night)s is starting now."),
    "night_changed": _("%(night)s has changed: check the new time and place."),
    "night_cancelled": _("%(night)s was cancelled."),
    "join_request": _("%(person)s asks to join %(club)s."),
    "request_approved": _("You are now a member of %(club)s."),
    "rsvp_closed": _("RSVPs for %(night)s are closed: %(going)s going."),
    "seat_released": _("You had not checked in at %(night)s by the seat lock: your seat passed to the waitlist."),
    "your_table": _("Your table for round %(round)s of %(night)s is ready."),
    "recap": _("The recap of %(night)s is ready."),
    "removed": _("You were removed from %(club)s."),
}

NUMBERS = {"going", "round"}


def notify(user, kind: str, url: str = "", **params: Any) -> Notification:  # noqa: ANN001
    if kind not in MESSAGES:
        raise ValueError(kind)
    return Notification.objects.create(user=user, kind=kind, url=url, params={k: str(v) for k, v in params.items()})


def text(notification: Notification) -> str:
    template = MESSAGES.get(notification.kind)
    if template is None:
        return notification.kind
    # Persian digits on a Persian page for the counts the site writes, never in a night's title, a
    # club's or a person's name («Club 7» stays as its organizer wrote it)
    params = {k: digits(v) if k in NUMBERS else v for k, v in notification.params.items()}
    return str(template) % {"night": "", "club": "", "person": "", "going": "", "round": "", **params}
