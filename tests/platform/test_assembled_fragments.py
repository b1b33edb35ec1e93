"""The renderer assembles fragments from parts it renders once and reuses: the ring's wrapper and
rows, the log's wrapper and items, a board from its part of the view, a status with the version
written in, an empty ``#actions``. Each fragment so assembled must be the fragment's template
rendered from the whole context, for every seat, the host and a spectator, in both languages, at
every version of whole games of every game.

Personas: Afsaneh hosts practice tables of bots; at her werewolf table Bahram plays too, so her
host menu lists a player.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tables import renderer
from tests.platform.helpers import BOT_GAMES, every_audience, play_until, started_werewolf, whole_bot_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_renderer_caches")]


def _assert_assembled_equal_whole(snapshot, audiences) -> None:
    for audience in audiences:
        assembled = renderer.fragments_for(snapshot, audience)
        with translation.override(audience.language):
            ctx = renderer.build_context(snapshot, audience)
            for name in renderer.FRAGMENTS:
                whole = renderer.render_fragment(name, ctx, oob=True)
                assert assembled[name] == whole, (name, snapshot.table.game, snapshot.version, audience)


def test_the_hosts_status_with_a_player_in_her_menu_is_its_template_rendered_from_the_whole_context():
    users = get_user_model().objects
    afsaneh = users.create_user(username="afsaneh", password="a-long-password-1", display_name="Afsaneh")
    bahram = users.create_user(username="bahram", password="a-long-password-1", display_name="Bahram")
    match = started_werewolf(afsaneh, players=[bahram])
    audiences = [
        replace(audience, language=language)
        for language in ("en", "fa")
        for audience in (renderer.Audience(0, True, True, "en"), renderer.Audience(1, False, True, "en"))
    ]
    for version in range(0, 60, 3):
        match = play_until(match, lambda m, v=version: m.version >= v or m.status != "playing")
        snapshot = renderer.load(match.table_id)
        if match.status == "playing":
            assert "Bahram" in str(renderer.build_context(snapshot, audiences[0])["host_menu"]["others"])
        _assert_assembled_equal_whole(snapshot, audiences)
        if match.status != "playing":
            break


@pytest.mark.parametrize(("slug", "players"), BOT_GAMES)
def test_every_assembled_fragment_is_its_template_rendered_from_the_whole_context(slug, players):
    host = get_user_model().objects.create_user(username=f"afsaneh-{slug}", password="a-long-password-1")
    for snapshot in whole_bot_game(slug, players, host, seed=7, step=2):
        _assert_assembled_equal_whole(snapshot, every_audience(players))
