"""``{% include_once %}`` (tables.templatetags.tabletags) renders a small template with only the
values it is given, once per language and values. Every fragment of random games, for every seat,
the host and a spectator, in both languages, must read the same as when each such template is
rendered at every use and sees the whole context besides its values, as ``{% include %}`` did.

Persona: Afsaneh hosts practice tables of bots.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from tables import renderer
from tables.lru import LRU
from tables.templatetags import tabletags
from tests.platform.helpers import bot_table, empty_renderer_caches, play_until, seat_audiences

pytestmark = pytest.mark.django_db

GAMES = [("werewolf", 6), ("dracula", 2), ("insidejob", 4), ("monster", 3), ("mummy", 5)]


@pytest.fixture(autouse=True)
def _fresh_caches():
    renderer.clear_caches()
    yield
    renderer.clear_caches()


def _included_with_the_whole_context(context, template_name, values):
    return mark_safe(render_to_string(template_name, {**context.flatten(), **values}))


@pytest.mark.parametrize(("slug", "players"), GAMES)
def test_a_template_included_once_reads_only_the_values_it_is_given(slug, players, monkeypatch):
    host = get_user_model().objects.create_user(username=f"afsaneh-{slug}", password="a-long-password-1")
    match = bot_table(slug, players, host, seed=3)
    audiences = [renderer.Audience(0, True, True, "en"), *seat_audiences(players)]
    compared = 0
    for version in range(0, 400, 3):
        match = play_until(match, lambda m, v=version: m.version >= v or m.status != "playing")
        snapshot = renderer.load(match.table_id)
        for language in ("en", "fa"):
            for audience in audiences:
                audience = replace(audience, language=language)
                with empty_renderer_caches():
                    once = renderer.fragments_for(snapshot, audience)
                with monkeypatch.context() as patched, empty_renderer_caches():
                    patched.setattr(tabletags, "_render_included", _included_with_the_whole_context)
                    patched.setattr(tabletags, "_included_once", LRU(0))
                    whole = renderer.fragments_for(snapshot, audience)
                assert once == whole, (slug, match.version, audience)
                compared += 1
        if match.status != "playing":
            break
    assert match.status != "playing" and compared > 20, "whole games, to their result, were compared"
