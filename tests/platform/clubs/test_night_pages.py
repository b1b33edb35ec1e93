"""The night's pages for every persona (alice owns the club, bob organizes, charlie is a member,
dave an outsider, gus a guest, nobody not logged in): every organizer action of issue 12 is
refused for the others and changes nothing; the recap and the verify page appear once the night
has ended; no page shows the night's seed before the end, nor a hidden role of a running match."""

from __future__ import annotations

import pytest

from clubs import checkin, commitment, recap, rounds, verify
from clubs.models import Award, CheckIn, Night, Penalty, PointsEntry, Round, RoundTable
from tables.models import Match
from tests.platform.clubs.tonight_helpers import DRACULA_AND_MONSTER, drawn, played

PERSONAS = ["alice", "bob", "charlie", "dave", "gus", "nobody"]
ORGANIZERS = {"alice", "bob"}
MEMBERS = {"alice", "bob", "charlie"}


def _snapshot(night):
    return (
        list(Round.objects.filter(night=night).values_list("pk", "status", "edits", "seating")),
        list(CheckIn.objects.filter(night=night).values_list("pk", "present")),
        PointsEntry.objects.filter(night=night).count(),
        Award.objects.count(),
        Penalty.objects.count(),
        Night.objects.filter(pk=night.pk).values_list("ended_at", flat=True).get(),
        Night.objects.count(),
    )


def _organizer_posts(night, round_, people):
    n = f"/clubs/wolves/nights/{night.pk}/"
    row = RoundTable.objects.filter(round__night=night).first()
    return [
        (n + "checkins/", {"action": "walk_in", "name": "Zed"}),
        (n + "rounds/", {"mode": "site"}),
        (n + f"rounds/{round_.pk}/", {"action": "rerun"}),
        (n + f"rounds/{round_.pk}/", {"action": "confirm"}),
        (n + f"rounds/{round_.pk}/", {"action": "start"}),
        (n + f"rounds/{round_.pk}/", {"action": "end"}),
        (n + "awards/", {"action": "pick", "table": row.pk if row else 0, "player": people[0].pk}),
        (n + "penalties/", {"action": "give", "player": people[0].pk, "reason": "late", "points": "1"}),
        (n + "end/", {}),
        (n + "repeat/", {}),
    ]


@pytest.mark.parametrize("persona", ["charlie", "dave", "gus", "nobody"])
def test_every_organizer_action_of_the_night_is_refused_for_others_and_changes_nothing(as_, persona, club, bob):
    night, people, round_ = played(club, bob)
    round_.status = Round.Status.DRAFT  # so that each action would otherwise act
    client = as_(persona)
    before = _snapshot(night)
    for url, data in _organizer_posts(night, round_, people):
        assert client.post(url, data).status_code == 403, (persona, url, data)
    assert _snapshot(night) == before


@pytest.mark.parametrize("persona", ["dave", "gus", "nobody"])
def test_a_private_clubs_night_pages_are_404_for_outsiders(as_, persona, private_club, bob):
    night, people, round_ = played(private_club, bob)
    recap.end_night(night, bob)
    client = as_(persona)
    n = f"/clubs/wolves/nights/{night.pk}/"
    for url in ("recap/", "verify/", ""):
        assert client.get(n + url).status_code == 404, (persona, url)
    for url, data in _organizer_posts(night, round_, people) + [(n + "here/", {}), (n + "vote/", {})]:
        assert client.post(url, data).status_code == 404, (persona, url)


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_recap_and_verify_pages_answer_the_clubs_members_once_the_night_ended(as_, persona, club, bob):
    night, people, round_ = played(club, bob)
    client = as_(persona)
    n = f"/clubs/wolves/nights/{night.pk}/"
    member = persona in MEMBERS
    assert client.get(n + "recap/").status_code == (404 if member else 403)
    assert client.get(n + "verify/").status_code == (404 if member else 403)
    recap.end_night(night, bob)
    page = client.get(n + "recap/")
    assert page.status_code == (200 if member else 403)
    assert client.get(n + "verify/").status_code == (200 if member else 403)
    assert ('data-testid="repeat-night"' in page.content.decode()) == (persona in ORGANIZERS)
    night_page = client.get(n).content.decode()
    assert ('data-testid="scoreboard"' in night_page) == member, "outsiders do not see the night's names"
    assert 'data-testid="seed-revealed"' in night_page


