"""Matches played through the moderator with random legal moves, every seat's live view recorded
after every move: the material of the replay and verify tests."""

from __future__ import annotations

from games import registry
from games.base import TIMEOUT
from tables import moderator, seating
from tables.models import Match, Move
from tests.games.playout import random_move


def played(host, slug: str, n: int, seed: int, seed_of_deal: int | None = None, players=()):
    """A table of ``n`` seats (``host`` and ``players`` first, bots after) whose every move is a
    random legal one, submitted through the moderator. Returns the match and the views each seat
    (and the spectator, ``None``) was sent after each version, from the deal on."""
    engine = registry.get(slug)
    table = seating.create_table(host, slug, n, "private")
    for player in players:
        seating.sit(table, player)
    seating.fill_with_bots(table, host)
    match = seating.start(table, host, seed=seed_of_deal)
    audiences = [*range(n), None]
    live = [{a: engine.view(match.state, a) for a in audiences}]
    while match.status == Match.Status.PLAYING:
        seat, action = random_move(engine, match.state, f"replay:{seed}")
        source = Move.Source.CLOCK if action == TIMEOUT else Move.Source.BOT
        match = moderator.submit(match.pk, seat, action, match.version, source=source)
        stored = Match.objects.get(pk=match.pk)
        live.append({a: engine.view(stored.state, a) for a in audiences})
    return Match.objects.select_related("table").get(pk=match.pk), live
