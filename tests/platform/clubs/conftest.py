"""Club personas: alice owns the club, bob organizes, charlie is a member, dave is an outsider,
and gus is a guest (a display name, no account)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs import members, nights
from clubs.models import Club, Membership

WEREWOLF_5 = {"game": "werewolf", "seat_count": 5, "options": {}, "speed": "normal"}


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """The personas' passwords are hashed with a fast hasher: the default costs a third of a
    second each, which is most of these tests' time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _english_messages():
    """Code called directly (not through a page) speaks English here, whatever a test before
    this one left active in the thread."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture
def as_(client, request):
    """The test client logged in as a persona by name (``nobody``: not logged in)."""
    def login(name: str):
        if name != "nobody":
            client.force_login(request.getfixturevalue(name))
        return client

    return login


@pytest.fixture
def gus(db):
    from accounts.models import User

    return User.create_guest("Gus")


@pytest.fixture
def club(alice, bob, charlie):
    club = members.create_club(alice, name="Thursday Wolves", slug="wolves", time_zone="Asia/Tehran")
    Membership.objects.create(club=club, user=bob, role=Membership.Role.ORGANIZER)
    Membership.objects.create(club=club, user=charlie, role=Membership.Role.MEMBER)
    return club


@pytest.fixture
def private_club(club):
    club.visibility = Club.Visibility.PRIVATE
    club.save()
    return club


def night_fields(**overrides):
    starts = timezone.now().replace(microsecond=0) + timedelta(days=3)
    fields = {
        "title": "Werewolf night",
        "starts_at": starts,
        "duration": timedelta(hours=3),
        "online": False,
        "address": "Café Naderi, Tehran",
        "place_note": "Upstairs",
        "games": [WEREWOLF_5],
        "capacity": 8,
        "rsvp_deadline": starts - timedelta(hours=2),
    }
    return {**fields, **overrides}


@pytest.fixture
def night(club, bob):
    return nights.create_night(club, bob, night_fields())


def add_members(club, count: int, prefix: str = "m"):
    from accounts.models import User

    people = []
    for i in range(count):
        # no password: hashing one costs a third of a second, and these people never log in with it
        user = User.objects.create(
            username=f"{prefix}{i}", display_name=f"{prefix.upper()}{i}", email=f"{prefix}{i}@example.com"
        )
        Membership.objects.create(club=club, user=user)
        people.append(user)
    return people
