"""``{% include_once %}`` (tables.templatetags.tabletags) renders a small template with only the
values it is given, once per language and values. Every fragment of random games, for every seat,
the host and a spectator, in both languages, must read the same as when each such template is
rendered at every use and sees the whole context besides its values, as ``{% include %}`` did.

Persona: Afsaneh hosts practice tables of bots.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from tables import renderer
from tables.lru import LRU
from tables.templatetags import tabletags
from tests.platform.helpers import empty_renderer_caches, every_audience, whole_bot_game

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
    for snapshot in whole_bot_game(slug, players, host, seed=3, step=3):
        for audience in every_audience(players):
            with empty_renderer_caches():
                once = renderer.fragments_for(snapshot, audience)
            with monkeypatch.context() as patched, empty_renderer_caches():
                patched.setattr(tabletags, "_render_included", _included_with_the_whole_context)
                patched.setattr(tabletags, "_included_once", LRU(0))
                assert renderer.fragments_for(snapshot, audience) == once, (slug, snapshot.version, audience)
