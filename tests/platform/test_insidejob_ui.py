"""Inside Job's table page, rendered for each persona: own hand and role only, the legal cards and
nothing else clickable, hands that look alike for the Insider and an Agent, both languages, the
create form's list/dict options, and a whole bot game ending on a page that reveals everything."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from tables import moderator, seating
from tables.models import Match, Table
from tests.platform.helpers import fresh, play_until_over, words_of

# 4 seats, dealer 1 so seat 0 leads; bob (seat 1) is the Insider; three tricks before the vote.
HANDS = [
    ["R8", "G3", "Y5", "B6", "G12"],
    ["R4", "G5", "Y7", "B9", "Y1"],
    ["B2", "R10", "G9", "Y11", "R1"],
    ["R12", "Y9", "G11", "B13", "B1"],
]
ROLES = ["AGENT", "INSIDER", "AGENT", "AGENT"]
DEAL = {"dealer": 1, "roles": ROLES, "hands": HANDS, "missions": ["A01", "P01", "A03", "P06", "A04", "P02"]}


def started(host, players=(), options=None, deal=DEAL, seats=4, seed=1) -> Match:
    table = seating.create_table(host, "insidejob", seats, Table.Visibility.PRIVATE, {**(options or {}), "deal": deal})
    for player in players:
        seating.sit(table, player)
    seating.fill_with_bots(table, host)
    seating.start(table, host, seed=seed)
    return Match.objects.get(table=table)


def page_for(client, user, match, language="en") -> str:
    client.logout()
    if user is not None:
        client.force_login(user)
    response = client.get(reverse("tables:detail", args=[match.table.token]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return words_of(response.content.decode())


def hand_cards(html: str) -> set[str]:
    """Cards drawn inside the viewer's own hand block."""
    block = re.search(r'data-testid="my-hand">(.*?)</section>', html, re.S)
    return set(re.findall(r'data-card="([BGYR]\d+)"', block.group(1))) if block else set()


def offered(html: str) -> list[dict]:
    return [json.loads(v.replace("&quot;", '"')) for v in re.findall(r'name="action" value="([^"]+)"', html)]


def act(match: Match, seat: int, action: dict) -> Match:
    return moderator.submit(fresh(match).pk, seat, action, None)


def test_each_seat_sees_its_own_hand_and_role_and_no_one_elses(client, alice, bob):
    match = started(alice, [bob])
    alice_page, bob_page = page_for(client, alice, match), page_for(client, bob, match)

    assert hand_cards(alice_page) == set(HANDS[0]) and hand_cards(bob_page) == set(HANDS[1])
    for page, mine in ((alice_page, 0), (bob_page, 1)):
        secrets = set(re.findall(r'data-secret-of="(\d+)"', page))
        assert secrets == {str(mine)}
        others = {c for seat, hand in enumerate(HANDS) if seat != mine for c in hand}
        assert not others & set(re.findall(r'data-card="([BGYR]\d+)"', page))
    assert 'data-role-of="0"' in alice_page and "role-agent" in alice_page
    assert "role-insider" not in alice_page and 'data-role-of="1"' not in alice_page
    assert 'data-role-of="1"' in bob_page and "role-insider" in bob_page
    assert 'data-role-of="0"' not in bob_page


def test_a_spectator_sees_no_hand_no_role_and_no_drawn_mission(client, alice, charlie):
    match = started(alice)
    page = page_for(client, charlie, match)
    assert 'data-testid="spectator"' in page
    assert "data-secret-of" not in page and "data-role-of" not in page
    assert not re.findall(r'data-card="', page)
    assert 'data-mission="A01"' not in page and 'data-mission="P01"' not in page


def test_only_the_leader_sees_the_two_drawn_missions_and_picks_one_by_clicking_it(client, alice, bob):
    match = started(alice, [bob])
    alice_page = page_for(client, alice, match)
    assert 'data-mission="A01"' in alice_page and 'data-mission="P01"' in alice_page
    assert offered(alice_page) == [{"type": "mission", "index": 0}, {"type": "mission", "index": 1}]
    assert alice_page.count("ij-mission-btn") == 2
    bob_page = page_for(client, bob, match)
    assert 'data-mission="A01"' not in bob_page and offered(bob_page) == []

    match = act(match, 0, {"type": "mission", "index": 0})
    for user in (alice, bob, None):
        page = page_for(client, user, match)
        assert 'data-mission="A01"' in page and 'data-mission="P01"' not in page


def test_the_cards_offered_are_exactly_the_engines_legal_plays(client, alice, bob):
    match = started(alice, [bob])
    match = act(match, 0, {"type": "mission", "index": 0})
    leading = page_for(client, alice, match)
    assert {a["card"] for a in offered(leading)} == set(HANDS[0]), "the leader may lead any card"
    assert "unplayable" not in leading
    match = act(match, 0, {"type": "play", "card": "R8", "wager": False})
    # bob, the Insider, may break suit although he holds R4: every card is offered.
    insider = page_for(client, bob, match)
    engine = fresh(match).engine
    legal = [a for a in engine.legal_actions(fresh(match).state, 1) if a["type"] == "play"]
    assert sorted(offered(insider), key=str) == sorted(legal, key=str)
    assert {a["card"] for a in offered(insider)} == set(HANDS[1])
    assert "ij-card-still" not in insider


