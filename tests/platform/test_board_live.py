"""A werewolf board is rendered in two parts (tables.renderer._board): the picture, from the view
without the keys listed in ``BOARD_LIVE_READS``, reused while the rest of its view stays the same,
and the live line of whose turn it is, rendered at every version. Together they must be exactly
the board the whole view renders, for every audience, in both languages; and a turn that passes
from seat to seat must not render every seat's picture again.

Personas: Afsaneh hosts a table of practice bots.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tables import moderator, renderer, seating
from tables.models import Match, Table
from tests.platform.helpers import bot_table, play_until, seat_audiences

pytestmark = pytest.mark.django_db
VERSIONS_CHECKED = 60


@pytest.fixture(autouse=True)
def _fresh_caches():
    renderer.clear_caches()
    yield
    renderer.clear_caches()


def _afsaneh():
    users = get_user_model().objects
    return users.create_user(username="afsaneh", password="a-long-password-1", display_name="Afsaneh")


@pytest.mark.parametrize("slug", sorted(renderer.BOARD_LIVE_READS))
def test_the_two_parts_of_a_board_are_the_board_the_whole_view_renders(slug):
    match = bot_table(slug, 6, _afsaneh(), seed=7)
    checked = 0
    for version in range(1, VERSIONS_CHECKED):
        match = play_until(match, lambda m, v=version: m.version >= v or m.status != "playing")
        snapshot = renderer.load(match.table_id)
        for language in ("en", "fa"):
            for audience in [renderer.Audience(0, True, True, language), *seat_audiences(6, language)]:
                board = renderer.fragments_for(snapshot, audience)["board"]
                with translation.override(language):
                    whole = renderer.render_fragment("board", renderer.build_context(snapshot, audience), oob=True)
                assert board == whole, (match.version, audience)
                checked += 1
        if match.status != "playing":
            break
    assert checked > 100


def test_a_vote_passing_from_seat_to_seat_renders_only_the_live_line_for_the_others(monkeypatch):
    """Six people (the clock's timeouts play for them, one turn at a time, and no autopilot)."""
    monkeypatch.setattr(moderator, "AUTOPILOT_AFTER_MISSES", 10_000)
    users = [_afsaneh()] + [
        get_user_model().objects.create_user(username=f"p{n}", password="a-long-password-1", display_name=f"P{n}")
        for n in range(1, 6)
    ]
    table = seating.create_table(users[0], "werewolf", 6, Table.Visibility.PRIVATE)
    for user in users[1:]:
        seating.sit(table, user)
    seating.start(table, users[0], seed=7)
    match = play_until(Match.objects.get(table=table), lambda m: m.state["public"]["phase"] == "day_vote")
    audiences = [renderer.Audience(n, n == 0, True, "en") for n in range(6)] + seat_audiences(0)
    for audience in audiences:  # the pictures of this vote, once
        renderer.fragments_for(renderer.load(match.table_id), audience)
    pictures = []
    render = renderer.render_fragment
    monkeypatch.setattr(
        renderer, "render_fragment", lambda name, ctx, oob=False: pictures.append(name) or render(name, ctx, oob)
    )
    before = match.state["public"]["turn"]
    match = play_until(match, lambda m: m.state["public"]["turn"] != before or m.state["public"]["phase"] != "day_vote")
    assert match.state["public"]["phase"] == "day_vote", "the seed's vote has more than one voter"
    for audience in audiences:
        renderer.fragments_for(renderer.load(match.table_id), audience)
    # the voter who voted and the next voter see their own pictures change; the others do not
    assert pictures.count("board") <= 2
