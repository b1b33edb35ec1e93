"""The Dracula vs Van Helsing table page, rendered for each persona from a fixed deal: each seat
sees its own holder and never the other's hidden cards, spectators see only public cards, the page
reads in English and Persian, and a whole bot game ends with everything revealed."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from tables import moderator, seating
from tables.models import Match, Table
from tests.platform.helpers import fresh, play_until_over

# Scenario 7 of the rules (effect 6) with a little more: Dracula is seat 0 (alice), Van Helsing seat 1.
DRACULA_CARDS = ["R2", "Y7", "R3", "R4", "R5"]
HELSING_CARDS = ["G1", "P3", "G3", "G4", "G5"]
DEAL = {
    "ranking": ["Y", "R", "P", "G"],
    "rounds": [{"dracula": DRACULA_CARDS, "van_helsing": HELSING_CARDS, "deck": ["R1", "R6", "P6", "P8"]}],
}


def _started(host, other=None, deal=DEAL, seed: int = 3) -> Match:
    options = {"dracula_seat": 0} if deal is None else {"dracula_seat": 0, "deal": deal}
    table = seating.create_table(host, "dracula", 2, Table.Visibility.PRIVATE, options)
    if other is not None:
        seating.sit(table, other)
    seating.fill_with_bots(table, host)
    seating.start(table, host, seed=seed)
    return Match.objects.get(table=table)


def _page(client, user, match, lang: str = "en") -> str:
    if user is None:
        client.logout()
    else:
        client.force_login(user)
    response = client.get(reverse("tables:detail", args=[match.table.token]), HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.content.decode()


def _play(match: Match, seat: int, *actions: dict) -> Match:
    for action in actions:
        match = fresh(match)
        moderator.submit(match.pk, seat, action, match.version)
    return fresh(match)


def _cards_shown(page: str, section: str) -> list[str]:
    """The card faces inside one rack, slot 1 first (hidden slots are absent)."""
    rack = re.search(rf'data-testid="rack-{section}".*?</ol>', page, re.S).group(0)
    return re.findall(r'data-card="(\w\d)"', rack)


def _offers(page: str, action: dict) -> bool:
    """Whether the page holds a button for exactly this action."""
    return f'data-action="{html.escape(json.dumps(action, sort_keys=True))}"' in page


def _secret_seats(page: str) -> set[int]:
    return {int(s) for s in re.findall(r'data-secret-of="(\d+)"', page)}


def test_each_seat_sees_its_own_holder_and_only_backs_of_the_other(client, alice, bob):
    match = _started(alice, bob)
    alice_page = _page(client, alice, match)
    bob_page = _page(client, bob, match)
    assert _cards_shown(alice_page, "dracula") == DRACULA_CARDS
    assert _cards_shown(alice_page, "van_helsing") == []
    assert _cards_shown(bob_page, "van_helsing") == HELSING_CARDS
    assert _cards_shown(bob_page, "dracula") == []
    assert _secret_seats(alice_page) == {0} and _secret_seats(bob_page) == {1}
    for card in HELSING_CARDS:
        assert f'data-card="{card}"' not in alice_page
    for card in DRACULA_CARDS:
        assert f'data-card="{card}"' not in bob_page


def test_a_spectator_sees_no_hidden_card(client, alice, bob, charlie):
    match = _started(alice, bob)
    page = _page(client, charlie, match)
    assert 'data-testid="spectator"' in page
    assert _secret_seats(page) == set()
    for card in DRACULA_CARDS + HELSING_CARDS:
        assert f'data-card="{card}"' not in page


def test_the_drawn_card_is_seen_by_the_drawer_alone_and_slots_are_clickable(client, alice, bob, charlie):
    match = _play(_started(alice, bob), 0, {"type": "draw"})
    alice_page = _page(client, alice, match)
    assert 'data-card="R1"' in alice_page
    assert alice_page.count('class="action btn small dv-slot-btn"') == 5, "one 'place here' per slot"
    assert _offers(alice_page, {"type": "discard"})
    for page in (_page(client, bob, match), _page(client, charlie, match)):
        assert 'data-card="R1"' not in page
        assert 'button type="submit" class="action' not in page


def test_revealed_and_swapped_cards_follow_the_rules_views(client, alice, bob, charlie):
    match = _play(_started(alice, bob), 0, {"type": "draw"}, {"type": "discard"})
    # Effect 1: alice picks the slot on her own rack.
    assert _offers(_page(client, alice, match), {"type": "reveal_own", "slot": 2})
    match = _play(match, 0, {"type": "reveal_own", "slot": 2})
    match = _play(match, 1, {"type": "draw"}, {"type": "discard"})  # R6 → effect 6 for Bob
    bob_page = _page(client, bob, match)
    assert bob_page.count("dv-slot-btn") == 5, "one 'swap here' per district"
    match = _play(match, 1, {"type": "swap_district", "district": 2})
    bob_page, alice_page, spectator = (_page(client, u, match) for u in (bob, alice, charlie))
    assert _cards_shown(spectator, "van_helsing") == ["Y7"]  # public, moved with its status
    assert _cards_shown(spectator, "dracula") == []
    assert _cards_shown(bob_page, "dracula") == ["P3"], "Bob remembers the card he gave"
    assert "you gave it" in bob_page
    assert _cards_shown(alice_page, "dracula")[1] == "P3"
    assert _secret_seats(spectator) == set()


def test_the_board_reads_in_english_and_persian(client, alice, bob):
    match = _play(_started(alice, bob), 0, {"type": "draw"})
    english = _page(client, alice, match, "en")
    persian = _page(client, alice, match, "fa")
    assert 'dir="rtl"' in persian
    for text in ("Round 1 of 5", "Colour ranking", ">Place</button>", "You drew"):
        assert text in english
    for text in ("دور ۱ از ۵", "رتبه‌بندی رنگ‌ها", ">بگذارید</button>"):
        assert text in persian
    assert ">بگذار</button>" not in persian, "the player is spoken to formally, as everywhere on the site"
    assert ">Place</button>" not in persian


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_whole_bot_game_ends_with_every_card_revealed(client, alice, charlie, lang):
    match = play_until_over(_started(alice, deal=None, seed=11))
    state = match.state
    for user in (alice, charlie):
        page = _page(client, user, match, lang)
        assert 'data-testid="result"' in page
        for seat in (0, 1):
            final = re.search(rf'data-testid="final-holder-{seat}".*?</div>', page, re.S).group(0)
            assert re.findall(r'data-card="(\w\d)"', final) == state["seats"][seat]["holder"]
        assert 'data-testid="comparison"' in page
    client.force_login(alice)
    history = client.get(reverse("history:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert history.count('class="move"') == match.moves.count()
    kinds = {entry["kind"] for entry in state["log"]}
    assert {"round_resolved", "game_over", "dealt"} <= kinds
    for kind in kinds:
        assert f">{kind}" not in history and f" {kind}<" not in history, f"{kind} reads as a sentence"


def test_effect_four_offers_each_swap_from_both_of_its_slots(client, alice, bob):
    deal = {
        "ranking": ["Y", "R", "P", "G"],
        "rounds": [{"dracula": ["G6", "R2", "R3", "Y2", "R5"], "van_helsing": HELSING_CARDS, "deck": ["P4", "R1"]}],
    }
    match = _play(_started(alice, bob, deal=deal), 0, {"type": "draw"}, {"type": "discard"})
    page = _page(client, alice, match)
    rack = re.search(r'data-testid="rack-dracula".*?</ol>', page, re.S).group(0)
    for slot in range(1, 6):
        cell = re.search(rf'data-slot="{slot}">.*?</li>', rack, re.S).group(0)
        assert cell.count("dv-swap-btn") == 4, f"slot {slot} swaps with each of the other four"
    assert _offers(page, {"type": "swap_own", "slots": [1, 4]})
    match = _play(match, 0, {"type": "swap_own", "slots": [1, 4]})
    assert _cards_shown(_page(client, alice, match), "dracula") == ["Y2", "R2", "R3", "G6", "R5"]


def test_the_persian_round_line_joins_its_sentences_without_a_latin_semicolon(client, alice, bob):
    """«حکم: قرمز; دراکولا ۱۲ جان دارد» had an English semicolon in the middle of Persian."""
    match = _started(alice, bob)
    persian = _page(client, alice, match, "fa")
    line = re.search(r"دور ۱ آغاز شد\..*?جان دارد\.", persian, re.S)
    assert line is not None and ";" not in line[0] and ". دراکولا ۱۲ جان دارد." in line[0]


def test_the_persian_result_puts_no_space_before_a_comma(client, alice):
    """«ون هلسینگ، جان‌های گرفته‌شده: ۳», not «ون هلسینگ ، …»: a comma follows its word, in
    Persian as in English."""
    match = play_until_over(_started(alice, deal=None, seed=11))
    page = _page(client, alice, match, "fa")
    result = re.search(r'<ul class="result-seats">.*?</ul>', page, re.S).group(0)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", result))
    assert "،" in text and " ،" not in text, text
