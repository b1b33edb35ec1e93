"""Ratings: openskill per game, sides as teams in team games, places in free-for-all; only
all-human matches count; every change stored per match; a full recompute equals the incremental
table; a guest's ratings follow them into an account."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from history import ratings
from history.models import PROVISIONAL_GAMES, Rating, RatingChange
from tables.models import Match, Move, Seat
from tests.platform.replaying import decided, human_match, people, played


def _result(winners, sides=None, scores=None, n=None):
    n = n or len(sides or scores)
    return {
        "winners": winners,
        "seats": [{"side": (sides or [None] * n)[i], "role": "x", "score": (scores or [0] * n)[i]} for i in range(n)],
    }


def test_werewolf_rates_the_village_against_the_wolves():
    result = _result([2, 4], sides=["village", "village", "wolves", "village", "wolves"])
    assert sorted(ratings.standings("werewolf", result)) == [([0, 1, 3], 2), ([2, 4], 1)]


def test_inside_job_rates_the_agents_against_the_insider_and_a_rival_alone():
    result = _result([0, 1], sides=["AGENTS", "AGENTS", "INSIDER", "RIVAL"])
    assert sorted(ratings.standings("insidejob", result)) == [([0, 1], 1), ([2], 2), ([3], 2)]


def test_inside_job_won_by_larry_alone_rates_nobody():
    assert ratings.standings("insidejob", _result([], sides=["AGENTS", "AGENTS"])) == []


def test_dracula_is_one_against_one():
    assert ratings.standings("dracula", _result([1], sides=["dracula", "van_helsing"])) == [([0], 2), ([1], 1)]


def test_monster_rates_by_place_with_equal_scores_sharing_one():
    result = _result([2], scores=[5, 9, 9, 1])
    assert ratings.standings("monster", result) == [([0], 3), ([1], 2), ([2], 1), ([3], 4)]


def test_mummy_puts_the_winner_first_and_a_draw_ties_everyone():
    assert ratings.standings("mummy", _result([1], n=4)) == [([0], 2), ([1], 1), ([2], 2), ([3], 2)]
    assert {place for _, place in ratings.standings("mummy", _result([], n=4))} == {1}


@pytest.mark.parametrize(
    ("slug", "n"), [("werewolf", 5), ("insidejob", 3), ("dracula", 2), ("monster", 3), ("mummy", 4)]
)
def test_an_all_human_match_of_every_game_is_rated_with_a_change_per_player(db, slug, n):
    users = people(n)
    match = human_match(slug, users, seed=6)
    plan = ratings.plan_for(match)
    if plan is None:  # only a match nobody won against (LARRY) may be unrated
        assert slug == "insidejob" and not match.result["winners"]
        return
    assert ratings.rate_match(match.pk)
    assert not ratings.rate_match(match.pk), "a match is rated once"
    changes = RatingChange.objects.filter(match=match)
    assert changes.count() == n
    for change in changes:
        won = change.seat in match.result["winners"]
        if slug != "mummy" or match.result["winners"]:
            assert (change.mu_after > change.mu_before) == won or slug == "monster"
    assert Rating.objects.filter(game=slug, games=1).count() == n


def test_a_match_with_a_practice_bot_is_not_rated(alice, bob):
    match, _ = played(alice, "werewolf", 5, seed=1, players=[bob], by=Move.Source.PLAYER)
    assert Seat.objects.filter(table=match.table, is_bot=True).exists()
    assert not ratings.rate_match(match.pk) and not RatingChange.objects.exists()


def test_a_match_where_a_bot_played_for_a_person_is_not_rated(db):
    match = human_match("dracula", people(2), seed=3)
    Move.objects.filter(match=match, seq=2).update(source=Move.Source.BOT)
    assert ratings.plan_for(match) is None and not ratings.rate_match(match.pk)


def test_a_seat_on_autopilot_excludes_the_match(db):
    match = human_match("dracula", people(2), seed=3)
    Seat.objects.filter(table=match.table, number=1).update(autopilot=True)
    assert not ratings.rate_match(match.pk)


def test_an_aborted_match_is_not_rated(db):
    from tables import moderator, seating

    a, b = people(2)
    table = seating.create_table(a, "dracula", 2, "private")
    seating.sit(table, b)
    match = seating.start(table, a)
    moderator.abort(match)
    assert not ratings.rate_match(match.pk)


def test_finishing_a_match_rates_it_after_the_commit(db, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = human_match("dracula", people(2), seed=5)
    assert RatingChange.objects.filter(match=match).count() == 2


def test_the_match_page_shows_each_players_change(client, db):
    users = people(2)
    match = human_match("dracula", users, seed=5)
    ratings.rate_match(match.pk)
    client.force_login(users[0])
    page = client.get(reverse("history:match", args=[match.pk])).content.decode()
    deltas = {c.seat: c.delta for c in RatingChange.objects.filter(match=match)}
    for delta in deltas.values():
        assert f'data-testid="rating-change" dir="ltr">{"+" if delta >= 0 else ""}{delta}</span>' in page


def _a_season():
    users = people(5)
    for i in range(6):
        ratings.rate_match(decided("dracula", [users[i % 4], users[(i + 1) % 4]], winners=[i % 2]).pk)
    ratings.rate_match(decided("monster", users[:3], winners=[1], scores=[3, 7, 5]).pk)
    sides = ["village", "wolves", "village", "village", "wolves"]
    ratings.rate_match(decided("werewolf", users, winners=[0, 2, 3], sides=sides).pk)
    return users


def test_a_full_recompute_equals_the_incremental_ratings(db):
    _a_season()
    assert Rating.objects.exists()
    assert ratings.recompute() == []


def test_recompute_ratings_prints_a_difference_and_can_store_the_recomputed_table(db, capsys):
    users = _a_season()
    Rating.objects.filter(user=users[0], game="dracula").update(mu=40.0)
    call_command("recompute_ratings")
    out = capsys.readouterr().out
    assert f"player {users[0].pk} dracula: stored mu=40.0000" in out and "1 difference(s)" in out
    call_command("recompute_ratings", "--write")
    call_command("recompute_ratings")
    assert "equal the recomputed" in capsys.readouterr().out


def test_a_player_is_provisional_until_enough_rated_games(db):
    users = people(2)
    for i in range(PROVISIONAL_GAMES + 3):
        ratings.rate_match(decided("dracula", users, winners=[i % 2]).pk)
    rating = Rating.objects.get(user=users[0], game="dracula")
    assert rating.games == PROVISIONAL_GAMES + 3
    first = RatingChange.objects.filter(user=users[0]).first()
    assert first.sigma_after > rating.sigma
    early = Rating(mu=first.mu_after, sigma=first.sigma_after, games=1)
    assert early.provisional
    assert rating.provisional == (rating.sigma > 7.0)


def test_a_guests_ratings_survive_sign_up(client, db):
    from accounts.models import User

    client.post(reverse("accounts:guest"), {"display_name": "Mina"})
    guest = User.objects.get(display_name="Mina")
    (other,) = people(1)
    ratings.rate_match(decided("dracula", [guest, other], winners=[0]).pk)
    before = Rating.objects.get(user=guest, game="dracula")
    client.post(
        reverse("accounts:signup"),
        {
            "username": "mina",
            "display_name": "Mina",
            "password1": "a-long-password-1",
            "password2": "a-long-password-1",
        },
    )
    account = User.objects.get(username="mina")
    assert account.pk == guest.pk and not account.is_guest
    after = Rating.objects.get(user=account, game="dracula")
    assert (after.mu, after.sigma, after.games) == (before.mu, before.sigma, before.games)


def test_a_guests_ratings_move_to_the_account_they_log_in_to(client, alice, db):
    from accounts.models import User

    client.post(reverse("accounts:guest"), {"display_name": "Mina"})
    guest = User.objects.get(display_name="Mina")
    (other,) = people(1)
    match = decided("dracula", [guest, other], winners=[1])
    ratings.rate_match(match.pk)
    mu = Rating.objects.get(user=guest, game="dracula").mu
    client.post(reverse("accounts:login"), {"username": "alice", "password": "a-long-password-1"})
    assert not User.objects.filter(pk=guest.pk).exists()
    assert Rating.objects.get(user=alice, game="dracula").mu == pytest.approx(mu)
    assert RatingChange.objects.filter(match=match, user=alice).exists()
    assert ratings.recompute() == []
    assert Match.objects.filter(pk=match.pk).exists()
