"""Club email that outlives a bad moment of the mail server, and a crash: each message is a row
(:class:`clubs.models.OutgoingMail`), stored with the change it tells of and tried once that has
committed, then again later until it is sent.

``clubs.mailer`` words every message inside its change's transaction, and :func:`send` stores it
there: the change and its mail commit together or not at all. A change that rolls back leaves no
mail about it, and a process that dies between the commit and the first try leaves the row, which
the clock tries once its hold (``CLAIM_MINUTES``) has passed. The first try runs as the
transaction commits (``on_commit``), in the caller's thread (a page view), so no mail server is
waited for while the change's rows are locked. Two kinds of first try go to the mail thread
instead: those of the clock's chores
(:func:`first_tries_on_the_mail_thread`), and every one in the ``MAIL_PAUSE_AFTER_FAILURE_S`` after
a try failed in this process, so a page that tells forty people of a cancelled night waits for at
most one timeout of a mail server that hangs, not forty. A try that
fails (the server is down, refuses the address, times out) is logged, changes nothing else, and is
tried again by the clock after 1, 5, 15, 60 and 180 minutes: six tries over about four and a half
hours, then the row is given up (``failed``, logged as an error). A message no longer of use is
given up instead of sent late (``expired``), checked before every retry (:func:`still_of_use`):
- once its moment has passed: a reminder once its night began (a "starting now" half an hour
  after), a seat offer once it expired, a night's change once the night began; a recap has none;
- once what it tells is no longer so: a reminder whose night was cancelled or whose person is no
  longer going, a seat offer answered on the site; a night's change or a reminder once a newer
  mail about that night was stored for that person (:data:`SUPERSEDES`).

Retries run on a thread of their own (one a process), never on the clock's thread or the event
loop: a mail server that answers slowly must not hold back a game's timeouts. So do the first
tries of the mail the clock's chores store (reminders, seat offers to the next in line). The
clock starts a round at most every ``MAIL_RETRY_EVERY_S`` and never while the last one still runs. A round takes
its rows with ``select_for_update(skip_locked)`` and holds each for ``CLAIM_MINUTES`` by moving
its next try, so two processes never send one message twice, and a process that dies in the middle
only delays its rows. A message tried at once is held the same way from the moment it is stored.

A seat offer's text holds a link that works without logging in. So the text and its calendar
entry are blanked once a row is sent or no longer of use, and the admin shows neither. A row whose
tries were used up keeps them: staff can send it again from the admin once the server is back
(:func:`send_again`), and it is still checked for use first.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import close_old_connections, connections, transaction
from django.db.models import QuerySet
from django.utils import timezone

from clubs.models import Night, Offer, OutgoingMail, Rsvp

log = logging.getLogger("clubs.mailer")

RETRY_MINUTES = (1, 5, 15, 60, 180)  # the waits after the 1st, 2nd, ... failed try
CLAIM_MINUTES = 10  # a row being tried is skipped by every other round this long
BATCH = 20

State = OutgoingMail.State
Kind = OutgoingMail.Kind

# A new mail about a night makes these kinds of waiting mail to the same person about it stale: a
# night's change tells the new time that an older change or a waiting reminder got wrong; a
# reminder ("starting now") replaces one still waiting ("soon").
SUPERSEDES = {Kind.NIGHT_UPDATE: [Kind.NIGHT_UPDATE, Kind.REMINDER], Kind.REMINDER: [Kind.REMINDER]}


def send(
    user,  # noqa: ANN001
    kind: str,
    subject: str,
    body: str,
    ics: bytes | None = None,
    method: str = "",
    not_after: datetime | None = None,
    night: Night | None = None,
) -> OutgoingMail | None:
    """Store one message to ``user`` about ``night`` in the caller's transaction, to be tried as
    it commits (at once outside one); the row, or None for a person without an address."""
    if not user.email:
        return None
    now = timezone.now()
    if night is not None and kind in SUPERSEDES:  # what still waits to tell the same person less is stale
        OutgoingMail.objects.filter(user=user, night=night, kind__in=SUPERSEDES[kind], state=State.PENDING).update(
            state=State.EXPIRED, next_try_at=None, body="", ics=""
        )
    mail = OutgoingMail.objects.create(
        user=user,
        night=night,
        to=user.email,
        kind=kind,
        subject=subject,
        body=body,
        ics=ics.decode() if ics is not None else "",
        ics_method=method,
        not_after=not_after,
        next_try_at=now + timedelta(minutes=CLAIM_MINUTES),  # held: the try at the commit is the first
    )
    elsewhere = getattr(_here, "first_tries_elsewhere", False)
    transaction.on_commit(lambda: _first_try(mail, elsewhere), robust=True)
    return mail


_here = threading.local()
_paused_until = [float("-inf")]  # time.monotonic() until which this process tries no mail inline


@contextmanager
def first_tries_on_the_mail_thread() -> Iterator[None]:
    """The mail stored inside is first tried on the mail thread once its change commits, not in
    this thread: the clock's chores, whose thread also applies the games' timeouts."""
    before = getattr(_here, "first_tries_elsewhere", False)
    _here.first_tries_elsewhere = True
    try:
        yield
    finally:
        _here.first_tries_elsewhere = before


def _first_try(mail: OutgoingMail, elsewhere: bool) -> None:
    if elsewhere or time.monotonic() < _paused_until[0]:
        _mail_thread().submit(_first_try_on_the_mail_thread, mail.pk)
        return
    deliver(mail)


def _first_try_on_the_mail_thread(pk: int) -> None:
    close_old_connections()
    try:
        mail = OutgoingMail.objects.filter(pk=pk, state=State.PENDING, attempts=0).first()
        if mail is not None:  # still held by its lease since it was stored: no round took it
            deliver(mail)
    except Exception:  # the row stays held, then due: a round tries it
        log.exception("first try of mail %s failed", pk)
    finally:
        connections.close_all()  # this thread's own


def deliver(mail: OutgoingMail) -> bool:
    """One try of ``mail`` (held by the caller: stored just now, or claimed); records the outcome."""
    message = EmailMessage(mail.subject, mail.body, to=[mail.to])
    if mail.ics:
        message.attach("night.ics", mail.ics, f"text/calendar; method={mail.ics_method}")  # Django adds the charset
    mail.attempts += 1
    try:
        message.send()
    except Exception as exc:  # after the commit: logged, retried later, and the other messages still go
        log.warning(
            "mail %r to user %s could not be sent (try %d)", mail.subject, mail.user_id, mail.attempts, exc_info=True
        )
        _paused_until[0] = time.monotonic() + settings.MAIL_PAUSE_AFTER_FAILURE_S
        _failed(mail, exc, timezone.now())
        return False
    mail.state, mail.sent_at, mail.next_try_at, mail.last_error = State.SENT, timezone.now(), None, ""
    _done_with(mail)
    return True


def _failed(mail: OutgoingMail, exc: Exception, now: datetime) -> None:
    mail.last_error = f"{type(exc).__name__}: {exc}"[:300]
    if mail.attempts > len(RETRY_MINUTES):
        log.error("mail %r to user %s given up after %d tries", mail.subject, mail.user_id, mail.attempts)
        mail.state, mail.next_try_at = State.FAILED, None  # its text kept: staff may send it again (admin)
        mail.save(update_fields=["state", "attempts", "last_error", "next_try_at"])
        return
    next_try = now + timedelta(minutes=RETRY_MINUTES[mail.attempts - 1])
    if mail.not_after is not None and next_try > mail.not_after:
        mail.state, mail.next_try_at = State.EXPIRED, None
        _done_with(mail)
        return
    mail.next_try_at = next_try
    mail.save(update_fields=["attempts", "last_error", "next_try_at"])


def _done_with(mail: OutgoingMail) -> None:
    mail.body = mail.ics = ""  # a seat offer's link works without logging in: not kept once used
    mail.save(update_fields=["state", "sent_at", "next_try_at", "attempts", "last_error", "body", "ics"])


def claim(now: datetime) -> list[OutgoingMail]:
    """The rows due for another try, each held for ``CLAIM_MINUTES``; those past their moment are
    given up here."""
    due = OutgoingMail.objects.filter(state=State.PENDING, next_try_at__lte=now)
    if not due.exists():
        return []  # a read first: on SQLite every write transaction takes the database's one lock
    with transaction.atomic():
        rows = list(due.select_for_update(skip_locked=True).order_by("next_try_at", "pk")[:BATCH])
        held = []
        for mail in rows:
            if (mail.not_after is not None and mail.not_after <= now) or not still_of_use(mail):
                mail.state, mail.next_try_at = State.EXPIRED, None
                _done_with(mail)
                continue
            mail.next_try_at = now + timedelta(minutes=CLAIM_MINUTES)
            mail.save(update_fields=["next_try_at"])
            held.append(mail)
    return held


def send_again(rows: QuerySet[OutgoingMail], now: datetime | None = None) -> int:
    """Staff's "send again" for rows whose tries were used up: due at once, with a fresh set of tries."""
    return rows.filter(state=State.FAILED).update(state=State.PENDING, attempts=0, next_try_at=now or timezone.now())


