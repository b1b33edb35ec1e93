"""Who is here tonight: the one write path for check-ins (issue 12 §1).

Rulings:
- Check-in opens ``CLUB_CHECKIN_OPENS_MINUTES`` (60) before the start and closes when the night
  ends. A member checks themselves in only if they are going; an organizer checks in any member,
  checks anyone out, and adds a walk-in guest by name.
- A walk-in gets a guest account of their own at check-in (``User.create_guest``): their seat,
  points and awards are then an ordinary person's, and the organizer hands the account to the
  walk-in's phone by a signed link (``clubs.views.walkin_link``). A walk-in nobody hands over is
  played by the autopilot after missed deadlines, like any absent player.
- Every change locks the night's row, as the seating does (clubs.rounds): a check-in lands wholly
  before or wholly after a round's draw. Once a round's tables exist (confirmed or started) nobody
  checks in or out until it ends: the form of an old page is refused, not applied. A check-in
  during a draft is accepted; the draft then no longer matches who is here, and confirming it is
  refused until it is drawn again.
- At the seat lock (``CLUB_SEAT_LOCK_MINUTES`` before the start) the seats of people going who
  have not checked in pass to the waitlist, with offers as any freed seat (clubs.rsvp), but only
  when somebody is waiting: with nobody in line, nobody loses a seat.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import live, notifications, rsvp
from clubs.models import CheckIn, Membership, Night, Round, Rsvp

GUEST_NAME_MAX = 40


class CheckInError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def opens_at(night: Night) -> datetime:
    return night.starts_at - timedelta(minutes=settings.CLUB_CHECKIN_OPENS_MINUTES)


def is_open(night: Night, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return not night.cancelled and night.ended_at is None and now >= opens_at(night)


def present(night: Night) -> list[CheckIn]:
    return list(CheckIn.objects.filter(night=night, present=True).select_related("user").order_by("created_at", "pk"))


def people(night: Night) -> list[str]:
    return [c.person for c in present(night)]


def is_here(night: Night, user) -> bool:  # noqa: ANN001
    if not getattr(user, "is_authenticated", False):
        return False
    return CheckIn.objects.filter(night=night, user=user, present=True).exists()


def _locked_for_change(night: Night, now: datetime) -> Night:
    night = Night.objects.select_for_update().select_related("club").get(pk=night.pk)
    if night.cancelled:
        raise CheckInError(_("This night was cancelled."))
    if night.ended_at is not None:
        raise CheckInError(_("This night has ended."))
    if now < opens_at(night):
        raise CheckInError(_("Check-in opens an hour before the start."))
    if Round.objects.filter(night=night, status__in=[Round.Status.CONFIRMED, Round.Status.STARTED]).exists():
        raise CheckInError(_("A round is under way: check in or out when it has ended."))
    return night


def _set_present(night: Night, user, by, walk_in: bool = False) -> CheckIn:  # noqa: ANN001
    if not walk_in:
        rsvp.settle_present(night, user)  # here is going: off the waitlist, whatever was answered
    row = CheckIn.objects.filter(night=night, user=user).first()
    if row is None:
        row = CheckIn.objects.create(night=night, user=user, walk_in=walk_in, checked_in_by=by)
    elif not row.present:
        row.present, row.checked_in_by, row.checked_out_by = True, by, None
        row.save(update_fields=["present", "checked_in_by", "checked_out_by", "updated_at"])
    live.night_changed(night)
    return row


@transaction.atomic
def check_in_self(night: Night, user, now: datetime | None = None) -> CheckIn:  # noqa: ANN001
    """ "I'm here": a member who is going."""
    now = now or timezone.now()
    night = _locked_for_change(night, now)
    if not Rsvp.objects.filter(night=night, user=user, answer=Rsvp.Answer.GOING).exists():
        raise CheckInError(_("Only people going can check in; ask an organizer."))
    return _set_present(night, user, user)


@transaction.atomic
def check_in_member(night: Night, user, by, now: datetime | None = None) -> CheckIn:  # noqa: ANN001
    now = now or timezone.now()
    night = _locked_for_change(night, now)
    if not Membership.objects.filter(club_id=night.club_id, user=user).exists():
        raise CheckInError(_("There is no such member in this club."))
    return _set_present(night, user, by)


@transaction.atomic
def add_walk_in(night: Night, name: str, by, now: datetime | None = None) -> CheckIn:  # noqa: ANN001
    from accounts.models import User

    now = now or timezone.now()
    name = " ".join((name or "").split())
    if not name or len(name) > GUEST_NAME_MAX:
        raise CheckInError(_("Give the guest a name of 1 to 40 characters."))
    night = _locked_for_change(night, now)
    return _set_present(night, User.create_guest(name), by, walk_in=True)


@transaction.atomic
def check_out(night: Night, checkin_id: int, by, now: datetime | None = None) -> CheckIn:  # noqa: ANN001
    now = now or timezone.now()
    night = _locked_for_change(night, now)
    row = CheckIn.objects.filter(night=night, pk=checkin_id, present=True).first()
    if row is None:
        raise CheckInError(_("That person is not checked in."))
    row.present, row.checked_out_by = False, by
    row.save(update_fields=["present", "checked_out_by", "updated_at"])
    live.night_changed(night)
    return row


# --- the seat lock (the clock, clubs.due) -----------------------------------------------------------


def lock_due(now: datetime) -> int:
    """Nights whose seat lock has come: release unclaimed seats to the waitlist. Returns how many
    nights were locked here (each once, whatever the number of processes)."""
    edge = now + timedelta(minutes=settings.CLUB_SEAT_LOCK_MINUTES)
    due = Night.objects.filter(seats_locked=False, cancelled=False, starts_at__lte=edge, starts_at__gt=now)
    if not due.exists():
        return 0
    with transaction.atomic():
        nights = list(due.select_for_update(skip_locked=True).select_related("club")[:50])
        for night in nights:
            night.seats_locked = True
            night.save(update_fields=["seats_locked"])
            _release_unclaimed(night, now)
        return len(nights)


def _release_unclaimed(night: Night, now: datetime) -> None:
    if not rsvp.waitlist(night) or now >= night.starts_at:
        return
    here = set(CheckIn.objects.filter(night=night, present=True).values_list("user_id", flat=True))
    unclaimed = Rsvp.objects.filter(night=night, answer=Rsvp.Answer.GOING).exclude(user_id__in=here)
    url = f"/clubs/{night.club.slug}/nights/{night.pk}/"
    for answer in list(unclaimed.select_related("user")):
        answer.answer, answer.queue_number = Rsvp.Answer.MAYBE, None
        answer.save(update_fields=["answer", "queue_number", "updated_at"])
        notifications.notify(answer.user, "seat_released", url, night=night.title)
    rsvp.offer_next(night, now)
    live.night_changed(night)
