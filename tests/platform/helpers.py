"""Small helpers shared by the platform tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import timedelta
from typing import Any

from django.utils import timezone

from tables import moderator, renderer, seating
from tables.models import Match, Table

W5 = ["SEER", "VILLAGER", "WOLF", "DOCTOR", "VILLAGER"]
# Every game at a player count its bots play quickly: (slug, players).
BOT_GAMES = [("werewolf", 6), ("dracula", 2), ("insidejob", 4), ("monster", 3), ("mummy", 5)]


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


@contextmanager
def empty_renderer_caches() -> Iterator[None]:
    """The renderer's caches, empty for the duration (the warm ones are put back after)."""
    names = ("_snapshots", "_renders", "_log_items", "_log_lists", "_events", "_seat_rows")
    kept = {name: getattr(renderer, name) for name in names}
    try:
        for name in names:
            setattr(renderer, name, renderer._LRU(renderer.RENDERS_KEPT))
        yield
    finally:
        for name, cache in kept.items():
            setattr(renderer, name, cache)


def bot_table(slug: str, players: int, host: object, seed: int) -> Match:
    """A table of ``players`` seats: ``host`` at seat 0, practice bots in the rest, started."""
    table = seating.create_table(host, slug, players, Table.Visibility.PRIVATE)
    seating.fill_with_bots(table, host)
    seating.start(table, host, seed=seed)
    return Match.objects.get(table=table)


def seat_audiences(players: int, language: str = "en") -> list[renderer.Audience]:
    """A signed-in spectator's audience and each seat's, in ``language``."""
    return [renderer.Audience(seat, False, True, language) for seat in [None, *range(players)]]


def whole_bot_game(slug: str, players: int, host: object, seed: int, step: int) -> Iterator[renderer.Snapshot]:
    """The table's snapshot at every ``step``-th version of a game of bots, up to its end."""
    match = bot_table(slug, players, host, seed=seed)
    for version in range(0, 2000, step):
        match = play_until(match, lambda m, v=version: m.version >= v or m.status != Match.Status.PLAYING)
        snapshot = renderer.load(match.table_id)
        assert snapshot is not None
        yield snapshot
        if match.status != Match.Status.PLAYING:
            return
    raise AssertionError("the game did not end")


def every_audience(players: int) -> list[renderer.Audience]:
    """The host at seat 0, a signed-in spectator and every seat, each in English and in Persian."""
    audiences = [renderer.Audience(0, True, True, "en"), *seat_audiences(players)]
    return [replace(audience, language=language) for language in ("en", "fa") for audience in audiences]


def assert_fragments_unchanged_by(
    snapshots: Iterator[renderer.Snapshot], players: int, monkeypatch: Any, plain: Callable[[Any], None]
) -> None:
    """Every audience's fragments of every snapshot, rendered with empty caches, equal those
    rendered with ``plain(patched)`` undoing a shortcut (on a ``monkeypatch.context()``)."""
    for snapshot in snapshots:
        for audience in every_audience(players):
            with empty_renderer_caches():
                shortcut = renderer.fragments_for(snapshot, audience)
            with monkeypatch.context() as patched, empty_renderer_caches():
                plain(patched)
                assert renderer.fragments_for(snapshot, audience) == shortcut, (snapshot.version, audience)
