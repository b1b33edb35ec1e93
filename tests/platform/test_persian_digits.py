"""A Persian page shows Persian digits: every fragment of every game, at the start, in the middle
and at the end, for a player and a spectator, and the pages around the games (lobby, creation,
rules, history, accounts). Attributes, JSON and form values keep their Latin digits."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games import registry
from tables import moderator, seating
from tables.models import Match, Table
from tables.rendering import FRAGMENTS, context_for, render_fragment
from tests.platform.helpers import fresh
from tests.platform.latin_digits import latin_digits_in_text, markup_in_attributes

SNAPSHOT_EVERY = 9  # due moments of the clock between two looks at the table


def _started(host, slug: str, seats: int, seed: int) -> Match:
    table = seating.create_table(host, slug, seats, Table.Visibility.PUBLIC)
    seating.fill_with_bots(table, host)
    seating.start(table, host, seed=seed)
    return Match.objects.get(table=table)


def _fragments_in_persian(match: Match, viewers) -> dict[str, str]:
    table = fresh(match).table
    out = {}
    with translation.override("fa"):
        for viewer in viewers:
            ctx = context_for(table, viewer)
            for part in FRAGMENTS:
                out[f"{viewer or 'anonymous'} {part} v{ctx['version']}"] = render_fragment(part, ctx)
    return out


def _every_state(match: Match, viewers, limit: int = 3000):
    """The fragments at the start, every few moves, and at the end."""
    yield _fragments_in_persian(match, viewers)
    now = timezone.now()
    for step in range(limit):
        match = fresh(match)
        if match.status != Match.Status.PLAYING:
            yield _fragments_in_persian(match, viewers)
            return
        if step < 3 or step % SNAPSHOT_EVERY == SNAPSHOT_EVERY - 1:
            yield _fragments_in_persian(match, viewers)
        now = max(now, match.next_deadline or now) + timedelta(milliseconds=1)
        moderator.run_due(now)
    raise AssertionError("the game never ended")


def _problems(pages: dict[str, str]) -> dict[str, list[str]]:
    """Latin digits in text, and markup (a name's ``<bdi>``) leaked into an attribute."""
    found = {name: latin_digits_in_text(html) + markup_in_attributes(html) for name, html in pages.items()}
    return {name: problems for name, problems in found.items() if problems}


# Two-digit seat numbers and counts where the game allows more than nine players' worth of them.
GAMES = [(e.slug, min(e.max_players, max(e.min_players, 5))) for e in registry.all()]


def _pages_in_persian(client, match: Match) -> dict[str, str]:
    def get(url: str) -> str:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="fa")
        assert response.status_code == 200, url
        return response.content.decode()

    return {
        "table": get(reverse("tables:detail", args=[match.table.token])),
        "rules": get(reverse("tables:rules", args=[match.table.game])),
        "create": get(reverse("tables:create", args=[match.table.game])),
    }


@pytest.mark.parametrize(("slug", "seats"), GAMES)
def test_every_fragment_and_page_of_every_game_shows_persian_digits_from_start_to_end(
    client, alice, charlie, slug, seats
):
    match = _started(alice, slug, seats, seed=seats)
    client.force_login(alice)
    problems = {f"{k} at the start": v for k, v in _problems(_pages_in_persian(client, match)).items()}
    states = 0
    for pages in _every_state(match, [alice, charlie]):
        problems.update(_problems(pages))
        states += 1
    assert states >= 3
    finished = {f"{k} at the end": v for k, v in _pages_in_persian(client, match).items()}
    finished["my games"] = client.get(reverse("history:my_games"), HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    detail = client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="fa")
    assert detail.status_code == 200
    finished["match detail"] = detail.content.decode()
    problems.update(_problems(finished))
    assert not problems, "\n".join(f"{k}: {v}" for k, v in sorted(problems.items())[:40])


def test_the_lobby_and_account_pages_show_persian_digits(client, alice, bob):
    seating.create_table(alice, "werewolf", 7, Table.Visibility.PUBLIC)
    client.force_login(bob)
    pages = {"lobby": client.get(reverse("tables:lobby"), HTTP_ACCEPT_LANGUAGE="fa").content.decode()}
    client.logout()
    for name in ("accounts:login", "accounts:signup", "accounts:guest"):
        pages[name] = client.get(reverse(name), HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    short = client.post(
        reverse("accounts:signup"),
        {"username": "sara", "password1": "abc", "password2": "abc"},
        HTTP_ACCEPT_LANGUAGE="fa",
    )
    pages["sign-up errors"] = short.content.decode()
    assert not _problems(pages), _problems(pages)


def test_the_leaderboards_and_a_profile_show_persian_digits(client, alice, bob):
    """The leaderboard's note names its formula (μ − 3σ): its 3 is a digit a Persian reader sees."""
    from tests.platform.replaying import human_match

    human_match("dracula", [alice, bob], seed=1)
    client.force_login(alice)
    pages = {
        slug: client.get(reverse("players:leaderboard", args=[slug]), HTTP_ACCEPT_LANGUAGE="fa").content.decode()
        for slug in ("dracula", "werewolf")
    }
    pages["profile"] = client.get(
        reverse("players:profile", args=[alice.username]), HTTP_ACCEPT_LANGUAGE="fa"
    ).content.decode()
    assert not _problems(pages), _problems(pages)


def test_the_scan_finds_latin_digits_in_text_but_not_in_attributes_or_ltr_islands():
    assert latin_digits_in_text('<p title="12">۱۲ <span dir="ltr">12</span><script>var a = 1</script></p>') == []
    assert latin_digits_in_text("<p>score 12</p>") == ["p: 'score 12'"]
    assert latin_digits_in_text('<div dir="ltr"><br><b>1</b></div><i>2</i>') == ["i: '2'"]


def test_refusals_that_carry_numbers_use_persian_digits(alice):
    from tables.seating import SeatingError

    with translation.override("fa"), pytest.raises(SeatingError) as refused:
        seating.create_table(alice, "werewolf", 3, Table.Visibility.PRIVATE)
    assert "۵" in str(refused.value) and "۱۰" in str(refused.value)
    assert not re.search(r"[0-9]", str(refused.value))
