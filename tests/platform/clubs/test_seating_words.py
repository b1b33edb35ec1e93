"""The seating's steps and refusals name games by their translated names and people by theirs, in
either language: a new round keeps its games, tables and people as data, and an old round, whose
steps hold them as plain text ("dracula (2-2)"), is read back into the same words."""

from __future__ import annotations

import re

from django.core import mail
from django.test import Client

from clubs import recap, rounds
from clubs.models import Round
from tests.platform.clubs.tonight_helpers import drawn, played


def _organizer_page(bob, night, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(bob)
    return client.get(f"/clubs/{night.club.slug}/nights/{night.pk}/").content.decode()


def _drawn_steps(bob, night, language: str) -> str:
    page = _organizer_page(bob, night, language)
    return page[page.index('data-testid="draft"') :].split("</details>", 1)[0]


def test_the_seating_steps_name_the_games_and_their_player_counts_in_english(club, bob):
    night, people, _round = drawn(club, bob)
    steps = _drawn_steps(bob, night, "en")
    assert "Dracula vs Van Helsing (2 players), Monster (3 players)" in steps
    assert "Tables: Dracula vs Van Helsing with 2 players, Monster with 3 players." in steps
    assert not re.search(r"\b(dracula|monster) \(?[0-9]", steps), "no game's code"
    assert str(people[0]) in steps


def test_the_seating_steps_name_the_games_in_persian_with_the_persian_comma(club, bob):
    night, people, _round = drawn(club, bob)
    steps = _drawn_steps(bob, night, "fa")
    assert "دراکولا در برابر ون هلسینگ (۲ بازیکن)، هیولا (۳ بازیکن)" in steps
    assert "میزها: دراکولا در برابر ون هلسینگ با ۲ بازیکن، هیولا با ۳ بازیکن." in steps
    assert "dracula" not in steps and "monster" not in steps


def test_an_old_rounds_steps_stored_as_plain_text_read_as_well_as_a_new_ones(club, bob):
    night, people, round_ = drawn(club, bob)
    ids = round_.inputs["people"]
    old = {
        "Round inputs: %(people)d people checked in, %(locked)d locked tables, games: %(games)s.": {
            "people": 5,
            "locked": 0,
            "games": "dracula (2-2), monster (3-3)",
        },
        "Order drawn from the seed: %(order)s.": {"order": ", ".join(ids)},
        "Tables: %(tables)s.": {"tables": "dracula 2, monster 2+1"},
    }
    seating = {**round_.seating, "steps": [{"msgid": m, "params": p} for m, p in old.items()]}
    Round.objects.filter(pk=round_.pk).update(seating=seating)
    steps = _drawn_steps(bob, night, "fa")
    assert "دراکولا در برابر ون هلسینگ (۲ بازیکن)، هیولا (۳ بازیکن)" in steps
    assert "هیولا با ۲ بازیکن و ۱ ربات" in steps
    in_order = sorted(people, key=lambda p: ids.index(f"u{p.pk}"))
    assert "، ".join(f"\u2068{p}\u2069" for p in in_order) in steps, "each name isolated, as it is written"
    assert "dracula" not in steps and "u" + str(people[0].pk) not in steps


def test_a_refused_swap_names_the_person_not_their_id(club, bob):
    night, people, round_ = drawn(club, bob)
    table = round_.seating["tables"][0]
    rounds.edit(night, round_.pk, ["lock", 0])
    other = round_.seating["tables"][1]["people"][0]
    try:
        rounds.edit(night, round_.pk, ["swap", table["people"][0], other])
    except rounds.RoundError as exc:
        message = exc.message
    else:
        raise AssertionError("a locked table's person was swapped")
    assert table["people"][0] not in message
    assert any(str(p) in message for p in people)


def _no_digit_changed_in_a_name(html: str, people) -> None:
    steps = "\n".join(re.findall(r"<li>(.*?)</li>", html.split("<ol", 1)[1]))
    assert all(f"\u2068{p}\u2069" in steps for p in people), "P3 as the person wrote it"
    assert not re.search("P[۰-۹]", steps)
    outside_names = re.sub("\u2068[^\u2069]*\u2069", "", steps)
    assert "۵" in outside_names and not re.search("[0-9]", outside_names), "the site's numbers in Persian digits"


def test_a_name_keeps_its_own_digits_in_the_persian_seating_steps(club, bob):
    """The players P0 to P4: a step read «P۳», the whole line put through the digits."""
    night, people, _round = drawn(club, bob)
    _no_digit_changed_in_a_name(_drawn_steps(bob, night, "fa"), people)


def test_a_name_keeps_its_own_digits_in_the_persian_check_of_the_seating(club, bob):
    night, people, _round = played(club, bob)
    recap.end_night(night, bob)
    client = Client(HTTP_ACCEPT_LANGUAGE="fa")
    client.force_login(bob)
    page = client.get(f"/clubs/{club.slug}/nights/{night.pk}/verify/").content.decode()
    _no_digit_changed_in_a_name(page[page.index('<ol class="muted verify-steps"') :].split("</ol>", 1)[0], people)


def test_the_persian_recap_mail_keeps_each_names_own_digits(club, bob, django_capture_on_commit_callbacks):
    """Its scoreboard line read «۱. P۳: ۱۲»: the whole line put through the digits."""
    night, people, _round = played(club, bob)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        recap.end_night(night, bob)
    body = next(m.body for m in mail.outbox if m.to == [people[0].email])
    lines = [line for line in body.splitlines() if re.match("[۰-۹]+\\. ", line)]
    assert {line.split(": ")[0].split(". ", 1)[1] for line in lines} == {str(p) for p in people}
    assert not re.search("[0-9]", "".join(line.replace(line.split(": ")[0].split(". ", 1)[1], "") for line in lines))


def test_a_notification_keeps_the_digits_of_a_nights_title(club, bob, charlie):
    """«Round 2 of Night 7 is ready» read «… شب ۷» in Persian: the title is the organizer's."""
    from django.utils import translation

    from clubs import notifications

    notification = notifications.notify(charlie, "your_table", "/", night="Night 7", round=2)
    with translation.override("fa"):
        said = notifications.text(notification)
    assert "Night 7" in said and "۲" in said
