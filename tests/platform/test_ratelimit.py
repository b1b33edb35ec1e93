"""Rate limits on Django's cache: each triggers, says so, and loses nothing the user typed. Chat
storage is bounded too."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from moderation.models import Report
from shabneshin import ratelimit
from tables import chat, seating
from tables.models import ChatMessage, Table
from tests.redis_server import own_redis  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _still(one_rate_window):
    """Every count here stays in one window."""


@pytest.fixture(autouse=True)
def _english():
    """Messages read in English here, whatever an earlier test left active in this thread."""
    with translation.override("en"):
        yield


def test_chat_posts_per_minute_are_limited_with_a_clear_message(settings, werewolf_table, alice):
    settings.RATE_CHAT_PER_MINUTE = 3
    for n in range(3):
        chat.post(werewolf_table, alice, f"line {n}")
    with pytest.raises(chat.ChatRefused, match="writing too fast"):
        chat.post(werewolf_table, alice, "one too many")
    assert ChatMessage.objects.count() == 3


def test_the_chat_limit_is_per_player(settings, werewolf_table, alice, bob):
    settings.RATE_CHAT_PER_MINUTE = 1
    seating.sit(werewolf_table, bob)
    chat.post(werewolf_table, alice, "alice")
    chat.post(werewolf_table, bob, "bob")
    assert ChatMessage.objects.count() == 2


def test_tables_created_per_hour_are_limited_and_the_form_keeps_its_choices(settings, alice):
    settings.RATE_TABLES_PER_HOUR = 2
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(alice)
    form = {"seat_count": "7", "visibility": "private", "speed": "fast"}
    for _ in range(2):
        assert client.post(reverse("tables:create", args=["werewolf"]), form).status_code == 302
    response = client.post(reverse("tables:create", args=["werewolf"]), form)
    page = response.content.decode()
    assert response.status_code == 200 and "many tables in the last hour" in page
    assert '<option value="7" selected>' in page and 'value="fast" selected' in page.replace("\n", " ")
    assert Table.objects.count() == 2


def test_guests_per_address_per_hour_are_limited_and_the_name_is_kept(settings):
    settings.RATE_GUESTS_PER_HOUR = 2
    for n in range(2):
        assert Client().post(reverse("accounts:guest"), {"display_name": f"Guest {n}"}).status_code == 302
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post(reverse("accounts:guest"), {"display_name": "Shirin"})
    page = response.content.decode()
    assert response.status_code == 200 and "Too many new names from your address" in page
    assert 'value="Shirin"' in page and User.objects.count() == 2
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.post(reverse("accounts:guest"), {"display_name": "Elsewhere"}).status_code == 302


def test_sign_ups_per_address_per_hour_are_limited_and_the_form_is_kept(settings):
    settings.RATE_SIGNUPS_PER_HOUR = 1
    data = {"username": "first", "display_name": "", "password1": "x-long-pass-99", "password2": "x-long-pass-99"}
    assert Client().post(reverse("accounts:signup"), data).status_code == 302
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post(reverse("accounts:signup"), {**data, "username": "second"})
    page = response.content.decode()
    assert response.status_code == 200 and "Too many new names from your address" in page
    assert 'value="second"' in page and list(User.objects.values_list("username", flat=True)) == ["first"]


def test_a_limit_counts_in_redis_when_redis_is_configured_and_fails_open_without_it(settings, own_redis):  # noqa: F811
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": own_redis.url}}
    settings.RATE_CHAT_PER_MINUTE = 2
    assert [ratelimit.CHAT_POSTS.allows("p") for _ in range(3)] == [True, True, False]
    own_redis.stop()
    assert ratelimit.CHAT_POSTS.allows("p"), "a cache outage allows rather than refusing everyone"


def test_a_frame_counts_for_its_session_and_its_address_in_one_trip_to_redis_and_the_counters_expire(
    settings,
    own_redis,  # noqa: F811
):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": own_redis.url}}
    settings.RATE_FRAMES_PER_SESSION_10S, settings.RATE_FRAMES_PER_ADDRESS_10S = 2, 3
    from django.core.cache import caches

    assert [ratelimit.frame_allowed("tab-1", "10.0.0.1") for _ in range(3)] == [True, True, False]
    assert ratelimit.frame_allowed("tab-2", "10.0.0.1") is False, "the address has had its three frames"
    assert ratelimit.frame_allowed("tab-3", "10.0.0.2") is True
    backend = caches["default"]
    key, lifetime = ratelimit.FRAMES_PER_SESSION.counter("tab-1")
    assert backend.get(key) == 3
    client = backend._cache.get_client(write=True)
    assert 0 < client.ttl(backend.make_and_validate_key(key)) <= lifetime


def test_stored_chat_is_bounded_but_keeps_reported_lines(monkeypatch, werewolf_table, alice, bob):
    monkeypatch.setattr(chat, "KEPT", 5)
    seating.sit(werewolf_table, bob)
    first = chat.post(werewolf_table, bob, "reported early")
    Report.objects.create(reporter=alice, reported=bob, table=werewolf_table, message=first, reason="abuse")
    for n in range(10):
        chat.post(werewolf_table, alice, f"line {n}")
    texts = list(ChatMessage.objects.order_by("pk").values_list("text", flat=True))
    assert texts == ["reported early", *(f"line {n}" for n in range(5, 10))]


async def test_frames_on_a_loop_are_counted_in_the_process_and_taken_to_redis_in_one_background_trip(
    settings,
    monkeypatch,
    own_redis,  # noqa: F811
):
    """A socket's frame is judged without a round trip: exact for this process's frames, and the
    cache learns the counts (and tells this process the other processes' counts) at each flush."""
    from asgiref.sync import sync_to_async
    from django.core.cache import caches

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": own_redis.url}}
    settings.RATE_FRAMES_PER_SESSION_10S, settings.RATE_FRAMES_PER_ADDRESS_10S = 2, 6
    tally = ratelimit.FrameTally()
    monkeypatch.setattr(ratelimit, "frame_tally", tally)
    trips = []
    real_added = ratelimit._added
    monkeypatch.setattr(ratelimit, "_added", lambda *args: trips.append(args) or real_added(*args))

    assert [ratelimit.frame_allowed("tab-1", "10.0.0.1") for _ in range(3)] == [True, True, False]
    assert ratelimit.frame_allowed("tab-2", "10.0.0.1") is True
    assert trips == [], "no round trip while the frames are judged"
    await tally.flush
    assert len(trips) == 1, "four frames, one trip"
    backend = caches["default"]
    session_key, _ = ratelimit.FRAMES_PER_SESSION.counter("tab-1")
    address_key, lifetime = ratelimit.FRAMES_PER_ADDRESS.counter("10.0.0.1")
    assert await sync_to_async(backend.get)(session_key) == 3
    assert await sync_to_async(backend.get)(address_key) == 4
    client = backend._cache.get_client(write=True)
    assert 0 < await sync_to_async(client.ttl)(backend.make_and_validate_key(address_key)) <= lifetime

    await sync_to_async(backend.incr)(address_key, 2)  # another process's two frames from that address
    assert ratelimit.frame_allowed("tab-3", "10.0.0.1") is True, "seventh frame: this process has not heard yet"
    await tally.flush
    assert ratelimit.frame_allowed("tab-4", "10.0.0.1") is False, "the other process's frames count after a flush"
    assert ratelimit.frame_allowed("tab-5", "10.0.0.2") is True, "another address keeps its own limit"


async def test_frames_are_allowed_when_their_flush_cannot_reach_the_cache(
    settings,
    monkeypatch,
    own_redis,  # noqa: F811
    caplog,
):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": own_redis.url}}
    settings.RATE_FRAMES_PER_SESSION_10S = 2
    tally = ratelimit.FrameTally()
    monkeypatch.setattr(ratelimit, "frame_tally", tally)
    own_redis.stop()
    assert ratelimit.frame_allowed("tab-1", "10.0.0.1") is True
    await tally.flush
    assert "could not reach the cache" in caplog.text
    assert tally.flush is None and not tally.pending, "nothing stays queued for a cache that is down"
    assert ratelimit.frame_allowed("tab-1", "10.0.0.1") is True, "an uncounted frame does not count later"
