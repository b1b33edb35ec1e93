"""Small helpers shared by the platform tests."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from tables import moderator, seating
from tables.models import Match, Table

W5 = ["SEER", "VILLAGER", "WOLF", "DOCTOR", "VILLAGER"]


def started_werewolf(host, players=(), roles=W5, seed: int = 1) -> Match:
    """A 5-seat werewolf table: host at seat 0, ``players`` next, bots in the rest, started."""
    table = seating.create_table(host, "werewolf", 5, Table.Visibility.PRIVATE, {"deal": {"roles": list(roles)}})
    for player in players:
        seating.sit(table, player)
    seating.fill_with_bots(table, host)
    seating.start(table, host, seed=seed)
    return Match.objects.get(table=table)


def fresh(match: Match) -> Match:
    return Match.objects.select_related("table").get(pk=match.pk)


def play_until(match: Match, done, limit: int = 2000) -> Match:
    """Let the clock play every seat (bots, and timeouts for humans), one due moment at a time,
    until ``done(match)``."""
    now = timezone.now()
    for _ in range(limit):
        match = fresh(match)
        if done(match):
            return match
        if match.status != Match.Status.PLAYING:
            raise AssertionError("the match ended first")
        now = max(now, match.next_deadline or now) + timedelta(milliseconds=1)
        moderator.run_due(now)
    raise AssertionError("the clock never got there")


def play_until_over(match: Match) -> Match:
    return play_until(match, lambda m: m.status != Match.Status.PLAYING)


def words_of(html: str) -> str:
    """The page as its wording reads: the ``<bdi>`` isolating each player's name taken away."""
    return html.replace("<bdi>", "").replace("</bdi>", "")
