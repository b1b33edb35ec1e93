"""Night of the Mummy in the browser's HTML: each seat sees its own guest and what it learned, and
nothing of another seat's; spectators see only public things; the window and invitation prompts
read the same for every guest; the board speaks English and Persian; the end reveals everything."""

from __future__ import annotations

import re

from django.urls import reverse

from tables import moderator, seating
from tables.models import Match, Move, Table
from tables.rendering import context_for, render_fragment
from tests.platform.helpers import fresh, play_until_over

# Spec §11.0 fixture M5: seats 0..4, mystery slots m0, m1.
M5 = ["ARCHEOLOGIST", "MUMMY", "CAT_BURGLAR", "SASQUATCH", "ANUBIS"]
M5_MYSTERY = ["GARGOYLE", "SARCOPHAGUS"]
TIMEOUT = {"type": "timeout"}


def started_mummy(host, players=(), guests=M5, mystery=M5_MYSTERY, first=0, seed=3) -> Match:
    """A 5-seat table: host at seat 0, ``players`` next, bots in the rest, dealt as given."""
    deal = {"guests": list(guests), "mystery": list(mystery), "first": first}
    table = seating.create_table(host, "mummy", len(guests), Table.Visibility.PRIVATE, {"deal": deal})
    for player in players:
        seating.sit(table, player)
    seating.fill_with_bots(table, host)
    seating.start(table, host, seed=seed)
    return Match.objects.get(table=table)


def play(match: Match, seat: int, action: dict) -> Match:
    source = Move.Source.CLOCK if action == TIMEOUT else Move.Source.PLAYER
    moderator.submit(match.pk, seat, action, None, source=source)
    return fresh(match)


def close_window(match: Match) -> Match:
    """Spec §11.0 ``close``: every awaited seat times out, in seat order, until the window ends."""
    decision = match.state["public"]["decision"]
    while match.state["public"]["decision"] == decision and match.status == Match.Status.PLAYING:
        seat = min(match.engine.awaiting(match.state))
        match = play(match, seat, TIMEOUT)
    return match