def test_an_organizer_runs_a_round_through_the_pages(client, club, bob):
    from tests.platform.clubs.tonight_helpers import checked_in

    night, people = checked_in(club, bob)
    client.force_login(bob)
    n = f"/clubs/wolves/nights/{night.pk}/"
    data = {
        "mode": "pick",
        "g": ["dracula", "monster"],
        "min-dracula": "2",
        "max-dracula": "2",
        "min-monster": "3",
        "max-monster": "3",
    }
    client.post(n + "rounds/", data)
    round_ = Round.objects.get(night=night)
    page = client.get(n).content.decode()
    assert 'data-testid="draft"' in page and "Seating quality" in page
    refused = client.post(n + f"rounds/{round_.pk}/", {"action": "swap", "a": "bad", "b": "u1"}, follow=True)
    assert "Choose two people to swap." in refused.content.decode()
    client.post(n + f"rounds/{round_.pk}/", {"action": "confirm"})
    client.post(n + f"rounds/{round_.pk}/", {"action": "start"})
    assert Match.objects.filter(table__night_table__round=round_).count() == 2
    stale = client.post(n + f"rounds/{round_.pk}/", {"action": "rerun"}, follow=True).content.decode()
    assert "already confirmed" in stale, "seating a started round is refused"
    client.force_login(people[0])
    mine = client.get(n).content.decode()
    assert 'data-testid="your-table"' in mine and 'data-testid="go-to-table"' in mine


def test_two_rounds_verify_step_by_step_and_a_tampered_input_shows(client, club, bob):
    night, people, round_ = played(club, bob)
    second = rounds.start_round(night, bob, DRACULA_AND_MONSTER)
    first_person = second.seating["tables"][0]["people"][0]
    other = second.seating["tables"][1]["people"][0]
    rounds.edit(night, second.pk, ["swap", first_person, other])
    rounds.confirm(night, second.pk, bob)
    recap.end_night(night, bob)
    night.refresh_from_db()
    report = verify.check(night)
    assert report["seed_ok"] and commitment.verify(night.seed_secret, night.seed_commitment)
    assert [r["ok"] for r in report["rounds"]] == [True, True] and report["all_ok"]
    assert [s["edit"] for s in report["rounds"][1]["stages"]] == [None, ["swap", first_person, other]]
    client.force_login(people[0])
    page = client.get(f"/clubs/wolves/nights/{night.pk}/verify/").content.decode()
    assert "Every round&#x27;s seating checks out." in page or "Every round's seating checks out." in page
    assert "Order drawn from the seed" in page and str(people[0]) in page, "each step, people named"
    Round.objects.filter(pk=second.pk).update(
        inputs={**second.inputs, "people": list(reversed(second.inputs["people"]))[:-1]}
    )
    assert not verify.check(night)["all_ok"]


