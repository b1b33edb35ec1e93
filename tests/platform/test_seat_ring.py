"""What the renderer reuses must look exactly as a fresh rendering from the whole context would, for
every audience of every game, through a whole game: the seat ring's rows (tables.seat_ring), each
rendered once per distinct inputs, the shared ``#status`` and every other reused fragment."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.utils import translation

from tables import renderer, seat_ring
from tables.models import Match
from tests.platform.helpers import BOT_GAMES, bot_table, empty_renderer_caches, play_until, seat_audiences

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_renderer_caches")]

VERSIONS_CHECKED = 40


def _bot_table(slug: str, players: int) -> Match:
    host = get_user_model().objects.create_user(
        username=f"ring-{slug}", password="a-long-password-1", display_name="Host"
    )
    return bot_table(slug, players, host, seed=11)


@pytest.mark.parametrize(("slug", "players"), BOT_GAMES)
def test_a_seat_badge_reads_only_its_badge_view(slug, players):
    """Every badge rendered from its seat's badge view equals the badge rendered from the whole
    view and context, at every version of a game, for every seat and a spectator."""
    match = _bot_table(slug, players)
    compared = 0
    for version in range(VERSIONS_CHECKED):
        match = play_until(match, lambda m, v=version: m.version >= v or m.status != "playing")
        snapshot = renderer.load(match.table_id)
        for language in ("en", "fa"):
            with translation.override(language):
                for audience in seat_audiences(players):
                    ctx = renderer.build_context(snapshot, audience)
                    for number in range(players):
                        whole = render_to_string(ctx["tpl"]["seat_badge"], {**ctx, "number": number})
                        mine = audience.seat is not None and number == audience.seat
                        part = render_to_string(
                            ctx["tpl"]["seat_badge"],
                            {
                                "view": seat_ring.badge_view(slug, ctx["view"], number),
                                "number": number,
                                "my_seat": number if mine else (None if audience.seat is None else seat_ring.NOT_MINE),
                            },
                        )
                        assert part == whole, (slug, match.version, audience, number)
                        compared += bool(whole.strip())
        if match.status != "playing":
            break
    assert compared > 0, "no badge showed anything: nothing was compared"


@pytest.mark.parametrize(("slug", "players"), BOT_GAMES)
def test_a_reused_seat_row_equals_a_fresh_one(slug, players):
    """Rows kept from earlier versions and other audiences give the ring a fresh rendering gives."""
    match = _bot_table(slug, players)
    for version in range(VERSIONS_CHECKED):
        match = play_until(match, lambda m, v=version: m.version >= v or m.status != "playing")
        snapshot = renderer.load(match.table_id)
        with translation.override("en"):
            for audience in seat_audiences(players):
                warm = renderer.render_fragment("seats", renderer.build_context(snapshot, audience))
                kept, renderer._seat_rows = renderer._seat_rows, renderer._LRU(renderer.RENDERS_KEPT)
                try:
                    fresh = renderer.render_fragment("seats", renderer.build_context(snapshot, audience))
                finally:
                    renderer._seat_rows = kept
                assert warm == fresh, (slug, match.version, audience)
        if match.status != "playing":
            break


@pytest.mark.parametrize(("slug", "players"), BOT_GAMES)
def test_every_reused_fragment_equals_a_fresh_rendering(slug, players):
    """Fragments from caches warmed by earlier versions and other audiences (the host's too) equal
    those rendered with empty caches, in both languages."""
    match = _bot_table(slug, players)
    audiences = [renderer.Audience(None, True, True, "en"), *seat_audiences(players)]
    for version in range(VERSIONS_CHECKED):
        match = play_until(match, lambda m, v=version: m.version >= v or m.status != "playing")
        snapshot = renderer.load(match.table_id)
        for language in ("en", "fa"):
            for audience in audiences:
                audience = replace(audience, language=language)
                warm = renderer.fragments_for(snapshot, audience)
                with empty_renderer_caches():
                    fresh = renderer.fragments_for(snapshot, audience)
                assert warm == fresh, (slug, match.version, audience)
        if match.status != "playing":
            break


def test_a_dead_werewolf_players_badge_shows_the_role_the_village_learned():
    """§3.2/§3.5: a dead player's role becomes public, so the ring shows it beside "out"."""
    match = _bot_table("werewolf", 6)
    match = play_until(match, lambda m: any(m.state["public"]["dead_roles"]) or m.status != "playing")
    dead = next(i for i, role in enumerate(match.state["public"]["dead_roles"]) if role)
    snapshot = renderer.load(match.table_id)
    with translation.override("en"):
        html = renderer.render_fragment("seats", renderer.build_context(snapshot, seat_audiences(6)[0]))
    assert f'data-testid="dead-{dead}"' in html
    assert f'data-role-of="{dead}"' in html


@pytest.mark.parametrize(("slug", "players"), BOT_GAMES)
def test_a_row_kept_as_awaited_shows_a_seat_not_awaited_as_its_own_rendering_would(slug, players):
    """A row is kept once for both "awaited" and not (seat_ring.not_awaited): each row of the ring
    equals the row template rendered from that row's own inputs, awaited or not, through a game."""
    match = _bot_table(slug, players)
    seen = set()
    for version in range(VERSIONS_CHECKED):
        match = play_until(match, lambda m, v=version: m.version >= v or m.status != "playing")
        snapshot = renderer.load(match.table_id)
        with translation.override("en"):
            for audience in seat_audiences(players):
                ctx = renderer.build_context(snapshot, audience)
                rows = ctx["seat_html"]()
                for index, (row, html) in enumerate(zip(ctx["seat_rows"], rows, strict=True)):
                    seat = row["seat"]
                    mine = audience.seat is not None and row["number"] == audience.seat
                    own = seat.user_id is not None and seat.user_id == ctx["me_id"]
                    context = seat_ring.row_context(
                        slug,
                        snapshot.table,
                        row,
                        index,
                        seat_ring.badge_view(slug, ctx["view"], row["number"]),
                        mine,
                        audience.seat,
                        own,
                        False,
                        ctx["user"],
                        renderer.CSRF_PLACEHOLDER,
                    )
                    assert html == render_to_string("tables/_seat_row.html", context), (slug, match.version, audience)
                    seen.add((row["awaited"], mine))
        if match.status != "playing":
            break
    assert {(True, True), (False, True), (True, False), (False, False)} <= seen, seen
