"""Names a table can tell apart and that cannot reorder a line; and the wording a new player
tripped on: arrows that point the reading way, each seat named after the game, "you" for
yourself, a neutral mark for the dead, the villager's pick explained, options as words."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from accounts.names import clean_display_name, looks_like_a_bot, without_format_characters
from tables import seating
from tables.models import Match, Table
from tables.rendering import context_for, render_fragment, seat_names
from tests.platform.helpers import fresh, play_until, play_until_over, started_werewolf

RLO, LRI, PDI, ZWSP, ZWNJ = "\u202e", "\u2066", "\u2069", "\u200b", "\u200c"


def _fragment(match: Match, user, part: str, language: str) -> str:
    with translation.override(language):
        return render_fragment(part, context_for(fresh(match).table, user))


def _public_view(match: Match) -> dict:
    return match.engine.view(match.state, None)


def _user(username: str, display: str) -> User:
    return User.objects.create_user(username=username, password="a-long-password-1", display_name=display)


# --- display names --------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "second"), [("fa", "نگار ۲"), ("en", "نگار 2")])
def test_a_second_player_with_the_same_name_is_shown_with_a_number(db, language, second):
    host, twin = _user("negar1", "نگار"), _user("negar2", "نگار")
    table = seating.create_table(host, "werewolf", 5, Table.Visibility.PRIVATE)
    seating.sit(table, twin)
    with translation.override(language):
        names = seat_names(table)
    assert names[:2] == ["نگار", second]
    assert len(set(names[:2])) == 2


def test_names_that_differ_only_in_case_count_as_the_same(db):
    host, twin = _user("sara1", "Sara"), _user("sara2", "SARA")
    table = seating.create_table(host, "werewolf", 5, Table.Visibility.PRIVATE)
    seating.sit(table, twin)
    with translation.override("en"):
        assert seat_names(table)[:2] == ["Sara", "SARA 2"]


@pytest.mark.parametrize("name", ["Bot 3", "bot3", "BOT", "ربات ۳", "ربات3", "ربات ٣", "ＢＯＴ ３", f"Bot{ZWSP} 3"])
def test_a_guest_cannot_be_called_like_a_bot(client, db, name):
    response = client.post(reverse("accounts:guest"), {"display_name": name}, HTTP_ACCEPT_LANGUAGE="fa")
    assert response.status_code == 200
    assert "این نام برای ربات‌های تمرینی است" in response.content.decode()
    assert not User.objects.exists()


def test_names_that_only_contain_the_word_bot_are_fine():
    assert not looks_like_a_bot("Abbott") and not looks_like_a_bot("رباتیک") and not looks_like_a_bot("Bot lover")
    assert clean_display_name("Robot 3") == "Robot 3"


def test_format_characters_are_stripped_from_a_guests_name_but_the_persian_zwnj_stays(client, db):
    client.post(reverse("accounts:guest"), {"display_name": f"{RLO}Sara{ZWSP} {LRI}x{PDI}"})
    assert User.objects.get().display_name == "Sara x"
    assert without_format_characters(f"می{ZWNJ}روم") == f"می{ZWNJ}روم"


def test_format_characters_are_stripped_at_sign_up(client, db):
    client.post(
        reverse("accounts:signup"),
        {"username": "sara", "display_name": f"Sa{RLO}ra", "password1": "a-long-pass-1", "password2": "a-long-pass-1"},
    )
    assert User.objects.get(username="sara").display_name == "Sara"


def test_a_name_alone_of_format_characters_is_refused(client, db):
    response = client.post(reverse("accounts:guest"), {"display_name": RLO * 4}, HTTP_ACCEPT_LANGUAGE="en")
    assert "at least two visible characters" in response.content.decode() and not User.objects.exists()


def test_a_crafted_right_to_left_override_name_cannot_reverse_a_line(alice):
    """An account made before the stripping (here: written straight to the database) is still shown
    without its override, and every name sits in its own <bdi>."""
    mallory = _user("mallory", f"{RLO}yrollam")
    match = started_werewolf(alice, [mallory])
    seats = _fragment(match, alice, "seats", "fa")
    assert RLO not in seats
    assert "<bdi>yrollam</bdi>" in seats and "<bdi>Alice</bdi>" in seats
    log = _fragment(play_until_over(match), alice, "log", "fa")
    assert RLO not in log and "<bdi>yrollam</bdi>" in log


def test_names_are_isolated_in_chat_and_the_waiting_line(client, alice, bob):
    match = started_werewolf(alice, [bob])
    awaited = match.engine.awaiting(match.state)
    status = _fragment(match, alice if 0 not in awaited else bob, "status", "en")
    assert "<bdi>" in status, "the 'waiting for' line names the awaited seat in a <bdi>"
    from tables.chat import post

    table = fresh(match).table
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    post(table, bob, "hello")
    assert "<strong><bdi>Bob</bdi></strong>" in _fragment(match, alice, "chat", "en")


# --- werewolf wording -----------------------------------------------------------------------


def test_the_vote_reveal_arrow_points_the_reading_way_in_each_language(alice):
    match = play_until(started_werewolf(alice), lambda m: any(e["kind"] == "votes_revealed" for e in m.state["log"]))
    persian, english = _fragment(match, alice, "log", "fa"), _fragment(match, alice, "log", "en")
    assert "←" in persian and "→" not in persian
    assert "→" in english and "←" not in english


def test_after_the_game_the_werewolf_log_names_each_seats_role(alice, charlie):
    match = play_until_over(started_werewolf(alice))
    spectator = _fragment(match, charlie, "log", "fa")
    assert "نقش شما" not in spectator
    with translation.override("fa"):
        names = seat_names(fresh(match).table)
    for name in names:
        assert f"نقش <bdi>{name}</bdi>" in spectator
    own = _fragment(match, alice, "log", "fa")
    assert own.count("نقش شما") == 1 and "نقش <bdi>Alice</bdi>" not in own


def test_the_history_page_names_each_seats_role_too(client, alice):
    match = play_until_over(started_werewolf(alice))
    client.force_login(alice)
    page = client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert page.count("نقش شما") == 1 and "نقش <bdi>ربات ۲</bdi>" in page


def test_a_player_is_spoken_to_in_the_second_person_about_their_own_vote(alice):
    match = play_until(
        started_werewolf(alice), lambda m: m.state["public"]["phase"] == "day_vote" and 0 in m.engine.awaiting(m.state)
    )
    board = _fragment(match, alice, "board", "fa")
    assert "شما در حال رأی دادن هستید" in board and "<bdi>Alice</bdi> در حال رأی دادن است" not in board
    # Others read whom the table waits for in #status, not on the board (tables/board_view.py).
    assert "Waiting for: <bdi>Alice</bdi>" in _fragment(match, None, "status", "en")
    assert "Alice" not in _fragment(match, None, "board", "en")


def test_the_dead_get_a_neutral_out_mark_not_a_cross(alice):
    match = play_until(started_werewolf(alice), lambda m: len(_public_view(m)["alive"]) < 5)
    seats = _fragment(match, alice, "seats", "fa")
    assert "✝" not in seats and "بیرون از بازی" in seats and 'class="badge dead out"' in seats


def test_the_villagers_night_pick_explains_itself_in_one_line(alice, bob):
    roles = ["VILLAGER", "SEER", "WOLF", "DOCTOR", "VILLAGER"]
    match = play_until(started_werewolf(alice, roles=roles), lambda m: _public_view(m)["turn_seat"] == 0)
    board = _fragment(match, alice, "board", "en")
    assert 'data-testid="villager-why"' in board and "Your pick does nothing" in board
    wolves = ["WOLF", "SEER", "VILLAGER", "DOCTOR", "VILLAGER"]
    wolf = play_until(started_werewolf(bob, roles=wolves), lambda m: _public_view(m)["turn_seat"] == 0)
    assert 'data-testid="villager-why"' not in _fragment(wolf, bob, "board", "en")


# --- options and accounts -------------------------------------------------------------------


@pytest.mark.parametrize("language", ["fa", "en"])
def test_inside_jobs_create_form_shows_words_and_checkboxes_not_true_and_false(client, alice, language):
    client.force_login(alice)
    page = client.get(reverse("tables:create", args=["insidejob"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert ">True<" not in page and ">False<" not in page
    assert 'type="checkbox" name="opt_wagers"' in page and 'type="checkbox" name="opt_risky"' in page


def test_a_ticked_option_reaches_the_table_and_an_unticked_one_stays_off(client, alice):
    client.force_login(alice)
    form = {"seat_count": "3", "visibility": "private", "speed": "normal", "opt_wagers": "on"}
    form |= {"opt_special_roles": "[]", "opt_handicap": "none"}
    response = client.post(reverse("tables:create", args=["insidejob"]), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    options = Table.objects.get().options
    assert options["wagers"] is True and options["risky"] is False


def test_password_errors_speak_persian_with_persian_digits(client, db):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "sara", "password1": "abc", "password2": "abc"},
        HTTP_ACCEPT_LANGUAGE="fa",
    )
    page = response.content.decode()
    assert "این گذرواژه خیلی کوتاه است: دست‌کم ۸ نویسه لازم است." in page
    assert "This password" not in page and "رمز عبور" not in page


def test_a_wrong_log_in_is_told_in_persian(client, db):
    response = client.post(reverse("accounts:login"), {"username": "x", "password": "y"}, HTTP_ACCEPT_LANGUAGE="fa")
    assert "این نام کاربری و گذرواژه با هیچ حسابی جور نیست" in response.content.decode()


def test_the_mummy_phase_line_speaks_to_the_active_player_as_you(alice, bob):
    from tests.platform.test_mummy_ui import started_mummy

    match = started_mummy(alice, [bob])  # alice (seat 0) plays first
    assert "You choose: inquire, dance or accuse." in _fragment(match, alice, "board", "en")
    assert "شما در حال" not in _fragment(match, bob, "board", "fa")
    assert "<bdi>Alice</bdi> chooses" in _fragment(match, bob, "board", "en")


def test_whom_the_table_waits_for_is_listed_with_the_pages_own_comma(alice, bob, charlie):
    """The day's discussion waits for every living seat to be ready: English lists them with
    commas, Persian with «،»."""
    match = play_until(
        started_werewolf(alice, [bob, charlie]),
        lambda m: m.state["public"]["phase"] == "day_discussion" and len(m.engine.awaiting(m.state)) >= 2,
    )
    english = _fragment(match, None, "status", "en")
    persian = _fragment(match, None, "status", "fa")
    assert "</bdi>, <bdi>" in english and "،" not in english
    assert "</bdi>، <bdi>" in persian


def test_a_persian_line_never_puts_a_middle_dot_beside_its_digits(alice):
    """«#۲ · ۱۱» reads as «۲۰۱۱»: Monster's seat badges and its heading part their facts with «،»
    in Persian, and with « · » in English."""
    from tests.platform.helpers import bot_table

    match = bot_table("monster", 3, alice, seed=3)
    persian = _fragment(match, alice, "seats", "fa") + _fragment(match, alice, "board", "fa")
    english = _fragment(match, alice, "seats", "en") + _fragment(match, alice, "board", "en")
    assert "·" not in persian and "، " in persian
    assert " · " in english


def test_the_werewolf_end_says_why_the_side_won(alice):
    match = play_until_over(started_werewolf(alice))
    fragments = "".join(_fragment(match, alice, part, "en") for part in ("board", "actions", "status"))
    why = {"village": "Every wolf is dead.", "wolves": "The wolves are as many as everyone else"}
    winner = match.engine.view(match.state, None)["winner"]
    assert 'data-testid="why"' in fragments and why[winner] in fragments


def test_the_votes_in_the_log_are_listed_with_the_pages_own_comma(alice):
    match = play_until(
        started_werewolf(alice), lambda m: any(e.get("kind") == "votes_revealed" for e in _public_view(m)["log"])
    )
    english = _fragment(match, alice, "log", "en")
    persian = _fragment(match, alice, "log", "fa")
    assert "The votes" in english and "،" not in english
    assert "، " in persian
