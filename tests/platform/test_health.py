"""``/healthz``: a load balancer's question, answered by what a move itself uses (shabneshin.health).
A fault answers 503 and names only its kind; late mail is told but fails nothing, and how much
of it only to staff."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import HttpCommunicator
from django.utils import timezone

from clubs.models import OutgoingMail
from shabneshin import health
from shabneshin.asgi import application
from tables import clock
from tests.platform.sockets import close_thread_connections
from tests.redis_server import free_port

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def each_request_checks_again(settings):
    """These tests watch a verdict change from one request to the next; the shared verdict has a
    test of its own."""
    settings.HEALTH_REUSE_S = 0
    health.forget_the_latest_verdict()
    yield
    health.forget_the_latest_verdict()


async def _healthz() -> tuple[int, dict]:
    response = await HttpCommunicator(application, "GET", "/healthz", headers=[(b"host", b"testserver")]).get_response(
        timeout=20
    )
    headers = dict(response["headers"])
    assert headers[b"Cache-Control"] == b"no-store", "a balancer must never be answered from a cache"
    return response["status"], json.loads(response["body"])


async def test_a_healthy_process_answers_200_with_its_database_cache_and_channel_layer_checked():
    status, body = await _healthz()
    assert status == 200 and body["healthy"] is True, body
    for name in ("database", "cache", "channel_layer"):
        assert body["checks"][name]["state"] == "ok", body
    assert body["checks"]["clock"] == {"state": "off"}, "the tests run no clock: reported, not a fault"
    assert body["checks"]["mail"] == {"state": "ok"}, "the outbox's counts are for staff, not the public"
    await close_thread_connections()


async def test_a_cache_that_cannot_be_reached_answers_503_naming_only_the_kind_of_fault(settings):
    port = free_port()  # nothing listens there
    settings.CACHES = {"default": {"BACKEND": "shabneshin.cache.RedisCache", "LOCATION": f"redis://127.0.0.1:{port}/0"}}
    status, body = await _healthz()
    assert status == 503 and body["healthy"] is False
    assert body["checks"]["cache"]["state"] == "failing"
    assert body["checks"]["database"]["state"] == "ok"
    assert str(port) not in json.dumps(body) and "127.0.0.1" not in json.dumps(body), "no address in a public answer"
    await close_thread_connections()


async def test_a_channel_layer_that_cannot_be_reached_answers_503(settings):
    port = free_port()
    settings.HEALTH_CHECK_TIMEOUT_S = 3
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "shabneshin.layers.RedisChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{port}/0"]},
        }
    }
    status, body = await _healthz()
    assert status == 503
    assert body["checks"]["channel_layer"]["state"] == "failing", body
    assert str(port) not in json.dumps(body)
    await close_thread_connections()


async def test_a_clock_stuck_in_a_look_answers_503_stalled(settings, monkeypatch):
    """The clock's loop hangs inside a look (as on a database that never answers): tables get no
    timeouts and no bot moves, so the process is not healthy, though every service answers."""
    settings.CLOCK_ENABLED = True
    settings.HEALTH_CLOCK_STALE_S = 0.3
    hung = asyncio.Event()

    async def a_look_that_never_ends() -> float:
        await hung.wait()
        return 0.0

    monkeypatch.setattr(clock, "tick", a_look_that_never_ends)
    try:
        status, body = await _healthz()  # starts this process's clock (StartsTheClock)
        assert status == 200 and body["checks"]["clock"]["state"] == "ok", "just started: not yet late"
        await asyncio.sleep(0.5)
        status, body = await _healthz()
        assert status == 503 and body["checks"]["clock"]["state"] == "stalled", body
        assert body["checks"]["clock"]["last_look_s"] >= 0.3
    finally:
        await clock.stop()
        await close_thread_connections()


async def test_a_running_clock_reports_its_last_look(settings):
    settings.CLOCK_ENABLED = True
    settings.CLOCK_TICK_S = 0.05
    settings.HEALTH_CLOCK_STALE_S = 5
    try:
        await _healthz()
        await asyncio.sleep(0.4)  # several looks
        status, body = await _healthz()
        assert status == 200 and body["checks"]["clock"]["state"] == "ok"
        assert body["checks"]["clock"]["last_look_s"] < 0.4, "the loop records each look, not only its start"
    finally:
        await clock.stop()
        await close_thread_connections()


def _late_and_failed_mail(alice) -> None:
    now = timezone.now()
    common = {"user": alice, "to": "alice@example.com", "kind": OutgoingMail.Kind.REMINDER, "subject": "Tonight"}
    OutgoingMail.objects.create(**common, next_try_at=now - timedelta(hours=1))  # an hour past its try
    OutgoingMail.objects.create(**common, next_try_at=now + timedelta(minutes=5))  # waiting, on time
    OutgoingMail.objects.create(**common, state=OutgoingMail.State.FAILED, attempts=6)


async def test_late_mail_is_reported_as_behind_but_leaves_the_process_healthy(alice):
    await database_sync_to_async(_late_and_failed_mail)(alice)
    status, body = await _healthz()
    assert status == 200 and body["healthy"] is True, "a mail server down holds back no game"
    assert body["checks"]["mail"] == {"state": "behind"}, "anyone may learn that mail is late, not how much"
    await close_thread_connections()


def _staff_and_others(alice, bob) -> None:
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    _late_and_failed_mail(bob)


async def test_only_a_signed_in_staff_member_reads_how_much_mail_is_late_or_given_up(alice, bob, settings):
    """Persona: Alice runs the site (staff); Bob is a player. The same verdict answers both."""
    from django.test import AsyncClient

    settings.HEALTH_REUSE_S = 60  # one verdict shared by the three requests

    await database_sync_to_async(_staff_and_others)(alice, bob)
    staff, player = AsyncClient(), AsyncClient()
    await staff.aforce_login(alice)
    await player.aforce_login(bob)
    for_staff = json.loads((await staff.get("/healthz")).content)
    for_player = json.loads((await player.get("/healthz")).content)
    assert for_staff["checks"]["mail"] == {"state": "behind", "late": 1, "failed_last_day": 1}
    assert for_player["checks"]["mail"] == {"state": "behind"}
    again = json.loads((await staff.get("/healthz")).content)
    assert again["checks"]["mail"]["late"] == 1, "stripping one answer's counts leaves the shared verdict whole"
    await close_thread_connections()


async def test_a_flood_of_requests_shares_one_verdict_and_one_database_connection(settings, monkeypatch):
    """Fifty requests at once (balancers, monitors, somebody's loop) run the checks once: each
    verdict opens a database connection of its own. Once ``HEALTH_REUSE_S`` has passed, the next
    request checks again."""
    settings.HEALTH_REUSE_S = 0.5
    checked = []
    real = health._database

    def counted() -> None:
        checked.append(1)
        real()

    counted.__name__ = "_database"
    monkeypatch.setattr(health, "_database", counted)
    answers = await asyncio.gather(*(_healthz() for _ in range(50)))
    assert {status for status, _ in answers} == {200} and len(checked) == 1
    await asyncio.sleep(0.6)
    status, _ = await _healthz()
    assert status == 200 and len(checked) == 2
    await close_thread_connections()
