"""After a commit nothing may fail a request: a channel layer that is down is logged, the change
stands, and the user sees the normal answer. One broken match never stops the clock for others.
HEAD works wherever GET does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from shabneshin.env import redis_channel_layer
from tables import broadcast, moderator, seating
from tables.models import Match, Seat, Table
from tests.platform.helpers import fresh, started_werewolf
from tests.redis_server import own_redis  # noqa: F401  (fixture)


@pytest.fixture
def redis_layer(settings, own_redis):  # noqa: F811
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(own_redis.url, 10)}
    return own_redis


@pytest.mark.django_db(transaction=True)
def test_with_redis_down_create_table_answers_its_redirect_and_stores_one_table(client, redis_layer):
    client.post(reverse("accounts:guest"), {"display_name": "Mina"})
    redis_layer.stop()
    response = client.post(
        reverse("tables:create", args=["werewolf"]), {"seat_count": "5", "visibility": "public", "speed": "normal"}
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("tables:detail", args=[table.token])


@pytest.mark.django_db(transaction=True)
def test_with_redis_down_add_bot_answers_its_redirect_and_stores_one_bot(client, alice, redis_layer):
    table = seating.create_table(alice, "werewolf", 5, "public")
    client.force_login(alice)
    redis_layer.stop()
    response = client.post(reverse("tables:add_bot", args=[table.token]))
    assert response.status_code == 302 and response["Location"] == reverse("tables:detail", args=[table.token])
    assert Seat.objects.filter(table=table, is_bot=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_with_redis_down_the_clock_still_applies_due_moves(alice, redis_layer):
    match = started_werewolf(alice)
    redis_layer.stop()
    applied = moderator.run_due(timezone.now() + timedelta(minutes=10))
    assert applied >= 1 and fresh(match).version == applied


def test_a_failed_group_send_is_logged_not_raised(settings, caplog):
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer("redis://127.0.0.1:1/0", 10)}
    broadcast.send("table.nowhere", {"type": "table.changed", "version": 1})
    assert "group send to table.nowhere failed" in caplog.text


@pytest.mark.django_db
def test_one_failing_match_does_not_stop_the_clock_for_the_others(alice, bob, caplog):
    broken = started_werewolf(alice)
    healthy = started_werewolf(bob)
    now = timezone.now() + timedelta(minutes=10)
    # The broken match is first in the clock's queue; its state is one the engine cannot read.
    Match.objects.filter(pk=broken.pk).update(state={"public": {}}, next_deadline=healthy.next_deadline - timedelta(1))
    applied = moderator.run_due(now)
    assert applied >= 1 and fresh(healthy).version == applied
    assert fresh(broken).version == 0
    assert fresh(broken).next_deadline == now + timedelta(seconds=moderator.RETRY_FAILED_AFTER_S)
    assert f"clock: match {broken.pk} failed" in caplog.text


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["tables:lobby", "accounts:guest", "accounts:login", "accounts:signup"])
def test_head_answers_wherever_get_does(client, name):
    assert client.get(reverse(name)).status_code == 200
    head = client.head(reverse(name))
    assert head.status_code == 200 and head.content == b""


@pytest.mark.django_db
def test_head_answers_on_a_table_page_and_a_rules_page(client, werewolf_table):
    assert client.head(reverse("tables:detail", args=[werewolf_table.token])).status_code == 200
    assert client.head(reverse("tables:rules", args=["werewolf"])).status_code == 200
