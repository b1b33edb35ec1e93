"""Profiles and leaderboards: ratings with a server-drawn chart, games played and won by side or
role, recent matches only as far as the viewer may see them; a hidden profile is for the people
one played with; leaderboards rank by mu - 3 sigma without provisional players."""

from __future__ import annotations

from django.urls import reverse

from history import ratings
from history.models import PROVISIONAL_GAMES, ProfileSettings
from tests.platform.helpers import play_until_over, started_werewolf
from tests.platform.replaying import decided, human_match, people


def _profile(client, user, viewer=None):
    if viewer is not None:
        client.force_login(viewer)
    return client.get(reverse("players:profile", args=[user.username]))


def _seasoned(count=PROVISIONAL_GAMES + 6):
    a, b = people(2)
    for i in range(count):
        ratings.rate_match(decided("dracula", [a, b], winners=[0 if i % 3 else 1]).pk)
    return a, b


def test_a_profile_shows_each_games_rating_with_a_chart_and_the_record(client, db):
    a, b = _seasoned()
    page = _profile(client, a).content.decode()
    assert 'data-testid="ratings"' in page and "<polyline points=" in page
    assert "Dracula" in page and 'data-testid="record-dracula"' in page


def test_a_profile_draws_its_records_icons_with_their_games_styles(client, alice, bob):
    """The record of Dracula draws each side with the game's icon (an SVG sized by the game's
    stylesheet): without that stylesheet the icon filled the phone's width."""
    human_match("dracula", [alice, bob], seed=1)
    play_until_over(started_werewolf(alice))
    page = _profile(client, alice, alice).content.decode()
    assert 'class="ico ico-' in page
    for game in ("dracula", "werewolf"):
        assert f"/static/css/games/{game}.css" in page
    assert "/static/css/games/monster.css" not in page, "only the games of the record"


def test_a_profile_lists_only_the_matches_the_viewer_may_see(client, alice, charlie):
    private = play_until_over(started_werewolf(alice))
    page = _profile(client, alice, charlie).content.decode()
    assert reverse("history:match", args=[private.pk]) not in page
    own = _profile(client, alice, alice).content.decode()
    assert reverse("history:match", args=[private.pk]) in own


def test_a_player_hides_their_profile_from_strangers_but_not_from_co_players(client, alice, bob, dave):
    play_until_over(started_werewolf(alice, [bob]))
    client.force_login(alice)
    client.post(reverse("players:visibility", args=["alice"]), {"hidden": "1"})
    assert ProfileSettings.objects.get(user=alice).hidden
    response = _profile(client, alice, dave)
    assert response.status_code == 403 and 'data-testid="ratings"' not in response.content.decode()
    assert _profile(client, alice).status_code == 403
    assert _profile(client, alice, bob).status_code == 200
    assert _profile(client, alice, alice).status_code == 200


def test_only_the_player_changes_their_profiles_visibility(client, alice, dave):
    client.force_login(dave)
    page = client.post(reverse("players:visibility", args=["alice"]), {"hidden": "1"}, follow=True).content.decode()
    assert "Only the player" in page and not ProfileSettings.objects.filter(user=alice).exists()


def test_an_unknown_player_is_not_found(client, db):
    assert client.get(reverse("players:profile", args=["nobody-here"])).status_code == 404


def test_the_leaderboard_ranks_by_ordinal_and_leaves_out_provisional_players(client, db):
    a, b = _seasoned()
    (newcomer, other) = people(2, prefix="n")
    ratings.rate_match(decided("dracula", [newcomer, other], winners=[0]).pk)
    page = client.get(reverse("players:leaderboard", args=["dracula"])).content.decode()
    assert 'data-testid="leaderboard-rows"' in page
    assert page.index(f"/players/{a.username}/") < page.index(f"/players/{b.username}/")
    assert f"/players/{newcomer.username}/" not in page
    assert 'data-testid="provisional-left-out"' in page, "the board says who is not on it yet"


