"""Replays: any step of a finished match, through any seat's eyes, the spectator's or everyone's,
recomputed from the seed and the moves, drawn by the game's own templates; exactly what each seat
saw live; never another seat's secret before the end; nothing of a running match."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games import registry
from history import replay
from tables import moderator
from tables.models import Match
from tests.platform.helpers import play_until, play_until_over, started_werewolf
from tests.platform.replaying import played

ENGINES = [e.slug for e in registry.all()]


def _secret_owners(html: str) -> set[int]:
    return {int(s) for s in re.findall(r'data-secret-of="(\d+)"', html)}


@pytest.mark.parametrize("slug", ENGINES)
def test_the_replayed_view_of_every_seat_at_every_step_is_the_view_it_was_sent_live(alice, slug):
    engine = registry.get(slug)
    rng = random.Random(slug)
    for n in sorted({engine.min_players, engine.max_players}):
        match, live = played(alice, slug, n, seed=rng.randrange(10**6))
        assert match.status == Match.Status.FINISHED
        moves, timeline = replay.timeline(match)
        assert len(timeline) == len(live) == len(moves) + 1
        for step, (state, sent) in enumerate(zip(timeline, live, strict=True)):
            for audience, view in sent.items():
                assert engine.view(state, audience) == view, f"{slug} n={n} step {step} seat {audience}"


@pytest.mark.parametrize("slug", ENGINES)
def test_a_seats_replay_never_shows_another_seats_secret_before_the_end(alice, slug):
    engine = registry.get(slug)
    match, _ = played(alice, slug, engine.min_players, seed=11)
    _, timeline = replay.timeline(match)
    own_secrets_shown = 0
    before_end = len(timeline) - 1
    steps = sorted({round(i * (before_end - 1) / 19) for i in range(20)})  # 20 steps spread over the match
    for step in steps:
        state = timeline[step]
        for seat in range(match.n_players):
            html = "".join(p.html for p in replay.panels(match, state, seat))
            assert _secret_owners(html) <= {seat}, f"{slug} step {step} seat {seat}"
            own_secrets_shown += bool(_secret_owners(html))
        spectator = "".join(p.html for p in replay.panels(match, state, replay.SPECTATOR))
        assert not _secret_owners(spectator), f"{slug} step {step} spectator"
    if slug != "werewolf":  # werewolf draws a role without data-secret-of markers
        assert own_secrets_shown, "the check saw no secret at all"


def test_everything_shows_every_seats_secrets_at_once(alice):
    match, _ = played(alice, "mummy", 4, seed=5)
    _, timeline = replay.timeline(match)
    html = "".join(p.html for p in replay.panels(match, timeline[1], replay.EVERYTHING))
    assert _secret_owners(html) == {0, 1, 2, 3}
    assert 'data-testid="face-down"' in html


def _replay_of(page: str) -> str:
    """The replayed board, without the page's players table and the move list."""
    return page.split('<section id="replay"')[1].split('data-testid="moves"')[0]


def _replay_page(client, match, **query):
    return client.get(reverse("history:match", args=[match.pk]), query)


def test_each_step_has_its_own_url_and_the_log_highlights_its_move(client, alice):
    match = play_until_over(started_werewolf(alice))
    client.force_login(alice)
    page = _replay_page(client, match, step=3, eyes=2).content.decode()
    assert 'data-step="3"' in page and 'data-eyes="2"' in page
    assert re.search(r'<a href="[^"]*step=3[^"]*" class="current" aria-current="step" data-seq="3">', page)
    assert page.count('aria-current="step"') == 1
    deal = _replay_page(client, match, step=0).content.decode()
    assert '<li class="deal current" aria-current="step">' in deal


def test_the_replay_draws_the_step_with_the_games_own_board(client, alice):
    match = play_until_over(started_werewolf(alice))  # alice is the seer at seat 0, seat 2 the wolf
    client.force_login(alice)
    page = _replay_page(client, match, step=0, eyes=1).content.decode()
    assert 'id="board"' in page and 'data-testid="my-role"' in page and "Villager" in page
    assert "Seer" not in _replay_of(page)
    seer = _replay_page(client, match, step=0, eyes=0).content.decode()
    assert "Seer" in _replay_of(seer)


@pytest.mark.parametrize("step", ["999", "-1", "abc", "1.5", "9" * 40])
def test_a_step_outside_the_match_gets_a_clear_message(client, alice, step):
    match = play_until_over(started_werewolf(alice))
    client.force_login(alice)
    response = _replay_page(client, match, step=step)
    page = response.content.decode()
    assert response.status_code == 400 and 'data-testid="replay-error"' in page
    assert f"its steps run from 0 to {match.moves.count()}" in page


@pytest.mark.parametrize("eyes", ["5", "99", "nobody", "-1"])
def test_an_unknown_seat_gets_a_clear_message(client, alice, eyes):
    match = play_until_over(started_werewolf(alice))
    client.force_login(alice)
    response = _replay_page(client, match, eyes=eyes)
    assert response.status_code == 400 and "There is no such seat in this match." in response.content.decode()


def test_a_running_match_cannot_be_replayed_by_anyone(client, alice, bob, charlie):
    match = play_until(started_werewolf(alice, [bob]), lambda m: m.moves.count() >= 3)
    assert match.status == Match.Status.PLAYING and match.moves.exists()
    with pytest.raises(replay.NotReplayable):
        replay.timeline(match)
    for user, query in ((alice, {}), (bob, {"step": "1", "eyes": "0"}), (charlie, {"t": match.table.token})):
        client.force_login(user)
        page = _replay_page(client, match, **query).content.decode()
        assert 'data-testid="still-running"' in page
        assert 'id="replay"' not in page and 'id="board"' not in page


def test_an_aborted_match_replays_only_through_the_players_own_eyes(client, alice, bob, charlie):
    match = started_werewolf(alice, [bob])
    moderator.run_due()
    assert moderator.abort(Match.objects.get(pk=match.pk))
    client.force_login(bob)
    assert _replay_page(client, match, eyes="1").status_code == 200
    assert _replay_page(client, match, eyes="spectator").status_code == 200
    for other in ("0", "2", "all"):
        response = _replay_page(client, match, eyes=other)
        assert response.status_code == 400 and "only through your own eyes" in response.content.decode()
    client.force_login(charlie)
    assert _replay_page(client, match, t=match.table.token).status_code == 200
    assert _replay_page(client, match, t=match.table.token, eyes="1").status_code == 400


def test_an_outsider_cannot_replay_a_private_match(client, alice, dave):
    match = play_until_over(started_werewolf(alice))
    client.force_login(dave)
    assert _replay_page(client, match, step=1, eyes=0).status_code == 404
    assert _replay_page(client, match, step=1, eyes="all").status_code == 404


def test_the_link_holders_replay_links_keep_the_link(client, alice, charlie):
    match = play_until_over(started_werewolf(alice))
    client.force_login(charlie)
    page = _replay_page(client, match, t=match.table.token, step=2).content.decode()
    nexts = re.findall(r'href="([^"]+)" data-replay="next"', page)
    assert nexts and f"t={match.table.token}" in nexts[0].replace("&amp;", "&")
    assert client.get(nexts[0].replace("&amp;", "&")).status_code == 200
