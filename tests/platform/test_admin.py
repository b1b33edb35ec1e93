"""Staff see accounts, tables, seats, matches and moves, search and filter them, and abort."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from tables.models import Match, Table
from tests.platform.helpers import started_werewolf


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
        reverse("admin:tables_match_changelist"), {"action": "abort_matches", "_selected_action": [match.pk]}
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