def test_no_page_shows_the_seed_before_the_end_nor_a_running_matchs_hidden_roles(client, club, bob, charlie):
    from clubs import tonight

    night, people, round_ = drawn(club, bob)
    rounds.confirm(night, round_.pk, bob)
    rounds.start_tables(night, round_.pk)
    n = f"/clubs/wolves/nights/{night.pk}/"
    pages = []
    for viewer in (bob, people[0], charlie):
        client.force_login(viewer)
        pages.append(client.get(n).content.decode())
        assert client.get(n + "verify/").status_code == 404
        assert client.get(n + "recap/").status_code == 404
    for page in pages:
        assert night.seed_secret not in page
        for match in Match.objects.filter(table__night_table__round=round_):
            assert match.deal_secret not in page
    # the night's fragments read nothing of a running match's state: scramble it and they stay the same
    context_before = tonight.context(people[0], club, night, False)
    for match in Match.objects.filter(table__night_table__round=round_):
        state = dict(match.state)
        state["seats"] = [{"role": "SECRET-ROLE"} for _ in state["seats"]]
        state["hidden"] = {"x": "SECRET-HIDDEN"}
        Match.objects.filter(pk=match.pk).update(state=state)
    client.force_login(people[0])
    after = client.get(n).content.decode()
    assert "SECRET-ROLE" not in after and "SECRET-HIDDEN" not in after
    assert str(tonight.context(people[0], club, night, False)["round_tables"]) == str(context_before["round_tables"])


def test_the_recap_names_winners_with_roles_and_is_sent_in_the_clubs_language(
    club, bob, mailoutbox, django_capture_on_commit_callbacks
):
    night, people, round_ = played(club, bob)
    club.language = "fa"
    club.save()
    with django_capture_on_commit_callbacks(execute=True):
        recap.end_night(night, bob)
    assert {m.to[0] for m in mailoutbox} == {p.email for p in people}
    assert all("/recap/" in m.body and not m.subject.startswith("Recap") for m in mailoutbox)
    assert all(p.notifications.filter(kind="recap").exists() for p in people)
    ctx = recap.context(Night.objects.get(pk=night.pk))
    assert all(t["finished"] for t in ctx["tables"])
    assert any(row.winner and row.role for t in ctx["tables"] for row in t["players"])
    names = ctx["matrix"]["names"]
    assert len(names) == 5 and all(len(r[1]) == 5 for r in ctx["matrix"]["rows"])


def test_repeat_this_night_plans_the_next_one_with_the_same_settings(client, club, bob):
    night, people, round_ = played(club, bob)
    night.fair_roles = True
    night.save()
    recap.end_night(night, bob)
    client.force_login(bob)
    response = client.post(f"/clubs/wolves/nights/{night.pk}/repeat/")
    made = Night.objects.exclude(pk=night.pk).get()
    assert response["Location"].endswith(f"/nights/{made.pk}/")
    assert (made.title, made.games, made.capacity, made.fair_roles) == (night.title, night.games, night.capacity, True)
    assert made.starts_at > night.starts_at and made.seed_commitment != night.seed_commitment
    again = client.post(f"/clubs/wolves/nights/{night.pk}/repeat/")
    assert again["Location"] == response["Location"], "a second press leads to the same night"
    assert Night.objects.exclude(pk=night.pk).count() == 1


def test_check_in_is_refused_once_the_night_has_ended(club, bob):
    night, people, round_ = played(club, bob)
    recap.end_night(night, bob)
    with pytest.raises(checkin.CheckInError, match="ended"):
        checkin.add_walk_in(night, "Late", bob)


def test_the_night_recap_verify_and_standings_read_in_persian_with_persian_digits(club, bob):
    from django.test import Client

    night, people, round_ = played(club, bob)
    client = Client(HTTP_ACCEPT_LANGUAGE="fa")
    client.force_login(people[0])
    n = f"/clubs/wolves/nights/{night.pk}/"
    page = client.get(n).content.decode()
    assert "جدول امتیاز امشب" in page and "دور ۱" in page
    from clubs import scoreboard
    from clubs.models import RoundTable

    row = RoundTable.objects.filter(round=round_).first()
    scoreboard.award(row, bob, row.table.seats.filter(user__isnull=False).first().user_id)
    recap.end_night(night, bob)
    awards = client.get(n + "recap/").content.decode().split('data-testid="recap-awards"')[1].split("</ul>")[0]
    assert "دور ۱، " in awards and ", " not in awards and " :" not in awards, awards
    for url, words in [
        (n + "recap/", "چه کسی با چه کسی بازی کرد"),
        (n + "verify/", "چینش همهٔ دورها درست است."),
        ("/clubs/wolves/standings/", "جدول رده‌بندی"),
    ]:
        text = client.get(url).content.decode()
        assert words in text, url
        assert "Round 1" not in text and "Tonight" not in text, url


