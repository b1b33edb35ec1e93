"""Staff see accounts, tables, seats, matches and moves, search and filter them, and abort."""

from __future__ import annotations

import pytest
from django.db.models import ProtectedError
from django.urls import reverse

from accounts.models import User
from history import ratings
from history.models import RatingChange
from shabneshin.localize import digits
from tables.models import ChatMessage, Match, Move, Table
from tests.platform.helpers import started_werewolf
from tests.platform.replaying import human_match, people


@pytest.fixture
def staff(db):
    return User.objects.create_superuser("staff", "staff@example.com", "a-long-password-1", display_name="Staff")


@pytest.mark.parametrize(
    "model",
    [
        "accounts/user",
        "tables/table",
        "tables/seat",
        "tables/match",
        "tables/move",
        "tables/chatmessage",
        "history/rating",
        "history/ratingchange",
        "history/profilesettings",
    ],
)
def test_staff_can_list_search_and_filter_every_model(client, staff, alice, model):
    started_werewolf(alice)
    client.force_login(staff)
    url = f"/admin/{model}/"
    assert client.get(url).status_code == 200
    assert client.get(url, {"q": "alice"}).status_code == 200


def test_staff_can_filter_matches_by_game_and_status(client, staff, alice):
    started_werewolf(alice)
    client.force_login(staff)
    page = client.get("/admin/tables/match/", {"game": "werewolf", "status__exact": "playing"})
    assert page.status_code == 200 and "1 match" in page.content.decode()


def test_staff_abort_a_running_match_from_the_admin(client, staff, alice, bob):
    match = started_werewolf(alice, [bob])
    client.force_login(staff)
    client.post(
        reverse("admin:tables_match_changelist"),
        {"action": "abort_matches", "_selected_action": [match.pk], "post": "yes"},
    )
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    assert Table.objects.get(pk=match.table_id).status == Table.Status.ABORTED
    client.force_login(bob)
    page = client.get(reverse("tables:detail", args=[match.table.token])).content.decode()
    assert 'data-testid="aborted"' in page


def test_players_cannot_open_the_admin(client, alice):
    client.force_login(alice)
    assert client.get("/admin/tables/match/").status_code == 302


# --- The game record is the moderator's: staff read it, never rewrite it ------------------------


def test_staff_abort_asks_first_and_changes_nothing_until_confirmed(client, staff, alice, bob):
    match = started_werewolf(alice, [bob])
    client.force_login(staff)
    url = reverse("admin:tables_match_changelist")
    page = client.post(url, {"action": "abort_matches", "_selected_action": [match.pk]})
    assert page.status_code == 200 and 'data-testid="confirm-question"' in page.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING, "the first post only asks"
    client.post(url, {"action": "abort_matches", "_selected_action": [match.pk], "post": "yes"})
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED


def test_staff_cannot_set_a_live_matchs_status_by_hand(client, staff, alice, bob):
    """Alice's match is live: a status typed in the admin would show its secret on the match page."""
    match = started_werewolf(alice, [bob])
    client.force_login(staff)
    url = reverse("admin:tables_match_change", args=[match.pk])
    page = client.get(url).content.decode()
    assert 'name="status"' not in page and 'name="next_deadline"' not in page
    client.post(url, {"status": "finished", "finished_at_0": "2026-01-01", "finished_at_1": "00:00"})
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING


@pytest.mark.parametrize(
    "model", ["tables/match", "tables/move", "tables/chatmessage", "tables/table", "history/rating"]
)
def test_staff_cannot_add_game_records_by_hand(client, staff, model):
    client.force_login(staff)
    assert client.get(f"/admin/{model}/add/").status_code == 403


def test_staff_cannot_delete_a_move_of_a_match(client, staff, alice, bob):
    match = started_werewolf(alice, [bob])
    move = match.moves.first() or Move.objects.create(match=match, seq=1, seat=0, action={}, source="player")
    client.force_login(staff)
    assert client.post(reverse("admin:tables_move_delete", args=[move.pk]), {"post": "yes"}).status_code == 403
    assert Move.objects.filter(pk=move.pk).exists()


