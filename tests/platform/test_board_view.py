"""A game's ``#board`` rendered from the part of the view it reads (tables.board_view) must be the
board rendered from the whole view and context, for every seat and a spectator, at every version
of whole games, in both languages; and a board reused across versions must be a fresh one.

Persona: Afsaneh hosts practice tables of bots.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tables import board_view, renderer
from tables.models import Match
from tests.platform.helpers import bot_table, empty_renderer_caches, play_until, seat_audiences

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_renderer_caches")]

PLAYERS = {"werewolf": 6}


def _games(slug: str, seeds: range) -> list[Match]:
    host = get_user_model().objects.create_user(username=f"afsaneh-{slug}", password="a-long-password-1")
    return [bot_table(slug, PLAYERS[slug], host, seed=seed) for seed in seeds]


def test_every_game_that_names_its_board_view_is_checked_here():
    assert set(board_view.BOARD_VIEWS) == set(PLAYERS)


@pytest.mark.parametrize("slug", sorted(board_view.BOARD_VIEWS))
def test_a_board_rendered_from_its_part_of_the_view_equals_the_whole_views(slug):
    compared = over = 0
    for match in _games(slug, range(2)):
        for version in range(400):
            match = play_until(match, lambda m, v=version: m.version >= v or m.status != "playing")
            snapshot = renderer.load(match.table_id)
            for language in ("en", "fa"):
                with translation.override(language):
                    for audience in seat_audiences(PLAYERS[slug], language):
                        ctx = renderer.build_context(snapshot, audience)
                        part = board_view.board_view(slug, ctx["view"], audience.seat)
                        assert part is not None
                        whole = renderer.render_fragment("board", ctx, oob=True)
                        assert renderer.render_fragment("board", board_view.board_context(ctx, part), oob=True) == whole
                        compared += 1
            if match.status != "playing":
                over += 1
                break
    assert over == 2 and compared > 100, "whole games, to their result, were compared"


def test_a_werewolf_board_is_rendered_again_only_for_the_seats_whose_turn_ends_or_begins(monkeypatch):
    """The night turn passing from one seat to the next renders at most those two seats' boards
    again; every other seat's board is reused, and equals a fresh one."""
    (match,) = _games("werewolf", range(5, 6))
    audiences = seat_audiences(6)
    match = play_until(match, lambda m: m.state["public"]["phase"] == "night" and m.version >= 2)
    for audience in audiences:
        renderer.fragments_for(renderer.load(match.table_id), audience)
    turn = match.engine.view(match.state, None)["turn_seat"]
    match = play_until(match, lambda m: m.engine.view(m.state, None)["turn_seat"] != turn)
    assert match.state["public"]["phase"] == "night"
    rendered_for: list[int | None] = []
    render = renderer.render_fragment

    def counted(name, ctx, oob=False):
        if name == "board":
            rendered_for.append(ctx["my_seat"])
        return render(name, ctx, oob)

    monkeypatch.setattr(renderer, "render_fragment", counted)
    after = {a: renderer.fragments_for(renderer.load(match.table_id), a)["board"] for a in audiences}
    assert set(rendered_for) <= {turn, match.engine.view(match.state, None)["turn_seat"]}
    assert len(rendered_for) <= 2
    with empty_renderer_caches():
        assert after == {a: renderer.fragments_for(renderer.load(match.table_id), a)["board"] for a in audiences}