def test_bad_round_input_is_refused_with_a_message_and_draws_nothing(client, club, bob):
    from tests.platform.clubs.tonight_helpers import checked_in

    night, people = checked_in(club, bob)
    client.force_login(bob)
    url = f"/clubs/wolves/nights/{night.pk}/rounds/"
    for data, text in [
        ({"mode": "pick", "g": ["chess"]}, "There is no such game."),
        ({"mode": "pick", "g": ["monster"], "min-monster": "x"}, "Give the number of players as a number."),
        ({"mode": "pick", "g": ["monster"], "min-monster": "1"}, "takes 2 to 5 players"),
        ({"mode": "pick"}, "Choose at least one game."),
    ]:
        assert text in client.post(url, data, follow=True).content.decode(), data
    assert not Round.objects.exists()
    assert (
        client.post(f"/clubs/wolves/nights/{night.pk}/rounds/999/", {"action": "confirm"}, follow=True).status_code
        == 200
    )
    assert (
        "There is no such round."
        in client.post(
            f"/clubs/wolves/nights/{night.pk}/rounds/999/", {"action": "confirm"}, follow=True
        ).content.decode()
    )


def test_repeat_a_series_night_goes_to_its_next_occurrence_with_fair_roles(club, bob):
    from datetime import timedelta

    from django.utils import timezone

    from clubs import nights
    from tests.platform.clubs.conftest import night_fields

    starts = timezone.now().replace(microsecond=0) + timedelta(days=1)
    series = nights.create_series(club, bob, "weekly", night_fields(starts_at=starts, rsvp_deadline=starts))
    first, second = list(series.nights.order_by("starts_at")[:2])
    Night.objects.filter(pk=first.pk).update(fair_roles=True)
    first.refresh_from_db()
    assert recap.repeat(first, bob).pk == second.pk
    assert Night.objects.get(pk=second.pk).fair_roles


def test_a_running_tables_move_count_takes_the_singular_for_one_move(client, club, bob):
    """A table one move in reads «1 move», not «1 moves»; one with more reads «N moves»."""
    night, _people, round_ = drawn(club, bob)
    rounds.confirm(night, round_.pk, bob)
    rounds.start_tables(night, round_.pk)
    one, more = Match.objects.filter(table__night_table__round=round_).order_by("pk")[:2]
    Match.objects.filter(pk=one.pk).update(version=1)
    Match.objects.filter(pk=more.pk).update(version=7)
    client.force_login(bob)
    page = client.get(f"/clubs/{club.slug}/nights/{night.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 move<" in page and "7 moves<" in page and "1 moves" not in page


def test_the_recap_mail_writes_each_total_as_the_scoreboard_does(club, bob, django_capture_on_commit_callbacks):
    """A whole number of points reads «10» in the recap mail, as on the night's scoreboard, not
    «10.0» (the stored total keeps a decimal place)."""
    from django.core import mail

    from clubs import scoreboard
    from tables.templatetags.persian import short_number

    club.language = "en"
    club.save()
    night, people, _round = played(club, bob)
    totals = scoreboard.totals(night)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        recap.end_night(night, bob)
    body = next(m.body for m in mail.outbox if m.to == [people[0].email])
    for person in people:
        line = next(line for line in body.splitlines() if f". {person}: " in line)
        assert line.split(": ", 1)[1].split(" ")[0] == short_number(totals.get(person.pk, 0)), line
    assert ".0" not in body.split("\n\n")[1]
