"""Replays: any step of a finished match, through any seat's eyes, the spectator's or everyone's,
recomputed from the seed and the moves, drawn by the game's own templates; exactly what each seat
saw live; never another seat's secret before the end; nothing of a running match."""

from __future__ import annotations

import copy
import random
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games import registry
from history import replay
from tables import moderator
from tables.models import Match
from tests.games.playout import random_move
from tests.platform.helpers import play_until, play_until_over, started_werewolf
from tests.platform.latin_digits import latin_digits_in_text
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


# Tables whose face-down cards hold every kind of pile their game has: an explicit Dracula deal
# with a round still to come, Monster decks fixed for later nights, a random Inside Job special
# role and LARRY's role (two players), Mummy's mystery guests, dances and accusations.
HOLDERS = {"dracula": ["R1", "R2", "R3", "R4", "R5"], "van_helsing": ["G1", "G2", "G3", "G4", "G5"]}
MONSTER_DECKS = [["V01", "V02", "V03", "V04", "V05", "V06"], ["V07", "V08", "V09"], ["V10", "V11", "V12"]]
FACE_DOWN_TABLES = [
    ("dracula", 2, {"deal": {"rounds": [HOLDERS, HOLDERS]}}),
    ("dracula", 2, None),
    ("insidejob", 2, None),
    ("insidejob", 4, {"special_roles": {"random": 1}}),
    ("monster", 3, {"deal": {"victims": MONSTER_DECKS}}),
    ("mummy", 4, None),
    ("werewolf", 5, None),
]
PERSIAN_NAMES = ["آوا", "بیژن", "سارا", "داوود", "الهه"]
ENGLISH_NAMES = ["Alice", "Bob", "Charlie", "Dave", "Erin"]
RAW = re.compile(r"\[|\]|\{|\}|'\w*'|\bNone\b|\bTrue\b|\bFalse\b")


def _face_down_steps(slug: str, n: int, options: dict | None):
    engine = registry.get(slug)
    state = engine.setup(n, copy.deepcopy(options), 7)
    yield state
    while engine.awaiting(state):
        seat, action = random_move(engine, state, "face-down")
        state = engine.apply(state, seat, action)
        yield state


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("language", ["fa", "en"])
@pytest.mark.parametrize(("slug", "n", "options"), FACE_DOWN_TABLES)
def test_the_face_down_cards_are_named_and_drawn_in_the_readers_language_never_dumped(
    alice, slug, n, options, language
):
    """Every step of a game, through everyone's eyes: each face-down card is drawn by the game's
    own card picture, each pile named in the page's language; no key of the engine's hidden state,
    no Python list, None or quote reaches the page, and a Persian page counts in Persian digits."""
    match, _ = played(alice, slug, n, seed=3)
    names = (PERSIAN_NAMES if language == "fa" else ENGLISH_NAMES)[:n]
    drawn = 0
    for state in _face_down_steps(slug, n, options):
        with translation.override(language):
            html = replay.face_down(match, state, names)
        text = _text(html)
        assert 'data-testid="face-down"' in html
        assert not RAW.search(text), f"{slug}: {text}"
        assert not [k for k in state["hidden"] if f">{k}<" in html or ("_" in k and k in text)], f"{slug}: {text}"
        codes = [c for key in ("deck", "box", "aside", "mystery") for c in state["hidden"].get(key) or []]
        for code in codes:
            assert re.search(rf'data-(?:card|mission|victim|guest)="{code}"', html), f"{slug}: {code} not drawn"
        drawn += len(codes)
        if language == "fa":  # not a word of English (the engine's keys were), every number in Persian
            assert not re.findall(r"[a-z]{2,}", text), f"{slug}: {text}"
            assert latin_digits_in_text(html) == [], slug
    assert drawn or slug == "werewolf", "the check saw no face-down card at all"


def test_the_face_down_panel_is_only_in_everyones_eyes_of_a_finished_match(client, alice, charlie):
    """Charlie, a visitor of the finished match's page, sees everything by default and the
    face-down cards with it; through a seat's eyes or the spectator's he does not."""
    match, _ = played(alice, "dracula", 2, seed=5)
    match.table.visibility = "public"
    match.table.save()
    client.force_login(charlie)
    assert 'data-testid="face-down"' in _replay_page(client, match).content.decode()
    for eyes in ("0", "1", "spectator"):
        for step in ("0", "3"):
            page = _replay_page(client, match, step=step, eyes=eyes).content.decode()
            assert 'data-testid="face-down"' not in page and "Face down" not in page, (eyes, step)


def test_a_game_without_its_own_face_down_picture_says_so_rather_than_dump_its_state():
    html = render_to_string("history/_hidden.html", {"hidden": {"deck": ["A08", None], "larry_role": "AGENT"}})
    assert 'data-testid="face-down"' in html and not RAW.search(_text(html))
    assert "deck" not in html and "larry_role" not in html and "A08" not in html