def still_of_use(mail: OutgoingMail) -> bool:
    """Whether what ``mail`` tells is still so, checked before each retry: a reminder while its
    night is on and its person going, a seat offer while it waits for an answer, a night's change
    until a newer one was stored. A recap always is."""
    if mail.night_id is None:
        return True
    if mail.kind == Kind.REMINDER:
        going = Rsvp.objects.filter(night_id=mail.night_id, user_id=mail.user_id, answer=Rsvp.Answer.GOING)
        return going.exists() and not Night.objects.filter(pk=mail.night_id, cancelled=True).exists()
    if mail.kind == Kind.OFFER:
        return Offer.objects.filter(night_id=mail.night_id, user_id=mail.user_id, status=Offer.Status.PENDING).exists()
    return True


def retry_due(now: datetime | None = None) -> int:
    """One round: try every due row once (up to ``BATCH``); how many went."""
    return sum(deliver(mail) for mail in claim(now or timezone.now()))


_threads: dict[int, ThreadPoolExecutor] = {}  # by process: a forked child makes its own
_round: list[Future[int] | None] = [None]
_last_round = [float("-inf")]


def retry_soon() -> Future[int] | None:
    """The clock's part: start a round on the mail thread, unless one runs or the last began less
    than ``MAIL_RETRY_EVERY_S`` ago (0: never)."""
    every = settings.MAIL_RETRY_EVERY_S
    running = _round[0]
    if not every or (running is not None and not running.done()) or time.monotonic() - _last_round[0] < every:
        return None
    _last_round[0] = time.monotonic()
    _round[0] = _mail_thread().submit(_round_on_the_mail_thread)
    return _round[0]


def _mail_thread() -> ThreadPoolExecutor:
    pid = os.getpid()
    if pid not in _threads:
        _threads[pid] = ThreadPoolExecutor(max_workers=1, thread_name_prefix="shabneshin-mail")
    return _threads[pid]


def _round_on_the_mail_thread() -> int:
    close_old_connections()
    try:
        return retry_due()
    except Exception:  # the rows stay due; the next round tries them
        log.exception("mail retry round failed")
        return 0
    finally:
        connections.close_all()  # this thread's own: rounds are rare, and tests can drop the database