def test_an_agent_who_must_follow_sees_only_the_led_suit_enabled(client, alice, bob):
    roles = ["AGENT", "AGENT", "INSIDER", "AGENT"]
    match = started(alice, [bob], deal={**DEAL, "roles": roles})
    match = act(match, 0, {"type": "mission", "index": 0})
    match = act(match, 0, {"type": "play", "card": "R8", "wager": False})
    page = page_for(client, bob, match)
    assert offered(page) == [{"type": "play", "card": "R4", "wager": False}]
    assert page.count("ij-card-btn") == 1
    assert len(re.findall(r'class="ij-card-still unplayable"', page)) == 4
    assert 'data-testid="led-in-hand"' in page, "the hand's heading names the suit to follow"


def _hand_shape(html: str) -> str:
    block = re.search(r'data-testid="my-hand">(.*?)</section>', html, re.S).group(1)
    block = re.sub(r"[BGYR]\d+", "C", block)
    block = re.sub(r' new-suit|suit-[BGYR]|data-secret-of="\d"|>\d+<|title="[^"]*"', "", block)
    return re.sub(r"<svg.*?</svg>", "", block, flags=re.S)


def test_the_insiders_hand_looks_like_an_agents_hand_while_waiting(client, alice, bob):
    match = started(alice, [bob])
    match = act(match, 0, {"type": "mission", "index": 0})
    match = act(match, 0, {"type": "play", "card": "R8", "wager": False})
    match = act(match, 1, {"type": "play", "card": "R4", "wager": False})  # now seat 2 (a bot) is on turn
    agent, insider = page_for(client, alice, match), page_for(client, bob, match)
    a, i = _hand_shape(agent), _hand_shape(insider)
    assert a == i, "\n".join(__import__("difflib").unified_diff(a.splitlines(), i.splitlines(), lineterm=""))
    for page in (agent, insider):
        assert "follows_suit" not in page and "any card" not in _hand_shape(page)


def test_the_board_shows_mission_trump_trick_goals_and_tokens_in_both_languages(client, alice, bob):
    match = started(alice, [bob])
    match = act(match, 0, {"type": "mission", "index": 0})
    match = act(match, 0, {"type": "play", "card": "R8", "wager": False})
    english = page_for(client, alice, match, "en")
    assert "Only even cards" in english and "Trump" in english
    assert "7 missions completed" in english and "5 intel tokens" in english
    assert 'data-testid="trick"' in english and 'data-card="R8"' in english
    assert "Alice plays" in english and "Led suit" in english
    persian = page_for(client, alice, match, "fa")
    assert 'dir="rtl"' in persian
    assert "فقط کارت‌های زوج" in persian and "حکم" in persian and "ماموریت" in persian
    assert "Only even cards" not in persian and "Led suit" not in persian


def test_wagers_offer_a_second_button_per_card(client, alice, bob):
    match = started(alice, [bob], options={"wagers": True})
    match = act(match, 0, {"type": "mission", "index": 0})
    page = page_for(client, alice, match)
    assert page.count("ij-wager-btn") == len(HANDS[0])
    assert len(offered(page)) == 2 * len(HANDS[0])


def test_the_vote_hides_ballots_until_the_last_one_then_reveals_them(client, alice, bob):
    match = started(alice, [bob], deal={**DEAL, "hands": [h[:3] for h in HANDS]})
    match = act(match, 0, {"type": "mission", "index": 0})
    for seat, card in ((0, "R8"), (1, "R4")):
        match = act(match, seat, {"type": "play", "card": card, "wager": False})
    moderator.run_due(fresh(match).next_deadline)
    match = fresh(match)
    while match.state["public"]["phase"] == "play":
        moderator.run_due(match.next_deadline)
        match = fresh(match)
    assert match.state["public"]["phase"] == "discussion"
    match = act(match, 0, {"type": "ready"})
    match = act(match, 1, {"type": "ready"})
    match = play_bots_until(match, lambda m: m.state["public"]["phase"] == "vote")
    match = act(match, 0, {"type": "vote", "target": 1})
    alice_page, bob_page = page_for(client, alice, match), page_for(client, bob, match)
    assert "You voted for Bob." in alice_page and "You voted for" not in bob_page
    assert 'data-testid="vote-result"' not in alice_page
    match = act(match, 1, {"type": "vote", "target": 0})
    match = play_until_over(match)
    page = page_for(client, alice, match)
    assert 'data-testid="vote-result"' in page and "The ballots" in page
    assert 'data-testid="result"' in page
    # The result says what the vote did, not merely that it decided: did it find the Insider (Bob)?
    found = match.state["public"]["vote"]["accused"] == 1
    summary = re.search(r'<p class="summary">(.*?)</p>', page, re.S).group(1)
    assert ("The vote found the Insider." if found else "The vote did not find the Insider.") in summary
    persian = re.search(r'<p class="summary">(.*?)</p>', page_for(client, alice, match, "fa"), re.S).group(1)
    assert ("رأی‌گیری جاسوس را پیدا کرد." if found else "رأی‌گیری جاسوس را پیدا نکرد.") in persian


