"""A game's ``#actions`` rendered from what its labels read (tables.actions_view) must be the
actions rendered from the whole view and context, for every seat, at every version of whole games,
in both languages; and actions reused across versions and moves must be fresh ones.

Persona: Afsaneh hosts practice tables of bots.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from games import registry
from tables import actions_view, moderator, renderer, seating
from tables.models import Match, Move
from tests.games.playout import random_move
from tests.platform.helpers import empty_renderer_caches, seat_audiences

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_renderer_caches")]

PLAYERS = {"werewolf": 6}


def _played(slug: str, seed: int) -> Iterator[renderer.Snapshot]:
    """A table of Afsaneh and bots whose every move is a random legal one, submitted through the
    moderator (so several seats are deciding at once, as at a table of people): its snapshot at
    every version, to the end."""
    host = get_user_model().objects.create_user(username=f"afsaneh-{slug}-{seed}", password="a-long-password-1")
    table = seating.create_table(host, slug, PLAYERS[slug], "private")
    seating.fill_with_bots(table, host)
    match = seating.start(table, host, seed=seed)
    engine = registry.get(slug)
    while True:
        snapshot = renderer.load(match.table_id)
        yield snapshot
        if match.status != Match.Status.PLAYING:
            return
        seat, action = random_move(engine, match.state, f"actions:{seed}")
        match = moderator.submit(match.pk, seat, action, match.version, source=Move.Source.BOT)


def test_every_game_that_names_what_its_labels_read_is_checked_here_and_uses_the_generic_actions():
    assert set(actions_view.LABEL_READS) == set(PLAYERS)
    assert all(renderer._generic(slug, "actions") for slug in PLAYERS)


@pytest.mark.parametrize("slug", sorted(actions_view.LABEL_READS))
def test_actions_rendered_from_what_their_labels_read_equal_the_whole_contexts(slug):
    compared = 0
    for seed in range(2):
        for snapshot in _played(slug, seed):
            for language in ("en", "fa"):
                with translation.override(language):
                    for audience in seat_audiences(PLAYERS[slug], language):
                        ctx = renderer.build_context(snapshot, audience)
                        if not ctx["actions"]:
                            continue
                        part = actions_view.label_view(slug, ctx["view"])
                        assert part is not None
                        whole = renderer.render_fragment("actions", ctx, oob=True)
                        kept = renderer.render_fragment("actions", actions_view.actions_context(ctx, part), oob=True)
                        assert kept == whole, (slug, snapshot.version, audience)
                        compared += 1
    assert compared > 100, "whole games' decisions were compared"


def test_a_players_ready_button_is_rendered_once_while_the_others_get_ready(monkeypatch):
    """In the day's discussion every other seat's "ready" changes a seat's view, not its choice:
    the ``#actions`` of a seat not yet ready is reused from one version to the next. Reused
    actions equal fresh ones at every version of whole games (the next day's "ready" carries that
    day's version)."""
    rendered: list[str] = []
    render = renderer.render_fragment

    def counted(name, ctx, oob=False):
        if name == "actions" and ctx["actions"]:
            rendered.append(name)
        return render(name, ctx, oob)

    monkeypatch.setattr(renderer, "render_fragment", counted)
    audiences = seat_audiences(6)
    days = {}
    reused = 0
    for seed in range(3, 5):
        for snapshot in _played("werewolf", seed):
            public = snapshot.match.state["public"]
            discussing = public["phase"] == "day_discussion"
            for audience in audiences:
                before = len(rendered)
                fragments = renderer.fragments_for(snapshot, audience)
                if not renderer.build_context(snapshot, audience)["actions"]:
                    continue
                if discussing:
                    reused += days.get((seed, public["round"]), 0) > 0 and len(rendered) == before
                with empty_renderer_caches():
                    assert renderer.fragments_for(snapshot, audience)["actions"] == fragments["actions"]
            if discussing:
                days[(seed, public["round"])] = days.get((seed, public["round"]), 0) + 1
    assert len(days) >= 3 and max(days.values()) >= 3, "several days, where several seats got ready one by one"
    assert reused >= sum(days.values()) - len(days), "buttons of the seats not yet ready were reused"
