"""Options the rules refuse get a translated message at creation; a draw reads as a draw."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import registry
from tables import seating
from tables.models import Table


def _form(slug: str, seat_count: int, **options: object) -> dict[str, str]:
    data = {"seat_count": str(seat_count), "visibility": "private", "speed": "normal"}
    for option in registry.get(slug).options:
        data[f"opt_{option.key}"] = str(options.get(option.key, option.default))
    return data


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "A table of 7 players needs the advanced guests (only seven basic guests exist): turn them on."),
        ("fa", "میز ۷ نفره به مهمانان پیشرفته نیاز دارد (فقط هفت مهمان پایه وجود دارد): آن‌ها را روشن کنید."),
    ],
)
def test_the_create_form_refuses_a_seven_player_mummy_table_without_advanced_guests(client, alice, language, message):
    client.force_login(alice)
    url = reverse("tables:create", args=["mummy"])
    response = client.post(url, _form("mummy", 7, advanced_guests=False), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200 and not Table.objects.exists()
    assert message in response.content.decode()
    # The form keeps what was chosen, and turning the guests on creates the table.
    assert 'value="7" selected' in response.content.decode()
    response = client.post(url, _form("mummy", 7, advanced_guests=True), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 302 and Table.objects.get().options["advanced_guests"] is True


def _ticked(html: str, name: str) -> bool:
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    return tag is not None and " checked" in tag[0]


@pytest.mark.parametrize(
    ("language", "again"),
    [
        ("en", "That change is made below: press «Create table» again."),
        ("fa", "این تغییر در پایین انجام شده است: دوباره «ساختن میز» را بزنید."),
    ],
)
def test_a_refused_seven_player_mummy_table_comes_back_with_advanced_guests_ticked_beside_the_reason(
    client, alice, language, again
):
    """The spec refuses 7–8 players without the advanced guests (the engine still raises); the form
    comes back with them ticked and says so beside the box, so one more press creates the table, and
    the table has exactly what the host sent then."""
    client.force_login(alice)
    url = reverse("tables:create", args=["mummy"])
    assert not _ticked(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode(), "opt_advanced_guests")
    data = _form("mummy", 7, advanced_guests=False)
    del data["opt_advanced_guests"]  # an unticked box is not sent
    html = client.post(url, data, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert not Table.objects.exists()
    assert _ticked(html, "opt_advanced_guests")
    beside = re.search(r'<ul class="errorlist" id="id_opt_advanced_guests_error">(.*?)</ul>', html, re.S)
    assert beside is not None and again in beside[1], "the reason and what to do stand beside the box"
    assert client.post(url, {**data, "opt_advanced_guests": "on"}).status_code == 302
    assert Table.objects.get().options["advanced_guests"] is True


def test_a_refusal_the_game_names_no_remedy_for_keeps_every_choice_as_sent(db):
    from tables.forms import CreateTableForm

    with pytest.raises(seating.SeatingError) as refused:
        seating.validated_options("insidejob", 3, {"special_roles": ["S2", "S8"]})
    assert refused.value.fix == {}
    data = _form("insidejob", 3)
    form = CreateTableForm(registry.get("insidejob"), data)
    assert form.is_valid()
    form.refuse(refused.value)
    assert form.non_field_errors() == [refused.value.message]
    assert form.data == data, "nothing changed for the host"


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "The Turncoat and the Accomplice cannot both play at three players"),
        ("fa", "خائن و همدست در بازی سه‌نفره نمی‌توانند با هم باشند"),
    ],
)
def test_an_inside_job_list_the_deck_rules_refuse_is_refused_with_the_specs_reason(alice, language, message):
    from django.utils import translation

    with translation.override(language), pytest.raises(seating.SeatingError) as refused:
        seating.create_table(alice, "insidejob", 3, "private", {"special_roles": ["S2", "S8"]})
    assert message in refused.value.message and not Table.objects.exists()


def test_an_inside_job_list_outside_the_menu_is_accepted_when_the_rules_allow_it(alice):
    table = seating.create_table(alice, "insidejob", 4, "private", {"special_roles": ["S3", "S4"]})
    assert table.options["special_roles"] == ["S3", "S4"]


def _drawn_mummy_match(alice, bob, charlie, dave):
    """Four players let every first turn time out: the round limit of 1 ends the night in a draw."""
    from tests.platform.helpers import play_until_over

    table = seating.create_table(alice, "mummy", 4, "private", {"max_rounds": 1, "first_player": 0})
    for player in (bob, charlie, dave):
        seating.sit(table, player)
    seating.start(table, alice, seed=5)
    from tables.models import Match

    return play_until_over(Match.objects.get(table=table))


@pytest.mark.parametrize(
    ("language", "draw", "status"),
    [("en", "A draw: nobody won.", "A draw."), ("fa", "مساوی: هیچ‌کس نبرد.", "مساوی شد.")],
)
def test_a_drawn_match_says_draw_on_the_table_history_and_match_pages(
    client, alice, bob, charlie, dave, language, draw, status
):
    match = _drawn_mummy_match(alice, bob, charlie, dave)
    assert match.result["draw"] is True and match.result["winners"] == []
    client.force_login(bob)
    table_page = client.get(reverse("tables:detail", args=[match.table.token]), HTTP_ACCEPT_LANGUAGE=language)
    assert status in table_page.content.decode()
    detail = client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert draw in detail
    games = client.get(reverse("history:my_games"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert ("draw" if language == "en" else "مساوی") in games
    assert ("lost" if language == "en" else "باخت") + "</td>" not in games, "the result column does not say lost"


def test_a_match_with_a_winner_does_not_say_draw(client, alice, bob):
    from tests.platform.helpers import play_until_over, started_werewolf

    match = play_until_over(started_werewolf(alice, [bob]))
    assert match.result["draw"] is False
    client.force_login(bob)
    for url in (reverse("history:match", args=[match.pk]), reverse("tables:detail", args=[match.table.token])):
        assert 'data-testid="draw"' not in client.get(url).content.decode()
    assert ">draw<" not in client.get(reverse("history:my_games")).content.decode()