def test_a_board_of_provisional_players_only_says_they_are_not_listed_yet(client, db):
    """Two players with a rated game each: no one is ranked yet, and the board says why."""
    first, second = people(2)
    ratings.rate_match(decided("dracula", [first, second], winners=[0]).pk)
    page = client.get(reverse("players:leaderboard", args=["dracula"]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No player is ranked here yet." in page and "2 provisional players are not listed yet." in page


def test_a_hidden_profile_is_not_on_the_leaderboard(client, db):
    a, b = _seasoned()
    ProfileSettings.objects.create(user=a, hidden=True)
    page = client.get(reverse("players:leaderboard", args=["dracula"])).content.decode()
    assert f"/players/{a.username}/" not in page and f"/players/{b.username}/" in page


def test_a_leaderboard_without_rated_players_says_so_and_an_unknown_game_is_not_found(client, db):
    page = client.get(reverse("players:leaderboard", args=["mummy"])).content.decode()
    assert 'data-testid="no-rated"' in page
    assert client.get(reverse("players:leaderboard", args=["chess"])).status_code == 404
    assert client.get(reverse("players:leaderboards")).status_code == 302


def test_a_profile_address_typed_in_another_case_leads_to_the_player(client, alice, db):
    """Someone types /players/Alice/ for alice: they land on her profile, not on a 404."""
    from accounts.models import User

    answer = client.get("/players/ALICE/")
    assert answer.status_code == 302 and answer["Location"] == reverse("players:profile", args=["alice"])
    assert client.get("/players/nobody-here/").status_code == 404
    User.objects.create_user("Alice", password="a-long-password-1")  # two players alike: no guessing
    assert client.get("/players/ALICE/").status_code == 404
    assert client.get("/players/Alice/").status_code == 200


def test_a_player_is_found_by_name_but_not_a_guest_or_a_hidden_profile_to_a_stranger(client, alice, bob, dave):
    """Dave looks for Alice and Bob. Bob hid his profile and never played with Dave."""
    from accounts.models import User

    User.create_guest("Alicia the guest")
    ProfileSettings.objects.create(user=bob, hidden=True)
    client.force_login(dave)
    page = client.get(reverse("players:search"), {"q": "ali"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert reverse("players:profile", args=["alice"]) in page and "Alicia the guest" not in page
    none = client.get(reverse("players:search"), {"q": "bob"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No player by that name." in none
    client.force_login(bob)
    own = client.get(reverse("players:search"), {"q": "Bob"}).content.decode()
    assert reverse("players:profile", args=["bob"]) in own, "Bob finds himself"
    short = client.get(reverse("players:search"), {"q": "a"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Type at least two letters" in short
    assert reverse("players:search") in client.get(reverse("players:leaderboard", args=["dracula"])).content.decode()


def test_a_persian_name_is_found_however_its_words_are_joined_and_whichever_keyboard_typed_it(client, dave):
    """«مهمان‌علی» (a zero-width non-joiner) is found as «مهمان علی», and as «مهمان‌علي» with the
    Arabic keyboard's yeh."""
    from accounts.models import User

    User.objects.create_user(username="mali", password="a-long-password-1", display_name="مهمان\u200cعلی")
    client.force_login(dave)
    for typed in ("مهمان علی", "مهمان\u200cعلي", "مهمان"):
        page = client.get(reverse("players:search"), {"q": typed}).content.decode()
        assert reverse("players:profile", args=["mali"]) in page, typed


def _signed_up_guest(client, alice, username="mina"):
    """Mina plays at alice's table as a guest, then signs up: her guest address was shared."""
    from accounts.models import User

    client.post(reverse("accounts:guest"), {"display_name": "Mina"})
    guest = User.objects.get(display_name="Mina", is_guest=True)
    guest_address = reverse("players:profile", args=[guest.username])
    play_until_over(started_werewolf(alice, [guest]))
    password = "a-long-password-1"
    client.post(reverse("accounts:signup"), {"username": username, "password1": password, "password2": password})
    client.logout()
    return User.objects.get(pk=guest.pk), guest_address


def test_a_guests_profile_address_leads_for_good_to_the_account_they_signed_up_as(client, alice):
    mina, guest_address = _signed_up_guest(client, alice)
    assert mina.username == "mina"
    answer = client.get(guest_address)
    assert answer.status_code == 301 and answer["Location"] == reverse("players:profile", args=["mina"])
    assert client.get(answer["Location"]).status_code == 200


def test_a_guests_profile_address_leads_to_the_account_they_logged_in_to(client, alice, bob):
    from accounts.models import User

    client.post(reverse("accounts:guest"), {"display_name": "Mina"})
    guest = User.objects.get(display_name="Mina", is_guest=True)
    guest_address = reverse("players:profile", args=[guest.username])
    client.post(reverse("accounts:login"), {"username": "bob", "password": "a-long-password-1"})
    client.logout()
    answer = client.get(guest_address)
    assert answer.status_code == 301 and answer["Location"] == reverse("players:profile", args=["bob"])


def test_a_hidden_profile_stays_hidden_at_its_former_guest_address(client, alice, dave):
    """Mina hides her profile: a stranger following her old guest link gets the hidden page there,
    not a redirect that would tell him her username; alice, who played with her, is led on."""
    mina, guest_address = _signed_up_guest(client, alice)
    ProfileSettings.objects.create(user=mina, hidden=True)
    client.force_login(dave)
    answer = client.get(guest_address)
    assert answer.status_code == 403 and "Location" not in answer
    page = answer.content.decode()
    assert 'data-testid="profile-hidden"' in page and "/players/mina/" not in page
    assert 'data-testid="ratings"' not in page
    client.logout()
    assert client.get(guest_address).status_code == 403, "nor to a visitor"
    client.force_login(alice)
    assert client.get(guest_address).status_code == 301


def test_a_current_username_wins_over_a_former_one(client, alice, bob):
    """Staff renamed bob to a name another player once had: the name is bob's address now."""
    from accounts.models import FormerName

    FormerName.objects.create(name="bobby", user=alice)
    bob.username = "bobby"
    bob.save()
    assert client.get("/players/bobby/").status_code == 200


def test_a_rating_charts_label_says_where_the_rating_stands_not_from_low_to_high(client, db):
    """A falling rating's chart was read out "from 1440 to 1490", as if it had risen."""
    from history.models import Rating, RatingChange

    loser, winner = people(2)
    for _ in range(3):
        ratings.rate_match(decided("dracula", [loser, winner], winners=[1]).pk)
    afters = [c.after for c in RatingChange.objects.filter(user=loser).order_by("created_at", "pk")]
    assert afters == sorted(afters, reverse=True) and Rating.objects.get(user=loser).shown == afters[-1]
    page = client.get(reverse("players:profile", args=[loser.username]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'aria-label="Rating history: now {afters[-1]}, lowest {afters[-1]}, highest {afters[0]}"' in page
