"""Monster in the browser's HTML, rendered through the Django test client: each seat sees its own
face-down pick and nobody else's (a pick appears nowhere on another page before the reveal), the
board draws the hand, the victims, the captured piles, the track and the scores in English and
Persian, every log kind reads as a sentence, and a whole bot game ends with a full reveal."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games.monster.cards import VICTIMS
from shabneshin.localize import digits
from tables import moderator, seating
from tables.models import Match, Table
from tests.platform.helpers import fresh, play_until_over, words_of

FIRST_ROW = ["V01", "V02", "V03"]  # Mayor, Professor, Nurse


def started_monster(host, players=(), deal=None, seats: int = 3, seed: int = 1, **options) -> Match:
    """A Monster table: host at seat 0, ``players`` next, bots in the rest, started."""
    options = {**options, "deal": deal or {"track": list(range(seats)), "victims": [FIRST_ROW]}}
    table = seating.create_table(host, "monster", seats, Table.Visibility.PRIVATE, options)
    for player in players:
        seating.sit(table, player)
    seating.fill_with_bots(table, host)
    seating.start(table, host, seed=seed)
    return Match.objects.get(table=table)


def act(match: Match, seat: int, **action) -> Match:
    moderator.submit(match.pk, seat, action, fresh(match).version)
    return fresh(match)


def page_of(client, match: Match, user, language: str = "en") -> str:
    client.force_login(user)
    response = client.get(reverse("tables:detail", args=[match.table.token]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return words_of(response.content.decode())


def board(page: str) -> str:
    return page[page.index('id="board"') : page.index('id="log"')]


def comparable(page: str, match: Match) -> str:
    """The page without what differs between two otherwise equal tables (token, clocks, ids)."""
    page = page.replace(match.table.token, "TOKEN")
    page = re.sub(r'(data-deadline|data-until)="[^"]*"', "", page)
    page = re.sub(r'"X-CSRFToken": "[^"]*"', "", page)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)


def test_my_hand_is_offered_as_cards_and_my_pick_stays_mine(client, alice, bob, charlie):
    match = started_monster(alice, [bob])
    mine = page_of(client, match, alice)
    assert mine.count('class="action mo-pick kind-select') == 9, "all nine monsters to pick from"
    assert "Vampire" in mine and "Kaiju" in mine and "Mayor" in mine
    match = act(match, 0, type="select", monster=6)
    mine = page_of(client, match, alice)
    assert 'data-testid="my-pick"' in mine and 'data-secret-of="0"' in mine
    assert 'data-monster="6"' in mine[mine.index('data-testid="my-pick"') :][:2000]
    assert "mo-pick kind-select" not in mine, "a pick is final"
    for other in (bob, charlie):
        page = page_of(client, match, other)
        assert 'data-secret-of="0"' not in page and 'data-testid="my-pick"' not in page
        assert 'data-testid="picked-0"' in page, "who has picked is public"
        assert 'data-testid="picked-1"' not in page and 'data-testid="picked-2"' not in page


@pytest.mark.parametrize("language", ["en", "fa"])
def test_a_pick_appears_nowhere_on_another_page_before_the_reveal(client, alice, bob, charlie, language):
    """Two equal tables where alice picks differently: bob's and a spectator's pages are identical."""
    pages = {}
    for pick in (3, 8):
        match = act(started_monster(alice, [bob]), 0, type="select", monster=pick)
        match = act(match, 2, type="select", monster=pick - 1)  # the bot's pick as well
        pages[pick] = {who.username: comparable(page_of(client, match, who, language), match) for who in (bob, charlie)}
    assert pages[3]["bob"] == pages[8]["bob"]
    assert pages[3]["charlie"] == pages[8]["charlie"]
    assert 'data-secret-of="0"' not in pages[3]["bob"] + pages[3]["charlie"]


def test_after_the_reveal_every_monster_is_public(client, alice, bob, charlie):
    match = started_monster(alice, [bob])
    for seat, k in ((0, 6), (1, 3), (2, 8)):  # alice's Vampire drains bob's Mummy; the Kaiju hunts first
        match = act(match, seat, type="select", monster=k)
    for who in (alice, bob, charlie):
        page = board(page_of(client, match, who))
        assert "data-secret-of" not in page
        for k in (6, 3, 8):
            assert 'class="mc-card mc-seat-' in page and f'data-monster="{k}"' in page
        assert "drained" in page
    log = page_of(client, match, charlie)
    assert "Alice's Vampire drains Bob's Mummy" in log


def test_the_board_shows_track_offer_captures_and_scores(client, alice, bob):
    deal = {"track": [2, 0, 1], "victims": [FIRST_ROW], "captured": [["V11"], [], ["V08"]]}
    match = started_monster(alice, [bob], deal=deal)
    page = board(page_of(client, match, bob))
    track = page[page.index('data-testid="track"') :]
    assert track.index("Bot 3") < track.index("Alice") < track.index("Bob"), "tiles in track order"
    offer = page[page.index('data-testid="offer"') :]
    for vid in FIRST_ROW:
        assert f'data-victim="{vid}"' in offer[: offer.index('class="mo-players"')]
    captured = page[page.index('data-testid="captured-0"') :]
    assert 'data-victim="V11"' in captured[:800] and "Engineer" in captured[:800]
    assert 'data-testid="scores"' in page and "Scores per night" in page


def test_the_board_speaks_persian(client, alice, bob):
    match = started_monster(alice, [bob])
    page = page_of(client, match, alice, "fa")
    assert 'dir="rtl"' in page
    for text in ("شهردار", "استاد دانشگاه", "خون‌آشام", "کایجو", "تودهٔ لزج", "قربانی"):
        assert text in page, text
    for english in ("Mayor", "Vampire", "Victims on offer", "Turn-order tiles"):
        assert english not in board(page), english


@pytest.mark.parametrize(
    ("deal", "moves", "awaited", "phase", "expected"),
    [
        # §9 scenario 4: B's Werewolf hits A, who discards; then A's Invisible Man may burn V13.
        (
            {"track": [1, 2, 0], "captured": [[], ["V13"], []], "victims": [["V03", "V06", "V16"]]},
            [
                (0, {"type": "select", "monster": 2}),
                (1, {"type": "select", "monster": 5}),
                (2, {"type": "select", "monster": 3}),
            ],
            0,
            "discard",
            "Werewolf mauls you",
        ),
        # §9 scenario 8: A's Blob may absorb.
        (
            {"track": [0, 1, 2], "victims": [FIRST_ROW]},
            [
                (0, {"type": "select", "monster": 0}),
                (1, {"type": "select", "monster": 8}),
                (2, {"type": "select", "monster": 3}),
            ],
            0,
            "absorb",
            "Absorb nothing",
        ),
        # §9 scenario 9: A's Swamp Creature must dump the Monster Hunter on someone.
        (
            {"track": [0, 1, 2], "victims": [["V07", "V01", "V02"]]},
            [
                (0, {"type": "select", "monster": 1}),
                (1, {"type": "select", "monster": 8}),
                (2, {"type": "select", "monster": 7}),
                (1, {"type": "take", "victim": "V01"}),
                (2, {"type": "take", "victim": "V02"}),
            ],
            0,
            "give",
            "Give it to Bob",
        ),
        # §9 scenario 7 variant: A's Invisible Man on an empty table burns from a pile.
        (
            {"track": [0, 1, 2], "victims": [FIRST_ROW]},
            [
                (0, {"type": "select", "monster": 2}),
                (1, {"type": "select", "monster": 8}),
                (2, {"type": "select", "monster": 7}),
                (1, {"type": "take", "victim": "V01"}),
                (2, {"type": "take", "victim": "V02"}),
            ],
            0,
            "invisible",
            "Burn from Bob's pile",
        ),
    ],
)
def test_every_decision_is_offered_as_clickable_cards(client, alice, bob, deal, moves, awaited, phase, expected):
    match = started_monster(alice, [bob], deal=deal)
    for seat, action in moves:
        match = act(match, seat, **action)
    assert match.state["public"]["phase"] == phase
    page = page_of(client, match, alice)
    actions = page[page.index('id="actions"') : page.index('id="log"')]
    assert expected in actions
    legal = [a for a in match.engine.legal_actions(match.state, awaited) if a["type"] != "timeout"]
    assert actions.count('class="action mo-pick') == len(legal)
    assert 'class="action mo-pick' not in page_of(client, match, bob), "only the awaited seat gets choices"


LOG_ENTRIES = [
    {"kind": "night_started", "night": 2, "deck_size": 18},
    {"kind": "victims_revealed", "night": 1, "hand": 3, "victims": ["V01", "V10"]},
    {"kind": "monster_chosen", "seat": 1},
    {"kind": "timed_out", "seat": 1, "decision": "select"},
    {"kind": "monsters_revealed", "monsters": [6, None, 8]},
    {"kind": "vampire_drains", "seat": 0, "target": 1, "monster": 3, "effect": True},
    {"kind": "vampire_drains", "seat": 0, "target": 1, "monster": 8, "effect": False},
    {"kind": "werewolf_mauls", "seat": 1, "target": 0, "monster": 7},
    {"kind": "werewolf_mauls", "seat": 1, "target": 0, "monster": None},
    {"kind": "mummy_checked", "seat": 2, "first": True},
    {"kind": "mummy_checked", "seat": 2, "first": False},
    {"kind": "blob_absorbs", "seat": 0, "monster": 7, "strength": 7},
    {"kind": "blob_absorbs", "seat": 0, "monster": None, "strength": 0},
    {"kind": "hunt_order", "order": [2, 0, 1], "ties": [[0, 1]]},
    {"kind": "victim_taken", "seat": 2, "victim": "V01"},
    {"kind": "victim_given", "seat": 0, "recipient": 1, "victim": "V07"},
    {"kind": "victim_burned", "seat": 0, "from": 1, "victim": "V13"},
    {"kind": "hunt_nothing", "seat": 1},
    {"kind": "invader_stops", "seat": 1},
    {"kind": "leftovers_burned", "victims": ["V06"]},
    {"kind": "victims_escaped", "victims": ["V04", "V05"]},
    {"kind": "track_rotated", "track": [0, 2, 1]},
    {
        "kind": "night_scored",
        "night": 1,
        "scores": [
            {
                "plain": 1,
                "engineers": 0,
                "engineer_points": 0,
                "teen_icons": 0,
                "teen_points": 0,
                "beast": 3,
                "total": 4,
            },
            {
                "plain": 3,
                "engineers": 1,
                "engineer_points": -2,
                "teen_icons": 0,
                "teen_points": 0,
                "beast": 0,
                "total": 1,
            },
        ],
        "winner": 0,
        "tokens": [1, 0],
    },
    {"kind": "game_over", "winners": [2], "totals": [10, 12, 12], "tie_break": True},
]


@pytest.mark.parametrize("language", ["en", "fa"])
@pytest.mark.parametrize("entry", LOG_ENTRIES, ids=lambda e: e["kind"])
def test_every_log_kind_reads_as_a_sentence(entry, language):
    names = ["Ava", "Bijan", "Cyrus"]
    with translation.override(language):
        text = render_to_string(
            "games/monster/_log_entry.html", {"entry": {"to": None, **entry}, "names": names, "view": {}}
        )
    plain = re.sub(r"<[^>]+>", "", text).strip()
    assert plain and plain != entry["kind"] and "None" not in plain and "{" not in plain
    for key in ("seat", "target", "recipient", "from", "winner"):
        if isinstance(entry.get(key), int):
            assert names[entry[key]] in plain, (key, plain)
    for vid in entry.get("victims", []) + [entry.get("victim")] * ("victim" in entry):
        card = VICTIMS[vid]
        assert (card["name_fa"] if language == "fa" else card["name"]) in plain
    if language == "fa":
        assert re.search("[\u0600-\u06ff]", plain), plain


def test_a_whole_bot_game_ends_with_a_result_that_reveals_everything(client, alice, bob, charlie):
    match = play_until_over(started_monster(alice, [bob], deal={"track": [0, 1, 2]}))
    assert match.status == Match.Status.FINISHED
    scores = [row["score"] for row in match.result["seats"]]
    public = match.state["public"]
    for who, language in ((alice, "en"), (bob, "fa"), (charlie, "en")):
        page = page_of(client, match, who, language)
        result = page[page.index('data-testid="result"') :]
        result = result[: result.index("</div>")]
        for seat, score in enumerate(scores):
            assert f'data-testid="result-{seat}"' in result
            row = result[result.index(f'data-testid="result-{seat}"') :]
            assert re.search(rf"\b{digits(score, language)}\b", row[: row.index("</li>")])
        assert "🏆" in result
        for ns in public["night_scores"]:
            assert digits(ns["night"], language) in result
        for seat, pile in enumerate(public["captured"]):
            captured = page[page.index(f'data-testid="captured-{seat}"') :]
            captured = captured[: captured.index("</div>")]
            assert all(f'data-victim="{vid}"' in captured for vid in pile)
        assert "mo-pick" not in page, "nothing left to choose"
        assert len(re.findall(r"<tr><th>\d</th>", board(page))) == len(public["night_scores"])


def test_two_players_play_for_night_tokens(client, alice, bob):
    match = play_until_over(started_monster(alice, [bob], deal={"track": [0, 1]}, seats=2))
    tokens = match.state["public"]["tokens"]
    assert max(tokens) == 2
    for language, word in (("en", "night token"), ("fa", "توکن شب")):
        page = page_of(client, match, bob, language)
        result = page[page.index('data-testid="result"') :]
        assert word in result[: result.index("</div>")]
        assert 'class="won"' in board(page), "each night's winner is starred"


def test_the_boxes_that_scroll_on_a_phone_take_keyboard_focus_and_say_what_they_hold(client, alice):
    """The scores per night scroll sideways on a narrow screen, and the table's chat (on every
    game's page) scrolls once it is long: a keyboard user can reach each, and a screen reader names
    it (axe: scrollable-region-focusable)."""
    match = started_monster(alice)
    page = page_of(client, match, alice)
    boxes = (("Scores per night", '<div class="mo-scores-wrap"'), ("Table chat", '<ol class="chat-messages"'))
    for name, start in boxes:
        tag = page[page.index(start) : page.index(">", page.index(start))]
        assert 'tabindex="0"' in tag and f'aria-label="{name}"' in tag, tag


def test_a_negative_night_score_reads_with_a_minus_sign_on_its_left_in_persian(client, alice, bob):
    """A night's score below zero (the Bride's victims cost points) shows «−۶»: the minus sign, not
    a hyphen, held on the number's left by a left-to-right isolate, in the board and the log."""
    from tests.platform.helpers import empty_renderer_caches

    match = play_until_over(started_monster(alice, [bob], deal={"track": [0, 1, 2]}))
    first = match.state["public"]["night_scores"][0]["scores"][0]
    first["total"] = -6
    Match.objects.filter(pk=match.pk).update(state=match.state)
    with empty_renderer_caches():
        persian = board(page_of(client, match, bob, "fa"))
        english = board(page_of(client, match, bob, "en"))
    assert "<strong>\u2066\u2212۶\u2069</strong>" in persian
    assert "-۶" not in persian and "۶-" not in persian
    assert "<strong>-6</strong>" in english