def page_of(client, user, match: Match, language: str = "en") -> str:
    client.force_login(user)
    response = client.get(reverse("tables:detail", args=[match.table.token]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def secret_seats(html: str) -> set[str]:
    return set(re.findall(r'data-secret-of="([^"]*)"', html))


def face_up_guests(html: str) -> set[str]:
    return set(re.findall(r'data-guest="([A-Z_]+)"', html))


def fragment(match: Match, user, part: str) -> str:
    from django.utils import translation

    with translation.override("en"):
        return render_fragment(part, context_for(fresh(match).table, user))


def test_each_player_sees_their_own_guest_card_and_no_one_elses(client, alice, bob):
    match = started_mummy(alice, [bob])
    alice_page = page_of(client, alice, match)
    bob_page = page_of(client, bob, match)
    assert 'data-testid="my-guest"' in alice_page and 'data-testid="my-guest"' in bob_page
    assert face_up_guests(alice_page) == {"ARCHEOLOGIST"}
    assert face_up_guests(bob_page) == {"MUMMY"}
    assert secret_seats(alice_page) == {"0"} and secret_seats(bob_page) == {"1"}
    # The accusation cards of every guest in play are public, in canonical order.
    for page in (alice_page, bob_page):
        assert page.count('class="mm-name-card') == 7
        assert page.count("mm-card mm-back") >= 4 + 2  # four other players and two mystery guests


def test_a_spectator_sees_only_backs_and_the_public_cards(client, alice, charlie):
    match = started_mummy(alice)
    page = page_of(client, charlie, match)
    assert 'data-testid="spectator"' in page and 'data-testid="my-guest"' not in page
    assert face_up_guests(page) == set() and secret_seats(page) == set()
    assert page.count("mm-card mm-back") == 5 + 2
    assert "Accusation cards" in page and "The Sarcophagus" in page  # the public list of guests


def test_the_board_speaks_english_and_persian(client, alice):
    match = started_mummy(alice)
    english = page_of(client, alice, match, "en")
    persian = page_of(client, alice, match, "fa")
    assert 'dir="ltr"' in english and "Mystery guests" in english and "The Archeologist" in english
    assert 'dir="rtl"' in persian and "مهمانان مرموز" in persian and "باستان‌شناس" in persian
    assert "Mystery guests" not in persian and "Your guest" not in persian
    assert 'class="mm-card mm-face mm-g-archeologist' in persian


def test_an_inquiry_answer_is_shown_to_the_asker_and_the_asked_only(client, alice, bob, charlie):
    match = started_mummy(alice, [bob])
    match = play(match, 0, {"type": "act", "kind": "inquire"})
    page = page_of(client, alice, match)
    assert page.count('class="btn action mm-ask-btn') == 4 * 7, "one button per player and guest"
    match = play(match, 0, {"type": "ask", "target": 1, "guest": "MUMMY"})
    alice_page, bob_page, spectator = (page_of(client, u, match) for u in (alice, bob, charlie))
    assert "whispers to you" in alice_page and 'class="mm-no"' in alice_page
    assert "You whisper to" in bob_page and 'class="mm-no"' in bob_page
    assert "asks" in spectator and 'class="mm-no"' not in spectator and 'class="mm-yes"' not in spectator
    assert secret_seats(alice_page) == {"0"} and secret_seats(bob_page) == {"1"} and not secret_seats(spectator)


def test_dancers_see_what_was_shown_and_nobody_else_does(client, alice, bob, charlie):
    match = started_mummy(alice, [bob])
    match = play(match, 0, {"type": "act", "kind": "dance"})
    match = play(match, 0, {"type": "invite", "target": 1})
    match = play(match, 1, {"type": "accept"})
    match = close_window(match)  # JOIN: nobody joins (the Gargoyle is a mystery guest)
    alice_page, bob_page, spectator = (page_of(client, u, match) for u in (alice, bob, charlie))
    assert face_up_guests(alice_page) == {"ARCHEOLOGIST"}, "the Mummy hid its face from alice"
    assert face_up_guests(bob_page) == {"MUMMY", "ARCHEOLOGIST"}, "alice showed her face to bob"
    assert "In this dance" in bob_page and "You hide your face." in bob_page
    assert "are dancing" in spectator and not face_up_guests(spectator) and not secret_seats(spectator)
    assert secret_seats(alice_page) == {"0"} and secret_seats(bob_page) == {"1"}


def test_must_accept_guests_get_the_same_invitation_prompt(alice, bob):
    """Spec §9.15: bob as the Archeologist (must accept) and bob as the Mummy see the same words
    and the same two buttons."""
    fragments = []
    for guests in (["MUMMY", "ARCHEOLOGIST", *M5[2:]], list(M5)):
        match = started_mummy(alice, [bob], guests=guests)
        match = play(match, 0, {"type": "act", "kind": "dance"})
        match = play(match, 0, {"type": "invite", "target": 1})
        fragments.append(fragment(match, bob, "actions"))
    assert fragments[0] == fragments[1]
    assert fragments[0].count('class="btn action') == 2 and "Accept" in fragments[0] and "Decline" in fragments[0]


def test_a_window_prompt_reads_the_same_whoever_can_act(alice, bob, charlie):
    """In the JOIN window the Gargoyle gets one more button; the words around it are the same, and
    every seat that can only pass gets exactly the same fragment, before and after its choice."""
    guests = ["ARCHEOLOGIST", "MUMMY", "GARGOYLE", "SASQUATCH", "ANUBIS"]
    match = started_mummy(alice, [bob, charlie], guests=guests, mystery=["CAT_BURGLAR", "SARCOPHAGUS"], first=3)
    match = play(match, 3, {"type": "act", "kind": "dance"})
    match = play(match, 3, {"type": "invite", "target": 4})
    match = play(match, 4, {"type": "accept"})
    assert match.state["public"]["window"]["kind"] == "join"
    alice_html, bob_html, gargoyle_html = (fragment(match, u, "actions") for u in (alice, bob, charlie))
    assert alice_html == bob_html
    assert gargoyle_html.count('class="btn action') == 2 and alice_html.count('class="btn action') == 1
    prompt = re.compile(r'<p class="mm-prompt">.*?</p>\s*<p class="mm-hint muted">.*?</p>', re.S)
    assert prompt.search(alice_html).group(0) == prompt.search(gargoyle_html).group(0)
    match = play(match, 0, {"type": "pass"})
    match = play(match, 2, {"type": "join"})
    assert fragment(match, alice, "actions") == fragment(match, charlie, "actions")
    assert "Your choice is recorded" in fragment(match, alice, "actions")


def test_a_whole_bot_game_ends_with_everything_revealed(client, alice, charlie):
    match = play_until_over(started_mummy(alice, seed=11))
    assert match.status == Match.Status.FINISHED
    final = match.state["public"]["final"]
    for user in (alice, charlie):
        page = page_of(client, user, match)
        assert 'data-testid="result"' in page
        for seat, guest in enumerate(final["guests"]):
            assert f'data-guest-of="{seat}" data-guest="{guest}"' in page
        for guest in final["mystery"]:
            assert f'data-guest="{guest}"' in page
        assert "Who answered what" in page or match.state["public"]["draw"]
    persian = page_of(client, alice, match, "fa")
    assert 'data-testid="result"' in persian and ("برنده" in persian or "مساوی" in persian)


def test_every_log_kind_renders_as_a_sentence(client, alice, bob):
    """A game with inquiries, a declined and an accepted dance, accusations and a win: no log
    entry falls back to its bare kind."""
    match = play_until_over(started_mummy(alice, [bob], seed=5))
    page = page_of(client, alice, match)
    log = page.split('id="log"', 1)[1]
    kinds = {e["kind"] for e in match.state["log"]}
    for kind in kinds:
        item = re.search(rf'<li class="log-{kind}[^"]*">(.*?)</li>', log, re.S)
        assert item is not None, kind
        assert item.group(1).strip() != kind


def test_the_history_page_tells_the_finished_game_in_sentences(client, alice):
    match = play_until_over(started_mummy(alice, seed=7))
    client.force_login(alice)
    page = client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The masquerade begins" in page
    assert page.count('class="move"') == match.moves.count()
    assert "Inquire" in page or "Invite to dance" in page or "Accuse (unmask yourself)" in page


def test_a_dances_notes_join_their_clauses_with_the_persian_semicolon(client, alice):
    """«…؛ ربات ۳ یک مهمان مرموز را دید», not an English «;» in the middle of Persian."""
    from tests.platform.replaying import played

    match, live = played(alice, "mummy", 7, seed=2, seed_of_deal=2)  # seat 1 sees Sasquatch peek
    step, seat = next(
        (k, s)
        for k, views in enumerate(live)
        for s, view in views.items()
        if s is not None and any(d["events"] for d in view.get("dances", []))
    )
    client.force_login(alice)
    url = reverse("history:match", args=[match.pk])
    page = client.get(url, {"eyes": seat, "step": step}, HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    learned = page[page.index('data-testid="learned"') :]
    learned = learned[: learned.index("</ul>")]
    assert "؛ " in learned and ";" not in learned.replace("&#x27;", "").replace("&quot;", "")


def skipped_heading_levels(html: str) -> list[tuple[int, int]]:
    """Each heading that goes more than one level deeper than the one before it (axe: heading-order)."""
    levels = [int(level) for level in re.findall(r"<h([1-6])[\s>]", html)]
    return [(before, after) for before, after in zip(levels, levels[1:], strict=False) if after > before + 1]


def test_what_a_dancer_learned_is_headed_one_level_below_their_guest(client, alice, bob):
    """The table page and the match page (a seat's eyes) step down one heading level at a time:
    «In this dance» and «What you have learned» sit under «Your guest» (an h2), as h3s."""
    from tests.platform.replaying import played

    match = started_mummy(alice, [bob])
    match = play(match, 0, {"type": "act", "kind": "dance"})
    match = play(match, 0, {"type": "invite", "target": 1})
    match = play(match, 1, {"type": "accept"})
    match = close_window(match)
    table_page = page_of(client, bob, match)
    assert "In this dance" in table_page and "What you have learned" in table_page
    assert not skipped_heading_levels(table_page)

    match, live = played(alice, "mummy", 7, seed=2, seed_of_deal=2)
    step, seat = next(
        (k, s) for k, views in enumerate(live) for s, view in views.items() if s is not None and view.get("dances")
    )
    client.force_login(alice)
    match_page = client.get(reverse("history:match", args=[match.pk]), {"eyes": seat, "step": step}).content.decode()
    assert 'data-testid="learned"' in match_page
    assert not skipped_heading_levels(match_page)
