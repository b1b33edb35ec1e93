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

from tables.lru import LRU
from tables.templatetags import tabletags
from tests.platform.helpers import BOT_GAMES, assert_fragments_unchanged_by, whole_bot_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_renderer_caches")]


def _included_with_the_whole_context(context, template_name, values):
    return mark_safe(render_to_string(template_name, {**context.flatten(), **values}))


@pytest.mark.parametrize(("slug", "players"), BOT_GAMES)
def test_a_template_included_once_reads_only_the_values_it_is_given(slug, players, monkeypatch):
    host = get_user_model().objects.create_user(username=f"afsaneh-{slug}", password="a-long-password-1")

    def included_at_every_use_with_the_whole_context(patched) -> None:
        patched.setattr(tabletags, "_render_included", _included_with_the_whole_context)
        patched.setattr(tabletags, "_included_once", LRU(0))

    snapshots = whole_bot_game(slug, players, host, seed=3, step=3)
    assert_fragments_unchanged_by(snapshots, players, monkeypatch, included_at_every_use_with_the_whole_context)
