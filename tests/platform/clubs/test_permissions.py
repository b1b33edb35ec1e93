"""Every club URL, for every persona: alice owns the club, bob organizes, charlie is a member,
dave is an outsider, gus a guest, and nobody (not logged in). Each may do exactly what its role
allows, checked on the server; a private club does not exist for outsiders."""

from __future__ import annotations

import pytest

from clubs.models import Club, Membership, Night, Rsvp

PERSONAS = ["alice", "bob", "charlie", "dave", "gus", "nobody"]
OWNER, ORGANIZERS, MEMBERS = {"alice"}, {"alice", "bob"}, {"alice", "bob", "charlie"}


def _pages(night):
    n = f"/clubs/wolves/nights/{night.pk}/"
    # url -> who gets 200 (everyone else: 403)
    return {
        "/clubs/wolves/": set(PERSONAS),
        "/clubs/wolves/edit/": OWNER,
        "/clubs/wolves/members/": MEMBERS,
        "/clubs/wolves/invites/": ORGANIZERS,
        "/clubs/wolves/nights/new/": ORGANIZERS,
        n: set(PERSONAS),
        n + "edit/": ORGANIZERS,
        n + "event.ics": set(PERSONAS),
        "/clubs/wolves/calendar.ics": set(PERSONAS),
    }


@pytest.mark.parametrize("persona", PERSONAS)
def test_each_persona_sees_exactly_the_pages_of_its_role(as_, persona, night, gus):
    client = as_(persona)
    for url, allowed in _pages(night).items():
        expected = 200 if persona in allowed else 403
        assert client.get(url).status_code == expected, (persona, url)


@pytest.mark.parametrize("persona", ["dave", "gus", "nobody"])
def test_a_private_club_and_its_nights_are_404_for_outsiders_pages_feeds_and_ics(
    as_, persona, private_club, night, gus
):
    client = as_(persona)
    for url in _pages(night):
        assert client.get(url).status_code == 404, (persona, url)
    for url in [
        "/clubs/wolves/join/",
        "/clubs/wolves/leave/",
        f"/clubs/wolves/nights/{night.pk}/rsvp/",
        f"/clubs/wolves/nights/{night.pk}/cancel/",
    ]:
        assert client.post(url).status_code == 404, (persona, url)
    assert "Thursday Wolves" not in client.get("/clubs/").content.decode()


@pytest.mark.parametrize("persona", ["alice", "bob", "charlie"])
def test_members_see_their_private_club(as_, persona, private_club, night):
    client = as_(persona)
    assert client.get("/clubs/wolves/").status_code == 200
    assert client.get(f"/clubs/wolves/nights/{night.pk}/event.ics").status_code == 200
    assert client.get("/clubs/wolves/calendar.ics").status_code == 404, "a private club has no public feed"


def _posts(night, charlie_member):
    n = f"/clubs/wolves/nights/{night.pk}/"
    return [
        # (url, data, who may, what must stay unchanged when refused)
        (n + "cancel/", {}, ORGANIZERS, lambda: not Night.objects.get(pk=night.pk).cancelled),
        (
            "/clubs/wolves/members/remove/",
            {"member": charlie_member.pk},
            ORGANIZERS,
            lambda: Membership.objects.filter(pk=charlie_member.pk).exists(),
        ),
        (
            "/clubs/wolves/members/role/",
            {"member": charlie_member.pk, "role": "owner"},
            OWNER,
            lambda: Membership.objects.get(pk=charlie_member.pk).role == "member",
        ),
        (
            n + "attendees/",
            {"member": charlie_member.pk, "action": "add"},
            ORGANIZERS,
            lambda: not Rsvp.objects.filter(night=night).exists(),
        ),
        ("/clubs/wolves/invites/", {"days": "7"}, ORGANIZERS, lambda: not night.club.invites.exists()),
        (
            "/clubs/wolves/edit/",
            {
                "name": "Taken over",
                "slug": "wolves",
                "language": "fa",
                "time_zone": "UTC",
                "visibility": "public",
                "join_policy": "open",
            },
            OWNER,
            lambda: Club.objects.get(pk=night.club_id).name == "Thursday Wolves",
        ),
    ]


@pytest.mark.parametrize("persona", ["bob", "charlie", "dave", "gus", "nobody"])
def test_an_action_beyond_a_role_is_refused_and_changes_nothing(as_, persona, night, charlie, gus):
    client = as_(persona)
    charlie_member = Membership.objects.get(club=night.club, user=charlie)
    for url, data, allowed, unchanged in _posts(night, charlie_member):
        if persona in allowed:
            continue
        assert client.post(url, data).status_code == 403, (persona, url)
        assert unchanged(), (persona, url)


@pytest.mark.parametrize("persona", ["alice", "bob"])
def test_organizers_may_take_the_organizer_actions(as_, persona, night, charlie):
    client = as_(persona)
    charlie_member = Membership.objects.get(club=night.club, user=charlie)
    for url, data, allowed, unchanged in reversed(_posts(night, charlie_member)):
        if persona in allowed and "remove" not in url and "cancel" not in url:
            assert client.post(url, data).status_code == 302, (persona, url)
            assert not unchanged(), (persona, url)


def test_members_answer_outsiders_cannot_and_a_guest_is_asked_to_sign_up(client, night, charlie, dave, gus):
    url = f"/clubs/wolves/nights/{night.pk}/rsvp/"
    client.force_login(dave)
    assert client.post(url, {"answer": "going"}).status_code == 403
    client.force_login(gus)
    response = client.post(url, {"answer": "going"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/signup/")
    assert not Rsvp.objects.filter(night=night).exists()
    client.force_login(charlie)
    assert client.post(url, {"answer": "going"}).status_code == 302
    assert Rsvp.objects.get(night=night).user == charlie


def test_join_follows_the_policy(client, club, dave, gus):
    client.force_login(dave)
    club.join_policy = Club.JoinPolicy.INVITE
    club.save()
    assert client.post("/clubs/wolves/join/").status_code == 403
    club.join_policy = Club.JoinPolicy.REQUEST
    club.save()
    client.post("/clubs/wolves/join/", {"message": "I host at my café"})
    assert not Membership.objects.filter(club=club, user=dave).exists()
    assert club.join_requests.get().message == "I host at my café"
    club.join_policy = Club.JoinPolicy.OPEN
    club.save()
    client.post("/clubs/wolves/join/")
    assert Membership.objects.get(club=club, user=dave).role == "member"
    client.force_login(gus)
    assert client.post("/clubs/wolves/join/")["Location"].startswith("/accounts/signup/")
    assert not Membership.objects.filter(club=club, user=gus).exists()


def test_an_organizer_approves_a_request(client, club, bob, dave):
    club.join_policy = Club.JoinPolicy.REQUEST
    club.save()
    client.force_login(dave)
    client.post("/clubs/wolves/join/", {"message": "hi"})
    client.force_login(bob)
    request_id = club.join_requests.get().pk
    assert client.post("/clubs/wolves/requests/", {"request": request_id, "decision": "approve"}).status_code == 302
    assert Membership.objects.filter(club=club, user=dave).exists()
    assert dave.notifications.filter(kind="request_approved").exists()


def test_members_list_is_for_members_only(client, club, dave):
    client.force_login(dave)
    page = client.get("/clubs/wolves/").content.decode()
    assert "Charlie" not in page
    client.force_login(club.memberships.get(role="member").user)
    assert "Charlie" in client.get("/clubs/wolves/").content.decode()
