"""A member's forms on a night's page (the answer, "I'm here") posted from a page left open after
the member was removed: status 403, but the night's page as it now is with the reason, in the
reader's language, and nothing changed; never the site's bare "Not allowed" page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from clubs import members, nights, rsvp
from clubs.models import CheckIn, Membership, Rsvp
from tests.platform.clubs.conftest import night_fields

REASONS = {
    "rsvp": {
        "en": "Only members of the club can answer. Nothing was saved.",
        "fa": "فقط اعضای باشگاه می‌توانند پاسخ دهند. چیزی ذخیره نشد.",
    },
    "here": {
        "en": "Only members of the club can check in themselves. Nothing was saved.",
        "fa": "فقط اعضای باشگاه می‌توانند ورود خود را ثبت کنند. چیزی ذخیره نشد.",
    },
}


def _removed(club, alice, charlie) -> Client:
    members.remove(club, alice, str(Membership.objects.get(club=club, user=charlie).pk))
    return Client()


@pytest.mark.parametrize("language", ["en", "fa"])
def test_a_removed_member_answering_from_a_stale_page_is_told_why_on_the_nights_page(
    club, night, alice, charlie, language
):
    rsvp.answer(night, charlie, "maybe")
    client = _removed(club, alice, charlie)
    client.force_login(charlie)
    response = client.post(f"/clubs/wolves/nights/{night.pk}/rsvp/", {"answer": "going"}, HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert response.status_code == 403
    assert REASONS["rsvp"][language] in page
    assert 'data-testid="night-page"' in page and night.title in page, "the page they came from, as it now is"
    assert 'data-testid="error-page"' not in page
    assert list(Rsvp.objects.filter(night=night).values_list("answer", flat=True)) == ["maybe"], "nothing changed"


@pytest.mark.parametrize("language", ["en", "fa"])
def test_a_removed_member_checking_in_from_a_stale_page_is_told_why_on_the_nights_page(
    club, bob, alice, charlie, language
):
    starts = timezone.now().replace(microsecond=0) + timedelta(minutes=30)
    tonight = nights.create_night(club, bob, night_fields(starts_at=starts, rsvp_deadline=starts - timedelta(hours=2)))
    rsvp.answer(tonight, charlie, "going", organizer=True)
    client = _removed(club, alice, charlie)
    client.force_login(charlie)
    response = client.post(f"/clubs/wolves/nights/{tonight.pk}/here/", HTTP_ACCEPT_LANGUAGE=language)
    page = response.content.decode()
    assert response.status_code == 403
    assert REASONS["here"][language] in page
    assert 'data-testid="night-page"' in page and 'data-testid="error-page"' not in page
    assert not CheckIn.objects.exists()


def test_a_member_of_a_suspended_club_still_gets_the_plain_refusal(club, night, charlie):
    club.suspended = True
    club.save()
    client = Client()
    client.force_login(charlie)
    assert client.post(f"/clubs/wolves/nights/{night.pk}/rsvp/", {"answer": "going"}).status_code in (403, 404)
    assert not Rsvp.objects.exists()
