"""Who is going: the one write path for RSVPs, the waitlist and seat offers (ARCHITECTURE §9).

Every change locks the night's row first, so concurrent answers are applied one at a time and
the number going never passes the capacity. A seat under offer counts as taken until the offer
is answered or expires. Past capacity, "going" joins the waitlist, in order of asking; when a
seat frees, the first on the waitlist is offered it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import live, notifications, reminders
from clubs.models import Membership, Night, Offer, Rsvp

Answer = Rsvp.Answer


class RsvpError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _locked(night: Night) -> Night:
    return Night.objects.select_for_update().select_related("club").get(pk=night.pk)


def going_count(night: Night) -> int:
    return Rsvp.objects.filter(night=night, answer=Answer.GOING).count()


def free_seats(night: Night) -> int:
    pending = Offer.objects.filter(night=night, status=Offer.Status.PENDING).count()
    return night.capacity - going_count(night) - pending


def waitlist(night: Night) -> list[Rsvp]:
    return list(
        Rsvp.objects.filter(night=night, answer=Answer.WAITING).select_related("user").order_by("queue_number", "pk")
    )


def _night_url(night: Night) -> str:
    return f"/clubs/{night.club.slug}/nights/{night.pk}/"


def _enqueue(night: Night, rsvp: Rsvp) -> None:
    night.queue_counter += 1
    night.save(update_fields=["queue_counter"])
    rsvp.answer = Answer.WAITING
    rsvp.queue_number = night.queue_counter


def _withdraw_offers(night: Night, user) -> bool:  # noqa: ANN001
    return bool(
        Offer.objects.filter(night=night, user=user, status=Offer.Status.PENDING).update(
            status=Offer.Status.DECLINED, answered_at=timezone.now()
        )
    )


def offer_next(night: Night, now: datetime | None = None) -> list[Offer]:
    """Offer every free seat to the next on the waitlist (the night's row must be locked)."""
    now = now or timezone.now()
    if not night.attendance_open(now):
        return []
    free = free_seats(night)
    if free <= 0:
        return []
    offered = Offer.objects.filter(night=night, status=Offer.Status.PENDING).values_list("user_id", flat=True)
    queue = (
        Rsvp.objects.filter(night=night, answer=Answer.WAITING)
        .exclude(user_id__in=list(offered))
        .select_related("user")
        .order_by("queue_number", "pk")[:free]
    )
    expires = min(now + timedelta(minutes=settings.CLUB_OFFER_MINUTES), night.starts_at)
    made = [Offer.objects.create(night=night, user=r.user, expires_at=expires) for r in queue]
    for offer in made:
        notifications.notify(offer.user, "offer", _night_url(night), night=night.title)
        _mail_offer(offer)  # stored with the offer, sent once it commits
    return made


def _mail_offer(offer: Offer) -> None:
    from clubs import mailer

    mailer.send_offer(offer)


def _changed(night: Night, user) -> None:  # noqa: ANN001
    reminders.sync(night, user)
    live.night_changed(night)


@transaction.atomic
def answer(night: Night, user, choice: str, *, organizer: bool = False, now: datetime | None = None) -> Rsvp:  # noqa: ANN001
    """``user`` answers going / maybe / no. ``organizer`` marks an organizer adding or removing
    someone: allowed after the deadline, but never past the capacity."""
    now = now or timezone.now()
    if choice not in (Answer.GOING, Answer.MAYBE, Answer.NO):
        raise RsvpError(_("Choose going, maybe or not going."))
    night = _locked(night)
    if night.cancelled:
        raise RsvpError(_("This night was cancelled."))
    if night.ended_at is not None:  # ended early, before its start: its record is closed
        raise RsvpError(_("This night has ended."))
    if now >= night.starts_at:
        raise RsvpError(_("This night has already started."))
    if not organizer and now >= night.rsvp_deadline:
        raise RsvpError(_("RSVPs for this night are closed."))
    if not Membership.objects.filter(club_id=night.club_id, user=user).exists():
        raise RsvpError(_("Only members of the club can answer."))
    rsvp = Rsvp.objects.filter(night=night, user=user).first() or Rsvp(night=night, user=user)
    before = rsvp.answer if rsvp.pk else None
    if choice == Answer.GOING:
        if before in (Answer.GOING, Answer.WAITING):
            return rsvp
        if free_seats(night) > 0:
            rsvp.answer, rsvp.queue_number = Answer.GOING, None
        elif organizer:
            raise RsvpError(_("The night is full: raise the capacity before adding someone."))
        else:
            _enqueue(night, rsvp)
        rsvp.save()
    else:
        rsvp.answer, rsvp.queue_number = choice, None
        rsvp.save()
        if _withdraw_offers(night, user) or before == Answer.GOING:
            offer_next(night, now)
    _changed(night, user)
    return rsvp


def settle_present(night: Night, user) -> None:  # noqa: ANN001
    """Someone checked in is going, whatever they answered before: a late member whose seat
    passed at the seat lock, or one who waited in line, is off the waitlist and keeps no offer
    (the night's row is locked by the check-in)."""
    rsvp = Rsvp.objects.filter(night=night, user=user).first() or Rsvp(night=night, user=user)
    if rsvp.pk and rsvp.answer == Answer.GOING:
        return
    rsvp.answer, rsvp.queue_number = Answer.GOING, None
    rsvp.save()
    _withdraw_offers(night, user)


def withdraw(night: Night, user) -> None:  # noqa: ANN001
    """A member leaving the club stops going and leaves the waitlist, whatever the deadline."""
    with transaction.atomic():
        night = _locked(night)
        rsvp = Rsvp.objects.filter(night=night, user=user).first()
        if rsvp is None:
            return
        was_going = rsvp.answer == Answer.GOING
        rsvp.answer, rsvp.queue_number = Answer.NO, None
        rsvp.save()
        if _withdraw_offers(night, user) or was_going:
            offer_next(night)
        _changed(night, user)


def pending_offer(night: Night, user) -> Offer | None:  # noqa: ANN001
    if not getattr(user, "is_authenticated", False):
        return None
    return Offer.objects.filter(night=night, user=user, status=Offer.Status.PENDING).first()


def _locked_offer(night: Night, offer_id: int, user, now: datetime) -> Offer:  # noqa: ANN001
    offer = Offer.objects.select_for_update().filter(pk=offer_id, night=night).first()
    if offer is None or offer.user_id != user.pk:
        raise RsvpError(_("There is no such offer for you."))
    if offer.status == Offer.Status.ACCEPTED:
        raise RsvpError(_("You have already accepted this seat."))
    if offer.status != Offer.Status.PENDING or offer.expires_at <= now:
        raise RsvpError(_("This offer has expired or was already answered."))
    return offer


def _answer_offer(night: Night, offer_id: int, user, status: str, now: datetime | None) -> Night:  # noqa: ANN001
    """Lock the night, then the offer; mark the offer answered. Returns the locked night."""
    now = now or timezone.now()
    night = _locked(night)
    if night.ended_at is not None:
        raise RsvpError(_("This night has ended."))
    offer = _locked_offer(night, offer_id, user, now)
    offer.status, offer.answered_at = status, now
    offer.save(update_fields=["status", "answered_at"])
    return night


@transaction.atomic
def accept(night: Night, offer_id: int, user, now: datetime | None = None) -> Rsvp:  # noqa: ANN001
    night = _answer_offer(night, offer_id, user, Offer.Status.ACCEPTED, now)
    rsvp = Rsvp.objects.get(night=night, user=user)
    rsvp.answer, rsvp.queue_number = Answer.GOING, None
    rsvp.save()
    _changed(night, user)
    return rsvp


@transaction.atomic
def decline(night: Night, offer_id: int, user, now: datetime | None = None) -> None:  # noqa: ANN001
    night = _answer_offer(night, offer_id, user, Offer.Status.DECLINED, now)
    Rsvp.objects.filter(night=night, user=user).update(answer=Answer.NO, queue_number=None)
    offer_next(night, now)
    _changed(night, user)


def expire(offer_id: int, now: datetime) -> bool:
    """The clock: an offer not taken in time passes to the next. Returns whether it expired here.
    The night is locked first (as every path does), then the offer is taken only if no other
    process holds it."""
    with transaction.atomic():
        night_id = Offer.objects.filter(pk=offer_id).values_list("night_id", flat=True).first()
        if night_id is None:
            return False
        night = Night.objects.select_for_update().select_related("club").get(pk=night_id)
        offer = (
            Offer.objects.select_for_update(skip_locked=True)
            .filter(pk=offer_id, status=Offer.Status.PENDING, expires_at__lte=now)
            .select_related("user")
            .first()
        )
        if offer is None:
            return False
        offer.status, offer.answered_at = Offer.Status.EXPIRED, now
        offer.save(update_fields=["status", "answered_at"])
        Rsvp.objects.filter(night=night, user=offer.user, answer=Answer.WAITING).update(
            answer=Answer.MAYBE, queue_number=None
        )
        notifications.notify(offer.user, "offer_expired", _night_url(night), night=night.title)
        offer_next(night, now)
        live.night_changed(night)
        return True


def capacity_changed(night: Night, now: datetime | None = None) -> None:
    """After an organizer raises the capacity (the row is locked by the caller)."""
    offer_next(night, now)
    live.night_changed(night)
