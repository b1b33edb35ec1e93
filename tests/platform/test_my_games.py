"""My games: filters by game, result, date and co-player; one's own matches as JSON."""

from __future__ import annotations

import json
from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from tables import moderator
from tables.models import Match
from tests.platform.helpers import play_until, started_werewolf
from tests.platform.replaying import decided


def _games(alice, bob, charlie):
    won = decided("dracula", [alice, bob], winners=[0])
    lost = decided("dracula", [alice, charlie], winners=[1])
    aborted = play_until(started_werewolf(alice, [bob]), lambda m: m.moves.exclude(seat=1).count() >= 2)
    moderator.abort(aborted)
    old = decided("dracula", [alice, bob], winners=[1])
    Match.objects.filter(pk=old.pk).update(started_at=timezone.now() - timedelta(days=40))
    return won, lost, Match.objects.get(pk=aborted.pk), old


def _listed(client, **query):
    page = client.get(reverse("history:my_games"), query).content.decode()
    return {m.pk for m in Match.objects.all() if reverse("history:match", args=[m.pk]) in page}, page


def test_my_games_filter_by_game_result_date_and_co_player(client, alice, bob, charlie):
    won, lost, aborted, old = _games(alice, bob, charlie)
    client.force_login(alice)
    assert _listed(client)[0] == {won.pk, lost.pk, aborted.pk, old.pk}
    assert _listed(client, game="werewolf")[0] == {aborted.pk}
    assert _listed(client, result="won")[0] == {won.pk}
    assert _listed(client, result="lost")[0] == {lost.pk, old.pk}
    assert _listed(client, result="aborted")[0] == {aborted.pk}
    since = (timezone.now() - timedelta(days=7)).date().isoformat()
    assert _listed(client, since=since)[0] == {won.pk, lost.pk, aborted.pk}
    assert _listed(client, until=since)[0] == {old.pk}
    assert _listed(client, with_player="Charlie")[0] == {lost.pk}
    assert _listed(client, with_player="bob", result="lost")[0] == {old.pk}


def test_bad_filters_get_a_clear_message_and_change_nothing(client, alice, bob, charlie):
    _games(alice, bob, charlie)
    client.force_login(alice)
    listed, page = _listed(client, since="2026-12-10", until="2026-01-01")
    assert "The first date comes after the last one." in page and len(listed) == 4
    listed, page = _listed(client, game="chess", since="not-a-date")
    assert "Select a valid choice" in page and "Enter a date such as" in page and len(listed) == 4


def test_one_bad_filter_leaves_the_good_ones_applied(client, alice, bob, charlie):
    """Alice asks for the Dracula games she won, and mistypes a date: she still sees only those."""
    won, *_ = _games(alice, bob, charlie)
    client.force_login(alice)
    listed, page = _listed(client, game="dracula", result="won", since="yesterday")
    assert "Enter a date such as" in page and listed == {won.pk}
    listed, page = _listed(client, game="dracula", result="won", since="2026-12-10", until="2026-01-01")
    assert "The first date comes after the last one." in page and listed == {won.pk}
    data = json.loads(client.get(reverse("history:export"), {"result": "won", "since": "nonsense"}).content)
    assert [m["id"] for m in data["matches"]] == [won.pk]


def test_the_export_holds_ones_own_matches_and_only_ones_own_moves_of_an_aborted_one(client, alice, bob, charlie):
    won, lost, aborted, old = _games(alice, bob, charlie)
    client.force_login(bob)
    response = client.get(reverse("history:export"))
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert {m["id"] for m in data["matches"]} == {won.pk, aborted.pk, old.pk}
    record = next(m for m in data["matches"] if m["id"] == aborted.pk)
    assert record["result"] is None and all(move["seat"] == 1 for move in record["moves"])
    assert len(record["moves"]) == aborted.moves.filter(seat=1).count() < aborted.moves.count()
    assert record["deal"]["secret"] == ""


def test_the_export_follows_the_filters(client, alice, bob, charlie):
    won, *_ = _games(alice, bob, charlie)
    client.force_login(alice)
    data = json.loads(client.get(reverse("history:export"), {"result": "won"}).content)
    assert [m["id"] for m in data["matches"]] == [won.pk]


def test_the_export_needs_a_login(client, db):
    response = client.get(reverse("history:export"))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]