def play_bots_until(match: Match, done) -> Match:
    for _ in range(50):
        match = fresh(match)
        if done(match):
            return match
        moderator.run_due(match.next_deadline)
    raise AssertionError("the bots did not get there")


def test_a_whole_bot_game_ends_with_a_page_that_reveals_everything(client, alice, charlie):
    table = seating.create_table(alice, "insidejob", 4, Table.Visibility.PRIVATE, {})
    seating.fill_with_bots(table, alice)
    seating.start(table, alice, seed=7)
    match = play_until_over(Match.objects.get(table=table))
    state = match.state
    for user, language in ((alice, "en"), (charlie, "en"), (charlie, "fa")):
        page = page_for(client, user, match, language)
        assert 'data-testid="result"' in page
        result = page[page.index('data-testid="result"') :]
        for seat, slot in enumerate(state["seats"]):
            assert f'data-role-of="{seat}"' in result
            for card in slot["hand"]:
                assert f'data-card="{card}"' in result
        for card in state["hidden"]["aside"]:
            assert f'data-card="{card}"' in result
    english = page_for(client, charlie, match, "en")
    assert re.search(r"The (agents win|Insider wins)", english)


@pytest.mark.parametrize(
    "choice, expected",
    [("[]", []), ("['S1', 'S4']", ["S1", "S4"]), ("{'random': 2}", {"random": 2})],
)
def test_the_create_form_takes_list_and_dict_options(client, alice, choice, expected):
    client.force_login(alice)
    form = client.get(reverse("tables:create", args=["insidejob"])).content.decode()
    assert "opt_special_roles" in form
    response = client.post(
        reverse("tables:create", args=["insidejob"]),
        {
            "seat_count": "4",
            "visibility": "private",
            "speed": "normal",
            "opt_wagers": "True",
            "opt_risky": "False",
            "opt_special_roles": choice,
            "opt_house_roles": "False",
            "opt_handicap": "none",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get()
    assert table.options["special_roles"] == expected and table.options["wagers"] is True


def test_two_players_see_larrys_hand_and_the_controller_plays_for_him(client, alice, bob):
    deal = {
        "dealer": 1,
        "roles": ["AGENT", "AGENT"],
        "larry_role": "INSIDER",
        "controller_first": 1,
        "missions": ["A04", "P01"],
        "hands": [["R2", "G1", "G2"], ["R3", "G3", "G4"], ["R5", "G5", "G6"]],
    }
    match = started(alice, [bob], deal=deal, seats=2)
    match = act(match, 0, {"type": "mission", "index": 0})
    match = act(match, 0, {"type": "play", "card": "R2", "wager": False})
    match = act(match, 1, {"type": "play", "card": "R3", "wager": False})
    alice_page, bob_page = page_for(client, alice, match), page_for(client, bob, match)
    for page in (alice_page, bob_page):
        assert 'data-testid="larry"' in page and 'data-card="G6"' in page, "LARRY's hand is public"
        assert "role-insider" not in page, "LARRY's role stays hidden"
    assert "Play a card for LARRY" in bob_page and "Play a card for LARRY" not in alice_page
    assert offered(bob_page) == [{"type": "play", "card": "R5", "wager": False}]
    assert "Bob decides for LARRY this trick" in alice_page


def test_the_shadow_picks_and_alone_sees_the_target_role(client, alice, bob):
    deal = {**DEAL, "roles": ["S4", "AGENT", "INSIDER", "AGENT"]}
    match = started(alice, [bob], options={"special_roles": ["S4"]}, deal=deal)
    alice_page = page_for(client, alice, match)
    assert offered(alice_page) == [{"type": "pick", "target": t} for t in (1, 2, 3)]
    assert "Pick Bob" in alice_page and "role-s4" in alice_page
    match = act(match, 0, {"type": "pick", "target": 2})
    match = act(match, 1, {"type": "pick", "target": 0})
    alice_page, bob_page = page_for(client, alice, match), page_for(client, bob, match)
    assert "You saw Bot 3" in alice_page and 'data-role-of="2"' in alice_page and "role-insider" in alice_page
    assert 'data-role-of="0"' not in bob_page and 'data-role-of="2"' not in bob_page
    assert "role-insider" not in bob_page and "You saw" not in bob_page
