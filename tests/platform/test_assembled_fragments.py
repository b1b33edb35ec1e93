"""The renderer assembles fragments from parts it renders once and reuses: the ring's wrapper and
rows, the log's wrapper and items, a board from its part of the view, a status with the version
written in, an empty ``#actions``. Each fragment so assembled must be the fragment's template
rendered from the whole context, for every seat, the host and a spectator, in both languages, at
every version of whole games of every game.

Persona: Afsaneh hosts practice tables of bots.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tables import renderer
from tests.platform.helpers import bot_table, play_until, seat_audiences

pytestmark = pytest.mark.django_db

GAMES = [("werewolf", 6), ("dracula", 2), ("insidejob", 4), ("monster", 3), ("mummy", 5)]


@pytest.fixture(autouse=True)
def _fresh_caches():
    renderer.clear_caches()
    yield
    renderer.clear_caches()


@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_every_assembled_fragment_is_its_template_rendered_from_the_whole_context(slug, players):
    host = get_user_model().objects.create_user(username=f"afsaneh-{slug}", password="a-long-password-1")
    match = bot_table(slug, players, host, seed=7)
    audiences = [renderer.Audience(0, True, True, "en"), *seat_audiences(players)]
    compared = 0
    for version in range(0, 400, 2):
        match = play_until(match, lambda m, v=version: m.version >= v or m.status != "playing")
        snapshot = renderer.load(match.table_id)
        for language in ("en", "fa"):
            for audience in audiences:
                audience = replace(audience, language=language)
                assembled = renderer.fragments_for(snapshot, audience)
                with translation.override(language):
                    ctx = renderer.build_context(snapshot, audience)
                    for name in renderer.FRAGMENTS:
                        whole = renderer.render_fragment(name, ctx, oob=True)
                        assert assembled[name] == whole, (name, slug, match.version, audience)
                        compared += 1
        if match.status != "playing":
            break
    assert match.status != "playing" and compared > 100, "whole games, to their result, were compared"
