"""Series: occurrences keep their wall-clock time across a DST change and month ends; one
occurrence is cancelled or moved alone; the series is edited from a date onward."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

from clubs import nights, recurrence, rsvp
from clubs.models import Night, Series
from tests.platform.clubs.conftest import WEREWOLF_5


@pytest.fixture
def berlin(club):
    club.time_zone = "Europe/Berlin"
    club.save()
    return club


def _series(club, frequency: str, first: date, at: time = time(19, 0), **extra) -> Series:
    return Series.objects.create(
        club=club,
        frequency=frequency,
        first_date=first,
        local_time=at,
        title="Wolves",
        games=[WEREWOLF_5],
        capacity=8,
        address="Kneipe",
        **extra,
    )


NOW = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)


def test_weekly_nights_keep_19_00_local_across_the_dst_change(berlin, settings):
    settings.CLUB_SERIES_AHEAD = 6
    series = _series(berlin, Series.Frequency.WEEKLY, date(2026, 10, 15))  # a Thursday; DST ends 25 October
    made = recurrence.materialise(series, NOW)
    assert [n.occurrence_date for n in made] == [date(2026, 10, 15) + timedelta(weeks=i) for i in range(6)]
    utc_hours = [n.starts_at.astimezone(UTC).hour for n in made]
    assert utc_hours == [17, 17, 18, 18, 18, 18], "19:00 CEST is 17:00 UTC, 19:00 CET is 18:00 UTC"
    assert all(n.rsvp_deadline == n.starts_at - timedelta(hours=2) for n in made)


def test_every_two_weeks_skips_a_week(berlin):
    series = _series(berlin, Series.Frequency.BIWEEKLY, date(2026, 10, 15))
    assert recurrence.dates(series, date(2026, 10, 1), 3) == [
        date(2026, 10, 15),
        date(2026, 10, 29),
        date(2026, 11, 12),
    ]


def test_monthly_on_the_last_friday_lands_on_each_months_end(berlin):
    series = _series(berlin, Series.Frequency.MONTHLY, date(2026, 10, 30))  # the fifth, so the last, Friday
    assert recurrence.dates(series, date(2026, 10, 1), 4) == [
        date(2026, 10, 30),
        date(2026, 11, 27),
        date(2026, 12, 25),
        date(2027, 1, 29),
    ]


def test_monthly_on_the_second_tuesday(berlin):
    series = _series(berlin, Series.Frequency.MONTHLY, date(2026, 1, 13))
    assert recurrence.dates(series, date(2026, 1, 14), 3) == [date(2026, 2, 10), date(2026, 3, 10), date(2026, 4, 14)]


def test_materialising_again_adds_only_what_is_missing_and_never_revives_a_cancelled_night(berlin, settings):
    settings.CLUB_SERIES_AHEAD = 4
    series = _series(berlin, Series.Frequency.WEEKLY, date(2026, 10, 15))
    first = recurrence.materialise(series, NOW)
    nights.cancel_night(first[1])
    assert recurrence.materialise(series, NOW) == []
    later = NOW + timedelta(days=28)  # 15 and 22 October have passed
    added = recurrence.materialise(series, later)
    assert [n.occurrence_date for n in added] == [date(2026, 11, 12), date(2026, 11, 19)]
    assert Night.objects.filter(series=series, occurrence_date=date(2026, 10, 22)).get().cancelled


def test_moving_one_occurrence_leaves_the_others_and_it_is_not_made_again(berlin, settings):
    settings.CLUB_SERIES_AHEAD = 3
    series = _series(berlin, Series.Frequency.WEEKLY, date(2026, 10, 15))
    made = recurrence.materialise(series, NOW)
    moved_to = made[1].starts_at + timedelta(days=1)
    nights.update_night(made[1], {"starts_at": moved_to}, now=NOW)
    assert recurrence.materialise(series, NOW) == []
    starts = list(Night.objects.filter(series=series).order_by("occurrence_date").values_list("starts_at", flat=True))
    assert starts == [made[0].starts_at, moved_to, made[2].starts_at]


def test_editing_the_series_from_a_date_onward_changes_those_nights_and_keeps_their_rsvps(berlin, charlie, settings):
    settings.CLUB_SERIES_AHEAD = 4
    series = _series(berlin, Series.Frequency.WEEKLY, date(2026, 10, 15))
    made = recurrence.materialise(series, NOW)
    rsvp.answer(made[2], charlie, "going", now=NOW)
    changes = {"title": "Late wolves", "local_time": time(20, 30), "first_date": date(2026, 10, 29)}
    new = recurrence.edit_from(series, date(2026, 10, 29), None, changes, now=NOW)
    before = Night.objects.filter(pk__in=[made[0].pk, made[1].pk]).order_by("starts_at")
    assert [(n.title, n.series_id, n.sequence) for n in before] == [("Wolves", series.pk, 0)] * 2
    after = list(Night.objects.filter(series=new).order_by("starts_at"))
    assert [n.title for n in after] == ["Late wolves"] * 4
    assert after[0].pk == made[2].pk and after[0].sequence == 1
    assert after[0].starts_at == datetime(2026, 10, 29, 19, 30, tzinfo=UTC)  # 20:30 CET
    assert after[0].rsvps.get().user == charlie
    series.refresh_from_db()
    assert series.until == date(2026, 10, 28)
    assert recurrence.materialise(series, NOW) == [], "the old series makes nothing after its end"


def test_the_clock_keeps_a_series_materialised_ahead(berlin, settings):
    from clubs import due

    settings.CLUB_SERIES_AHEAD = 4
    series = _series(berlin, Series.Frequency.WEEKLY, date(2026, 10, 15))
    recurrence.materialise(series, NOW)
    later = NOW + timedelta(days=28)
    assert due.run_due(later, series=True) == 2 + 2, "two nights made, two past nights' RSVPs closed"
    assert due.run_due(later, series=True) == 0
    assert Night.objects.filter(series=series, starts_at__gt=later).count() == 4


def test_ending_a_series_from_a_night_cancels_it_and_the_later_ones_and_it_repeats_no_more(
    berlin, charlie, settings, client, bob
):
    settings.CLUB_SERIES_AHEAD = 4
    from django.utils import timezone

    series = _series(berlin, Series.Frequency.WEEKLY, timezone.now().date() + timedelta(days=3))
    made = recurrence.materialise(series)
    rsvp.answer(made[2], charlie, "going")
    client.force_login(bob)
    answer = client.post(f"/clubs/{berlin.slug}/nights/{made[1].pk}/end-series/", follow=True)
    assert "3 nights are cancelled" in answer.content.decode()
    states = dict(Night.objects.filter(series=series).values_list("pk", "cancelled"))
    assert states == {made[0].pk: False, made[1].pk: True, made[2].pk: True, made[3].pk: True}
    assert recurrence.materialise(series) == [], "it repeats no more"
    from clubs.models import Notification

    assert Notification.objects.filter(user=charlie, kind="night_cancelled").exists(), "those going are told"


def test_only_those_who_plan_end_a_series(berlin, charlie, client, settings):
    settings.CLUB_SERIES_AHEAD = 2
    from django.utils import timezone

    series = _series(berlin, Series.Frequency.WEEKLY, timezone.now().date() + timedelta(days=3))
    made = recurrence.materialise(series)
    client.force_login(charlie)
    assert client.post(f"/clubs/{berlin.slug}/nights/{made[0].pk}/end-series/").status_code == 403
    assert not Night.objects.filter(series=series, cancelled=True).exists()


def test_ending_a_series_over_a_night_whose_games_began_ends_nothing_and_says_why(berlin, client, bob, settings):
    """A later night of the series already has its tables confirmed: nothing is cancelled, the
    series still repeats, and the organizer reads why (it was a server error)."""
    from django.utils import timezone

    from clubs.models import Round

    settings.CLUB_SERIES_AHEAD = 3
    series = _series(berlin, Series.Frequency.WEEKLY, timezone.now().date() + timedelta(days=3))
    made = recurrence.materialise(series)
    Round.objects.create(night=made[2], number=1, status=Round.Status.CONFIRMED)
    client.force_login(bob)
    answer = client.post(
        f"/clubs/{berlin.slug}/nights/{made[1].pk}/end-series/", follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert answer.status_code == 200 and "games have begun" in answer.content.decode()
    assert not Night.objects.filter(series=series, cancelled=True).exists()
    assert Series.objects.get(pk=series.pk).until is None