def test_staff_cannot_rewrite_what_a_player_said(client, staff, alice):
    match = started_werewolf(alice)
    line = ChatMessage.objects.create(table=match.table, author=alice, text="hello all")
    assert str(line) == "Alice: hello all", "a report's list shows the line itself"
    client.force_login(staff)
    url = reverse("admin:tables_chatmessage_change", args=[line.pk])
    assert 'name="text"' not in client.get(url).content.decode()
    client.post(url, {"text": "I cheated", "table": match.table_id, "author": alice.pk})
    line.refresh_from_db()
    assert line.text == "hello all"


def test_deleting_a_host_cannot_delete_the_other_players_rated_match(client, staff, db):
    """Spammer hosted a rated game against Bijan: deleting Spammer must not take Bijan's game,
    its moves and his rating's history with it."""
    spammer, bijan = people(2)
    match = human_match("dracula", [spammer, bijan], seed=5)
    ratings.rate_match(match.pk)
    assert match.table.host_id == spammer.pk
    client.force_login(staff)
    url = reverse("admin:accounts_user_delete", args=[spammer.pk])
    said = client.post(url, {"post": "yes"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "cannot be deleted. Untick Active" in said.content.decode(), "the page says why and what to do"
    assert User.objects.filter(pk=spammer.pk).exists()
    assert Match.objects.filter(pk=match.pk).exists()
    assert RatingChange.objects.filter(match=match, user=bijan).exists()
    with pytest.raises(ProtectedError):
        spammer.delete()


def test_the_persian_admin_names_records_and_columns_in_persian(client, staff, alice):
    from django.utils import translation

    from history.models import Rating

    match = started_werewolf(alice)
    Rating.objects.create(user=alice, game="dracula", mu=25.0, sigma=8.0, games=1)
    client.force_login(staff)
    with translation.override("fa"):
        assert str(match) == f"مسابقهٔ مافیا؛ گرگینه #{digits(match.pk, 'fa')}"
    ratings = client.get("/admin/history/rating/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert "بازیکن" in ratings and ">User<" not in ratings and ">Shown<" not in ratings


def test_deleting_selected_players_deletes_nobody_when_one_of_them_played(client, staff, db):
    """Staff tick a spammer who played and a guest who never did: nobody is deleted, and the
    list says who played and what to do, where Django's page spoke of permissions on tables."""
    spammer, bijan = people(2)
    human_match("dracula", [spammer, bijan], seed=5)
    idle = User.objects.create(username="idle", display_name="Idle")
    client.force_login(staff)
    said = client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "delete_selected", "_selected_action": [spammer.pk, idle.pk], "post": "yes"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "Nobody was deleted: P0 played or hosted games" in said and "Untick Active" in said
    assert User.objects.filter(pk__in=[spammer.pk, idle.pk]).count() == 2
    asked = client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "delete_selected", "_selected_action": [idle.pk]},
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "Are you sure you want to delete the selected player?" in asked, "one who never played: Django's question"
    client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "delete_selected", "_selected_action": [idle.pk], "post": "yes"},
    )
    assert not User.objects.filter(pk=idle.pk).exists()


@pytest.mark.parametrize("app", ["accounts", "tables", "history", "moderation", "clubs"])
def test_every_field_the_admin_shows_of_our_records_has_a_translated_name(app):
    """A field without a verbose name shows its code name («Mu before», «Token», «Paused by») on
    the Persian admin too."""
    from django.contrib import admin
    from django.utils.functional import Promise

    unnamed = [
        f"{model.__name__}.{field.name}"
        for model in admin.site._registry
        if model._meta.app_label == app
        for field in model._meta.concrete_fields
        if not field.auto_created and not isinstance(field.verbose_name, Promise)
    ]
    assert unnamed == []


