"""Matches played through the moderator with random legal moves, every seat's live view recorded
after every move: the material of the replay and verify tests."""

from __future__ import annotations

from games import registry
from games.base import TIMEOUT
from tables import moderator, seating
from tables.models import Match, Move
from tests.games.playout import random_move


def played(host, slug: str, n: int, seed: int, seed_of_deal: int | None = None, players=(), by=Move.Source.BOT):
    """A table of ``n`` seats (``host`` and ``players`` first, bots after) whose every move is a
    random legal one, submitted through the moderator. Returns the match and the views each seat
    (and the spectator, ``None``) was sent after each version, from the deal on. ``by`` is who
    the moves are from (a bot, or the seated player)."""
    engine = registry.get(slug)
    # Mummy's 7-8 seats need the advanced guests (rules §2.3 V2).
    options = {"advanced_guests": True} if slug == "mummy" and n >= 7 else None
    table = seating.create_table(host, slug, n, "private", options)
    for player in players:
        seating.sit(table, player)
    seating.fill_with_bots(table, host)
    match = seating.start(table, host, seed=seed_of_deal)
    audiences = [*range(n), None]
    live = [{a: engine.view(match.state, a) for a in audiences}]
    while match.status == Match.Status.PLAYING:
        seat, action = random_move(engine, match.state, f"replay:{seed}")
        source = Move.Source.CLOCK if action == TIMEOUT else by
        match = moderator.submit(match.pk, seat, action, match.version, source=source)
        stored = Match.objects.get(pk=match.pk)
        live.append({a: engine.view(stored.state, a) for a in audiences})
    return Match.objects.select_related("table").get(pk=match.pk), live


def people(count: int, prefix: str = "p"):
    """Players without a password (quick to create), for all-human tables."""
    from accounts.models import User

    return [User.objects.create(username=f"{prefix}{i}", display_name=f"{prefix.upper()}{i}") for i in range(count)]


def human_match(slug: str, users, seed: int):
    """A finished match where every seat is a person and every move is theirs (or the clock's)."""
    host, *rest = users
    return played(host, slug, len(users), seed=seed, players=rest, by=Move.Source.PLAYER)[0]


def decided(slug: str, users, winners: list[int], sides=None, scores=None):
    """A started all-human match closed at once with a given result (for the rating arithmetic,
    where how the game went does not matter, only who won)."""
    from django.utils import timezone

    host, *rest = users
    table = seating.create_table(host, slug, len(users), "private")
    for player in rest:
        seating.sit(table, player)
    match = seating.start(table, host)
    n = len(users)
    result = {
        "winners": winners,
        "seats": [{"side": (sides or [None] * n)[i], "role": "x", "score": (scores or [0] * n)[i]} for i in range(n)],
        "summary": "",
    }
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, result=result, finished_at=timezone.now())
    return Match.objects.get(pk=match.pk)
