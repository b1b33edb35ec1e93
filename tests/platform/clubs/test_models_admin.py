"""Club membership rules and the admin: always an owner; staff list, search, filter and suspend."""

from __future__ import annotations

import pytest

from accounts.models import User
from clubs import members
from clubs.models import Club, Membership


@pytest.fixture
def staff(db):
    return User.objects.create_superuser("staff", "staff@example.com", "a-long-password-1", display_name="Staff")


def test_the_last_owner_can_neither_leave_nor_be_demoted_nor_removed(club, alice, bob):
    with pytest.raises(members.MembershipError):
        members.leave(club, alice)
    owner = Membership.objects.get(club=club, user=alice)
    with pytest.raises(members.MembershipError):
        members.set_role(club, alice, str(owner.pk), Membership.Role.MEMBER)
    assert Membership.objects.get(pk=owner.pk).role == Membership.Role.OWNER


def test_an_owner_may_leave_once_another_owner_exists(club, alice, bob):
    members.set_role(club, alice, str(Membership.objects.get(club=club, user=bob).pk), Membership.Role.OWNER)
    members.leave(club, alice)
    assert list(Membership.objects.filter(club=club, role="owner").values_list("user", flat=True)) == [bob.pk]


def test_an_organizer_removes_members_but_not_other_organizers_or_owners(club, alice, bob, charlie):
    members.remove(club, bob, str(Membership.objects.get(club=club, user=charlie).pk))
    assert not Membership.objects.filter(club=club, user=charlie).exists()
    with pytest.raises(members.MembershipError):
        members.remove(club, bob, str(Membership.objects.get(club=club, user=alice).pk))


@pytest.mark.parametrize("forged", ["", "abc", "-1", "1.5", "99999999", "9" * 5000])
def test_a_forged_member_id_is_refused_and_changes_nothing(club, alice, forged):
    before = list(Membership.objects.filter(club=club).values_list("pk", "role"))
    with pytest.raises(members.MembershipError, match="no such member"):
        members.remove(club, alice, forged)
    with pytest.raises(members.MembershipError):
        members.set_role(club, alice, forged, "owner")
    assert list(Membership.objects.filter(club=club).values_list("pk", "role")) == before


def test_a_member_of_another_club_is_not_a_member_here(club, alice, dave):
    other = members.create_club(dave, name="Other", slug="other")
    theirs = Membership.objects.get(club=other, user=dave)
    with pytest.raises(members.MembershipError):
        members.remove(club, alice, str(theirs.pk))
    assert Membership.objects.filter(pk=theirs.pk).exists()


MODELS = [
    "club",
    "membership",
    "joinrequest",
    "invite",
    "series",
    "night",
    "rsvp",
    "offer",
    "reminder",
    "notification",
    "preferences",
    "checkin",
    "pairrule",
    "round",
    "roundtable",
    "award",
    "penalty",
    "pointsentry",
    "season",
]


@pytest.mark.parametrize("model", MODELS)
def test_staff_can_list_search_and_filter_every_club_model(client, staff, night, model):
    client.force_login(staff)
    url = f"/admin/clubs/{model}/"
    assert client.get(url).status_code == 200
    assert client.get(url, {"q": "wolves"}).status_code == 200


def test_staff_can_suspend_a_club_and_it_disappears_for_everyone_else(client, staff, club, charlie):
    client.force_login(staff)
    response = client.post(
        "/admin/clubs/club/", {"action": "suspend_clubs", "_selected_action": [club.pk]}, follow=True
    )
    assert response.status_code == 200
    assert Club.objects.get(pk=club.pk).suspended
    client.force_login(charlie)
    assert client.get("/clubs/wolves/").status_code == 404
    assert client.get("/clubs/wolves/calendar.ics").status_code == 404


def test_staff_read_the_points_log_but_cannot_edit_it_nor_see_a_nights_seed_before_the_end(client, staff, night):
    from clubs.models import PointsEntry

    client.force_login(staff)
    assert client.get("/admin/clubs/pointsentry/add/").status_code == 403
    page = client.get(f"/admin/clubs/night/{night.pk}/change/").content.decode()
    assert night.seed_secret not in page
    assert PointsEntry.objects.count() == 0


def test_the_persian_points_log_lists_and_filters_games_by_their_names(client, staff, night, alice):
    """Its game column and filter read «مافیا؛ گرگینه», not the stored slug "werewolf"."""
    from clubs.models import PointsEntry

    line = PointsEntry.objects.create(night=night, user=alice, kind="table", points=3, game="werewolf")
    client.force_login(staff)
    page = client.get("/admin/clubs/pointsentry/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert '<td class="field-game">مافیا؛ گرگینه</td>' in page and ">werewolf<" not in page
    assert '<a href="?game=werewolf">مافیا؛ گرگینه</a>' in page
    assert "field-game" not in client.get("/admin/clubs/pointsentry/", {"game": "dracula"}).content.decode()
    page = client.get(f"/admin/clubs/pointsentry/{line.pk}/change/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert '<div class="readonly">مافیا؛ گرگینه</div>' in page and ">werewolf<" not in page