def test_the_persian_admin_names_a_rating_change_and_its_fields_in_persian(client, staff, db):
    a, b = people(2)
    match = human_match("dracula", [a, b], seed=5)
    ratings.rate_match(match.pk)
    change = RatingChange.objects.get(match=match, user=a)
    client.force_login(staff)
    page = client.get(
        reverse("admin:history_ratingchange_change", args=[change.pk]), HTTP_ACCEPT_LANGUAGE="fa"
    ).content.decode()
    assert "RatingChange object" not in page and "Mu before" not in page
    assert f"مسابقهٔ دراکولا در برابر ون هلسینگ #{digits(match.pk, 'fa')}، P0: " in page


def test_the_admin_shows_the_sites_icon(client, staff):
    """Its pages named none, so the browser asked for /favicon.ico, a 404 on every admin page."""
    client.force_login(staff)
    for url in (reverse("admin:index"), reverse("admin:accounts_user_change", args=[staff.pk])):
        page = client.get(url).content.decode()
        assert '<link rel="icon" type="image/svg+xml" href="/static/icons/favicon.svg">' in page


@pytest.mark.parametrize("model", ["tables/table", "tables/match", "history/rating"])
def test_the_persian_admin_lists_and_filters_games_by_their_names(client, staff, alice, model):
    """The game column and filter read «مافیا؛ گرگینه», not the stored slug "werewolf"."""
    from history.models import Rating

    started_werewolf(alice)
    Rating.objects.create(user=alice, game="werewolf", mu=25.0, sigma=8.0, games=1)
    client.force_login(staff)
    page = client.get(f"/admin/{model}/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert '<td class="field-game">مافیا؛ گرگینه</td>' in page and ">werewolf<" not in page
    assert '<a href="?game=werewolf">مافیا؛ گرگینه</a>' in page
    assert ">مافیا؛ گرگینه</td>" not in client.get(f"/admin/{model}/", {"game": "dracula"}).content.decode()


@pytest.mark.parametrize("model", ["table", "match"])
def test_the_persian_admin_names_the_game_on_a_table_and_a_match_page(client, staff, alice, model):
    """The change page read the stored slug "werewolf" where the list reads «مافیا؛ گرگینه»."""
    match = started_werewolf(alice)
    record = match.table if model == "table" else match
    client.force_login(staff)
    page = client.get(
        reverse(f"admin:tables_{model}_change", args=[record.pk]), HTTP_ACCEPT_LANGUAGE="fa"
    ).content.decode()
    assert '<div class="readonly">مافیا؛ گرگینه</div>' in page and ">werewolf<" not in page


def test_staff_cannot_change_a_tables_game_through_its_page(client, staff, alice):
    table = started_werewolf(alice).table
    client.force_login(staff)
    client.post(
        reverse("admin:tables_table_change", args=[table.pk]),
        {"game": "dracula", "visibility": table.visibility, "seats-TOTAL_FORMS": "0", "seats-INITIAL_FORMS": "0"},
    )
    table.refresh_from_db()
    assert table.game == "werewolf"


def test_a_running_matchs_seed_state_and_moves_are_kept_from_staff_until_it_ends(client, staff, alice):
    """A staff member may play at this table or another: while the match runs, its admin page
    shows neither the seed (every card to come), nor the state (every role), nor a move's action
    or state hash; once it is over, they show."""
    from tests.platform.helpers import bot_table, play_until, play_until_over

    match = play_until(bot_table("werewolf", 5, alice, seed=424242), lambda m: m.moves.exists())
    move = match.moves.first()
    client.force_login(staff)
    match_url = reverse("admin:tables_match_change", args=[match.pk])
    move_url = reverse("admin:tables_move_change", args=[move.pk])
    page = client.get(match_url).content.decode()
    for secret in ("field-seed", "field-state", "field-action", "field-state_hash", "WOLF", move.state_hash):
        assert secret not in page
    assert "show here once the match is over" in page
    move_page = client.get(move_url).content.decode()
    assert "field-seq" in move_page
    assert "field-action" not in move_page and move.state_hash not in move_page
    play_until_over(match)
    over = client.get(match_url).content.decode()
    assert "field-seed" in over and "WOLF" in over and "field-action" in over
    move_over = client.get(move_url).content.decode()
    assert "field-action" in move_over and move.state_hash in move_over
