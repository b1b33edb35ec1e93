"""Mail goes out after its change commits: a message the mail server refuses is logged, never an
error page, never undoes the change, and never keeps the next person's message or the night
page's live update from going (clubs.mailer)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.urls import reverse

from clubs import live, nights, rsvp
from clubs.models import Night
from tests.platform.clubs.conftest import add_members

REFUSED = "m0@example.com"


class RefusingBackend(EmailBackend):
    """The test outbox, with a mail server that refuses one address."""

    def send_messages(self, messages):
        for message in messages:
            if REFUSED in message.to:
                raise ConnectionRefusedError(f"the mail server refused {REFUSED}")
        return super().send_messages(messages)


@pytest.fixture
def refusing_mail(settings):
    settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"


def test_a_refused_cancel_mail_leaves_the_night_cancelled_and_the_others_mailed(
    club, night, refusing_mail, django_capture_on_commit_callbacks, caplog
):
    refused, other = add_members(club, 2)
    for person in (refused, other):
        rsvp.answer(night, person, "going")
    with django_capture_on_commit_callbacks(execute=True):
        nights.cancel_night(night)
    assert Night.objects.get(pk=night.pk).cancelled
    assert [m.to for m in mail.outbox] == [[other.email]]
    assert f"to user {refused.pk} could not be sent" in caplog.text


def test_an_organizer_cancelling_while_mail_is_down_sees_the_normal_answer_and_the_page_is_told(
    client, club, night, bob, refusing_mail, monkeypatch, django_capture_on_commit_callbacks
):
    (refused,) = add_members(club, 1)
    rsvp.answer(night, refused, "going")
    told: list[str] = []
    monkeypatch.setattr(live.broadcast, "send", lambda group, message: told.append(group))
    client.force_login(bob)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("clubs:night_cancel", kwargs={"slug": club.slug, "night_id": night.pk}))
    assert response.status_code == 302
    assert Night.objects.get(pk=night.pk).cancelled and mail.outbox == []
    assert told == [live.group_name(night.pk)], "the live update still went after the refused mail"
