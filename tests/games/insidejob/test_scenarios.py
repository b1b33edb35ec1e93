"""Every test scenario of the spec (§14.6), driven by the explicit deal and the action dicts."""

from __future__ import annotations

import json

import pytest

from games.base import IllegalAction
from tests.games.insidejob.helpers import ENGINE, ij2, plays, run, start, winners


def _strings(value: object) -> set[str]:
    """Every string (and dict key) inside a JSON-like value."""
    out: set[str] = set()
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            out |= _strings(v)
    elif isinstance(value, list):
        for v in value:
            out |= _strings(v)
    return out


@pytest.mark.parametrize(
    ("n", "hand", "aside", "supply"), [(2, 13, 13, 11), (3, 13, 13, 11), (4, 12, 4, 10), (5, 10, 2, 9)]
)
def test_deal_sizes_follow_the_player_count_table(n, hand, aside, supply):
    """Scenario 1: cards per hand, cards aside and the supply (§2)."""
    state = ENGINE.setup(n, None, seed=3)
    public = state["public"]
    assert public["hand_sizes"] == [hand] * public["positions"]
    assert public["aside"] == aside == len(state["hidden"]["aside"])
    assert public["supply"] == supply
    if n == 2:
        assert len(public["larry_hand"]) == 13 and public["positions"] == 3


@pytest.mark.parametrize(
    ("options", "total"),
    [({}, 23), ({"wagers": True}, 24), ({"risky": True}, 27), ({"wagers": True, "risky": True}, 28)],
)
def test_mission_deck_size_depends_on_modules(options, total):
    """Scenario 1: 23 missions without Wagers (A11 out), 24 with, 4 more with Risky."""
    state = ENGINE.setup(4, options, seed=1)
    drawn = sum(len(s["drawn"]) for s in state["seats"])
    assert state["public"]["deck_size"] + drawn == total == len(state["hidden"]["deck"]) + 2


@pytest.mark.parametrize("n", [1, 6])
def test_one_or_six_players_are_refused(n):
    """Scenario 1: N = 1 or 6 raises ValueError."""
    with pytest.raises(ValueError):
        ENGINE.setup(n, None, seed=0)


def test_insider_may_break_suit_and_mission_counts_all_cards():
    """Scenario 2: the Insider trumps while holding the led suit; A01 judged on every card."""
    state = start(4, ij2())
    assert ENGINE.awaiting(state) == {0}
    state = run(state, "0 mission 0")
    assert state["public"]["mission"] == "A01" and state["public"]["trump"] == "B"
    state = run(state, "0 R8", "1 R4")
    assert "B2" in plays(state, 2) and "R10" in plays(state, 2)
    state = run(state, "2 B2", "3 R12")
    public = state["public"]
    assert public["history"][-1]["winner"] == 2
    assert public["tokens"] == [1, 1, 2, 1]
    assert public["done"] == 1 and public["completed"] == ["A01"]
    assert public["phase"] == "discussion" and ENGINE.awaiting(state) == {0, 1, 2, 3}


def test_agents_must_follow_the_led_suit():
    """Scenario 3: an Agent holding the led suit may play only it; a void Agent plays anything."""
    hands = [["R8", "G3", "Y5"], ["R4", "B6", "Y7"], ["B2", "R10", "G9"], ["R12", "Y9", "G11"]]
    state = run(start(4, ij2(hands=hands)), "0 R8")
    assert plays(state, 1) == ["R4"]
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "play", "card": "B6", "wager": False})
    assert json.dumps(state, sort_keys=True) == before
    state = run(
        start(4, ij2(hands=[["R8", "G3", "Y5"], ["G5", "B6", "Y7"], ["B2", "R10", "G9"], ["R12", "Y9", "G11"]])),
        "0 R8",
        "1 B6",
    )
    assert state["public"]["trick"][-1]["card"] == "B6"


def test_without_trump_the_highest_led_card_wins():
    """Scenario 4: no trump played → the highest card of the led suit wins; P08 fails."""
    deal = ij2(
        roles=["AGENT", "AGENT", "AGENT", "INSIDER"],
        missions=["P08", "P01"],
        hands=[["Y3", "G1", "G2"], ["Y11", "G4", "G6"], ["R13", "G7", "G8"], ["Y7", "G10", "G12"]],
    )
    state = run(start(4, deal), "0 Y3", "1 Y11", "2 R13", "3 Y7")
    last = state["public"]["history"][-1]
    assert last["trump"] == "B" and last["winner"] == 1 and last["success"] is False


WAGER_ROLES = ["INSIDER", "AGENT", "AGENT", "AGENT"]


def test_a_wagered_card_wins_a_tie_and_takes_the_pot():
    """Scenario 5: wagered R9 beats natural trump G9; the winner takes the pot plus one token."""
    deal = ij2(
        roles=WAGER_ROLES,
        missions=["A02", "P01"],
        hands=[["Y9", "B1", "B2"], ["G9", "B3", "B4"], ["Y5", "B5", "B6"], ["R9", "B7", "B8"]],
    )
    state = run(start(4, deal, wagers=True), "0 Y9", "1 G9", "2 Y5+w", "3 R9+w")
    public = state["public"]
    assert public["history"][-1]["winner"] == 3
    assert public["tokens"] == [1, 1, 0, 3] and public["supply"] == 9
    assert public["history"][-1]["success"] is True


def test_two_wagered_ties_go_to_the_later_wager():
    """Scenario 6: two wagered 9s → the later one wins; A10 fails."""
    deal = ij2(
        roles=WAGER_ROLES,
        missions=["A10", "P01"],
        hands=[["Y2", "B1", "B2"], ["R9", "B3", "B4"], ["Y4", "B5", "B6"], ["B9", "B7", "B8"]],
    )
    state = run(start(4, deal, wagers=True), "0 Y2", "1 R9+w", "2 Y4", "3 B9+w")
    last = state["public"]["history"][-1]
    assert last["winner"] == 3 and last["success"] is False


def test_missions_read_the_effective_suit_of_a_wagered_card():
    """Scenario 7: Y, Y and a wagered Y (effective B) → A09 fails; the wagerer wins with 2 tokens."""
    deal = {
        "dealer": 1,
        "roles": ["AGENT", "INSIDER", "AGENT"],
        "missions": ["A09", "P01"],
        "hands": [["Y4", "G1", "G2"], ["Y6", "G3", "G4"], ["Y2", "G5", "G6"]],
    }
    state = run(start(3, deal, wagers=True), "0 Y4", "1 Y6", "2 Y2+w")
    public = state["public"]
    assert public["history"][-1]["winner"] == 2 and public["history"][-1]["success"] is False
    assert public["tokens"][2] == 2


def test_a_wager_does_not_change_the_led_suit():
    """Scenario 8: a wagered lead Y4 still asks the others for yellow."""
    hands = [["Y4", "G3", "B5"], ["Y7", "G5", "B6"], ["B2", "R10", "G9"], ["R12", "Y9", "G11"]]
    state = run(start(4, ij2(hands=hands), wagers=True), "0 Y4+w")
    assert plays(state, 1) == ["Y7", "Y7+w"]


def _forced_reveal_state():
    deal = ij2(
        tokens=[1, 4, 1, 1],
        missions=["A04", "P01", "P06", "P02"],
        hands=[
            ["R2", "G1", "G2", "G3"],
            ["R9", "G4", "G5", "G6"],
            ["R3", "G7", "G8", "B1"],
            ["R4", "G10", "G11", "B2"],
        ],
    )
    return start(4, deal, wagers=True)


def test_a_non_insider_at_the_intel_goal_is_revealed():
    """Scenario 9: seat 1 reaches 5 tokens → AGENT shown; no wager for it; no vote against it."""
    state = run(_forced_reveal_state(), "0 R2", "1 R9", "2 R3", "3 R4")
    public = state["public"]
    assert public["tokens"][1] == 5 and public["revealed"][1] == "AGENT"
    assert public["history"][-1]["success"] is False
    assert ENGINE.awaiting(state) == {1}
    state = run(state, "1 mission 0")
    assert state["public"]["mission"] == "P06"
    assert not any(p.endswith("+w") for p in plays(state, 1))
    state = run(state, "1 G4", "2 G7", "3 G10", "0 G1")
    assert state["public"]["history"][-1]["success"] is True
    state = run(state, "ready")
    with pytest.raises(IllegalAction):
        run(state, "0->1")


FIVE_ROLES = ["AGENT", "AGENT", "INSIDER", "AGENT", "AGENT"]


def test_the_insider_wins_at_once_on_reaching_the_intel_goal():
    """Scenario 10: 5 players, the Insider reaches 4 tokens → wins, no vote."""
    deal = {
        "dealer": 1,
        "roles": FIVE_ROLES,
        "tokens": [1, 1, 3, 1, 1],
        "missions": ["A01", "P01"],
        "hands": [["R2", "G1"], ["R3", "G2"], ["B9", "G3"], ["R4", "G4"], ["R5", "G5"]],
    }
    state = run(start(5, deal), "0 R2", "1 R3", "2 B9", "3 R4", "4 R5")
    assert state["public"]["over"] and state["public"]["end"] == "intel_goal"
    assert winners(state) == {2}


def test_the_agents_win_at_once_on_reaching_the_mission_goal():
    """Scenario 11: completed 6 → 7 at 4 players → agents win."""
    deal = ij2(completed=6, hands=[["B8", "G1", "G2"], ["B4", "G3", "G4"], ["B2", "G5", "G6"], ["B12", "G7", "G8"]])
    state = run(start(4, deal), "0 B8", "1 B4", "2 B2", "3 B12")
    assert state["public"]["end"] == "mission_goal"
    assert winners(state) == {0, 1, 3}


def test_both_goals_on_the_same_trick_go_to_the_insider():
    """Scenario 12 (ruling 7)."""
    deal = {
        "dealer": 1,
        "roles": FIVE_ROLES,
        "tokens": [1, 1, 3, 1, 1],
        "missions": ["A01", "P01"],
        "completed": 5,
        "hands": [["B8", "G1"], ["B4", "G2"], ["B10", "G3"], ["B2", "G4"], ["B6", "G5"]],
    }
    state = run(start(5, deal), "0 B8", "1 B4", "2 B10", "3 B2", "4 B6")
    assert state["public"]["done"] == 6 and state["public"]["tokens"][2] == 4
    assert state["public"]["winner_side"] == "INSIDER" and winners(state) == {2}


def test_the_vote_follows_the_last_trick_at_every_count():
    """Scenario 13: 4p (scenario 2), 3p (scenario 7) and 5p end in discussion, then vote."""
    four = run(start(4, ij2()), "0 R8", "1 R4", "2 B2", "3 R12")
    three = run(
        start(
            3,
            {
                "dealer": 1,
                "roles": ["AGENT", "INSIDER", "AGENT"],
                "missions": ["A09", "P01"],
                "hands": [["Y4", "G1", "G2"], ["Y6", "G3", "G4"], ["Y2", "G5", "G6"]],
            },
            wagers=True,
        ),
        "0 Y4",
        "1 Y6",
        "2 Y2+w",
    )
    five = run(
        start(
            5,
            {
                "dealer": 1,
                "roles": FIVE_ROLES,
                "missions": ["A01", "P01"],
                "hands": [["R2", "G1"], ["R3", "G2"], ["B9", "G3"], ["R4", "G4"], ["R5", "G5"]],
            },
        ),
        "0 R2",
        "1 R3",
        "2 B9",
        "3 R4",
        "4 R5",
    )
    for state in (four, three, five):
        n = state["public"]["players"]
        assert state["public"]["phase"] == "discussion" and ENGINE.awaiting(state) == set(range(n))
        state = run(state, "ready")
        assert state["public"]["phase"] == "vote" and ENGINE.awaiting(state) == set(range(n))


def test_a_full_four_player_deal_reaches_the_vote_only_after_ten_tricks():
    """Scenario 13: a random 4-player game that reaches the discussion has played 10 tricks."""
    reached = 0
    for seed in range(40):
        state = ENGINE.setup(4, None, seed=seed)
        while ENGINE.awaiting(state) and state["public"]["phase"] not in ("discussion", "vote"):
            seat = min(ENGINE.awaiting(state))
            state = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
        if state["public"]["phase"] == "discussion":
            reached += 1
            assert len(state["public"]["history"]) == 10
            assert state["public"]["hand_sizes"] == [2, 2, 2, 2]
        else:
            assert len(state["public"]["history"]) <= 10
    assert reached > 0


def _after_two():
    return run(start(4, ij2()), "0 R8", "1 R4", "2 B2", "3 R12", "ready")


def test_a_vote_tie_goes_to_the_insider():
    """Scenario 14."""
    state = run(_after_two(), "0->2", "1->2", "2->0", "3->0")
    assert state["public"]["vote"]["accused"] is None
    assert winners(state) == {2}


def test_a_vote_majority_decides():
    """Scenario 15: the Insider voted out → agents win; an Agent voted out → the Insider wins."""
    caught = run(_after_two(), "0->2", "1->2", "3->2", "2->0")
    assert winners(caught) == {0, 1, 3}
    assert caught["public"]["revealed"][2] == "INSIDER"
    wrong = run(_after_two(), "0->1", "2->1", "3->1", "1->0")
    assert wrong["public"]["vote"]["accused_role"] == "AGENT"
    assert winners(wrong) == {2}


def test_invalid_ballots_are_refused_and_ballots_stay_secret_until_the_last():
    """Scenario 16: no self-vote, no vote for a revealed player, no second ballot."""
    state = _after_two()
    with pytest.raises(IllegalAction):
        run(state, "0->0")
    state = run(state, "0->2")
    with pytest.raises(IllegalAction):
        run(state, "0->1")
    state = run(state, "1->2", "3->2")
    for seat in (1, 2, 3, None):
        view = ENGINE.view(state, seat)
        assert view["public"]["ballots"] is None
        assert all(p["ballot"] is None for p in view["players"])
        if seat is not None:
            assert view["me"]["ballot"] == (2 if seat != 2 else None)
        entries = [e for e in view["log"] if e.get("kind") == "ballots_revealed"]
        assert entries == []
    revealed = run(_forced_reveal_state(), "0 R2", "1 R9", "2 R3", "3 R4", "1 G4", "2 G7", "3 G10", "0 G1", "ready")
    with pytest.raises(IllegalAction):
        run(revealed, "3->1")


def test_the_first_leader_sits_right_of_the_dealer():
    """Scenario 17: dealer 1 → leader 0; dealer 0 → leader 3; the trick winner leads next."""
    assert ENGINE.awaiting(start(4, ij2(dealer=1))) == {0}
    assert ENGINE.awaiting(start(4, ij2(dealer=0))) == {3}
    state = run(_forced_reveal_state(), "0 R2", "1 R9", "2 R3", "3 R4")
    assert state["public"]["leader"] == 1 and ENGINE.awaiting(state) == {1}


def test_only_the_leader_sees_the_drawn_missions():
    """Scenario 18: A01 and P01 in seat 0's view only; later P01 in no other view or log."""
    state = start(4, ij2())
    for seat in (0, 1, 2, 3, None):
        strings = _strings(ENGINE.view(state, seat))
        assert ("A01" in strings and "P01" in strings) == (seat == 0)
    state = run(state, "0 mission 0")
    for seat in (0, 1, 2, 3, None):
        strings = _strings(ENGINE.view(state, seat))
        assert "A01" in strings
        assert ("P01" in strings) == (seat == 0)  # seat 0 keeps its own log of the draw
    state = run(state, "0 R8", "1 R4", "2 B2", "3 R12", "ready", "0->2", "1->2", "2->0", "3->0")
    for seat in (1, 2, 3, None):
        assert "P01" in _strings(ENGINE.view(state, seat))  # the end reveals everything


def test_a_failed_risky_mission_loses_a_completed_mission():
    """Scenario 19: R01 fails (the leader does not win) → completed 3 → 2."""
    deal = ij2(
        completed=3,
        missions=["R01", "P01"],
        hands=[["B8", "G1", "G2"], ["B10", "G3", "G4"], ["B2", "G5", "G6"], ["B4", "G7", "G8"]],
    )
    state = run(start(4, deal, risky=True), "0 B8", "1 B10", "2 B2", "3 B4")
    assert state["public"]["history"][-1]["success"] is False
    assert state["public"]["done"] == 2


def test_order_missions_are_strict():
    """Scenario 20: 9, 9, 4 is not strictly down; 2, 5, 11 is strictly up."""
    deal = {
        "dealer": 1,
        "roles": ["AGENT", "INSIDER", "AGENT"],
        "missions": ["A07", "P01", "A08", "P02"],
        "hands": [["G9", "R2", "B1", "B3"], ["B9", "R5", "B4", "B5"], ["G4", "R11", "B6", "B7"]],
    }
    state = run(start(3, deal), "0 G9", "1 B9", "2 G4")
    assert state["public"]["history"][-1]["success"] is False
    assert ENGINE.awaiting(state) == {0}
    state = run(state, "0 mission 0")
    assert state["public"]["mission"] == "A08"
    state = run(state, "0 R2", "1 R5", "2 R11")
    assert state["public"]["history"][-1]["success"] is True


def test_the_chief_votes_twice():
    """Scenario 21: S1's ballot counts 2 → an Agent voted out → the Insider wins."""
    state = start(4, ij2(roles=["S1", "AGENT", "INSIDER", "AGENT"]), special_roles=["S1"])
    state = run(state, "0 R8", "1 R4", "2 B2", "3 R12", "ready", "0->1", "2->3", "3->1", "1->3")
    assert state["public"]["vote"]["counts"] == [0, 3, 0, 2]
    assert state["public"]["vote"]["accused_role"] == "AGENT"
    assert winners(state) == {2}


TWO_HANDS = [["R2", "G1", "G2"], ["R3", "G3", "G4"], ["R5", "G5", "G6"]]


def _two(roles, larry_role):
    deal = {
        "roles": roles,
        "larry_role": larry_role,
        "dealer": 1,
        "controller_first": 1,
        "missions": ["A04", "P01"],
        "hands": [list(h) for h in TWO_HANDS],
    }
    return run(start(2, deal), "0 R2", "1 R3")


def test_two_players_control_larry_and_accuse_in_secret():
    """Scenario 22: LARRY follows suit, played by the controller; the accusation decides."""
    state = _two(["AGENT", "AGENT"], "INSIDER")
    assert ENGINE.awaiting(state) == {1} and plays(state, 1) == ["R5"]
    assert ENGINE.view(state, 1)["playing_for_larry"] is True
    state = run(state, "1 R5")
    assert state["public"]["history"][-1]["winner"] == 2
    state = run(state, "ready", "0->2", "1->2")
    assert winners(state) == {0, 1}
    variant = run(_two(["AGENT", "INSIDER"], "AGENT"), "1 R5", "ready")
    assert winners(run(variant, "0->1", "1->2")) == {0}
    assert winners(run(variant, "0->2", "1->0")) == {1}


def test_no_view_holds_another_secret_until_the_end():
    """Scenario 23: other hands, unrevealed roles, aside cards, unchosen missions, LARRY's role."""
    for n, seed in ((2, 5), (4, 6), (5, 7)):
        state = ENGINE.setup(n, {"wagers": True}, seed=seed)
        step = 0
        while ENGINE.awaiting(state):
            for seat in [*range(n), None]:
                strings = _strings(ENGINE.view(state, seat))
                for other in range(n):
                    if other != seat:
                        assert not strings & set(state["seats"][other]["hand"])
                        role = state["seats"][other]["role"]
                        if role == "INSIDER" and state["public"]["revealed"][other] is None:
                            assert "INSIDER" not in strings or (
                                seat is not None and state["seats"][seat]["role"] == "INSIDER"
                            )
                assert not strings & set(state["hidden"]["aside"])
                drawn_by_me = {
                    m
                    for e in state["log"]
                    if e["kind"] == "missions_drawn" and seat in (e["to"] or [])
                    for m in e["missions"]
                }
                assert not strings & (set(state["hidden"]["box"]) - drawn_by_me)
                assert not strings & set(state["hidden"]["deck"])
                if n == 2 and state["hidden"]["larry_role"] == "INSIDER":
                    assert "INSIDER" not in strings
            seat = min(ENGINE.awaiting(state))
            legal = ENGINE.legal_actions(state, seat)
            state = ENGINE.apply(state, seat, legal[(step * 7) % (len(legal) - 1)] if len(legal) > 1 else legal[0])
            step += 1
        for seat in [*range(n), None]:
            strings = _strings(ENGINE.view(state, seat))
            assert set(state["hidden"]["aside"]) <= strings and set(state["hidden"]["box"]) <= strings
            for other in range(n):
                assert set(state["seats"][other]["hand"]) <= strings
            if n == 2:
                assert state["hidden"]["larry_role"] in strings


def test_timeouts_are_role_blind():
    """Scenario 24: lowest card, the Insider follows like an Agent, ready, abstain."""
    state = start(4, ij2())
    for seat in (0, 0, 1, 2, 3):
        state = run(state, f"{seat} timeout")
    last = state["public"]["history"][-1]
    assert last["mission"] == "A01"
    assert [p["card"] for p in last["plays"]] == ["G3", "G5", "G9", "G11"]
    assert last["winner"] == 3 and last["success"] is False
    for seat in range(4):
        state = run(state, f"{seat} timeout")
    assert state["public"]["phase"] == "vote"
    for seat in range(4):
        state = run(state, f"{seat} timeout")
    assert state["public"]["ballots"] == [None] * 4
    assert winners(state) == {2}


def test_the_shadow_sees_its_pick_and_wins_with_it():
    """Scenario 25: ROLE_SETUP awaits all; only the Shadow's pick shows a role."""
    state = start(4, ij2(roles=["S4", "AGENT", "INSIDER", "AGENT"]), special_roles=["S4"])
    assert state["public"]["phase"] == "role_setup" and ENGINE.awaiting(state) == {0, 1, 2, 3}
    for seat in range(4):
        targets = [a["target"] for a in ENGINE.legal_actions(state, seat)[:-1]]
        assert targets == [t for t in range(4) if t != seat]
    state = run(state, "0 pick 2", "1 pick 0", "2 pick 3", "3 pick 1")
    assert ENGINE.view(state, 0)["me"]["seen"] == {"target": 2, "role": "INSIDER"}
    for seat in (1, 2, 3):
        assert ENGINE.view(state, seat)["me"]["seen"] is None
    assert state["public"]["phase"] == "mission_choice" and ENGINE.awaiting(state) == {0}
    state = run(state, "0 R8", "1 R4", "2 B2", "3 R12", "ready", "0->2", "1->2", "2->0", "3->0")
    assert winners(state) == {0, 2}


def test_the_turncoat_flips_after_winning_a_failed_mission():
    """Scenario 26."""
    deal = ij2(
        roles=["AGENT", "S2", "INSIDER", "AGENT"],
        hands=[["R8", "G1", "G2"], ["R9", "G3", "G4"], ["R2", "G5", "G6"], ["R4", "G7", "G8"]],
    )
    state = run(start(4, deal, special_roles=["S2"]), "0 R8", "1 R9", "2 R2", "3 R4")
    assert state["public"]["history"][-1]["winner"] == 1
    assert state["seats"][1]["side"] == "INSIDER"
    assert ENGINE.view(state, 1)["me"]["flipped"] is True
    assert ENGINE.view(state, 0)["me"]["flipped"] is False
    state = run(state, "ready", "0->2", "1->0", "3->2", "2->0")
    assert winners(state) == {1, 2}


def test_rival_scapegoat_and_accomplice_win_by_others():
    """Scenario 27."""
    deal = ij2(roles=["S3", "S7", "INSIDER", "AGENT"])
    state = run(
        start(4, deal, special_roles=["S3", "S7"]),
        "0 R8",
        "1 R4",
        "2 B2",
        "3 R12",
        "ready",
        "0->1",
        "2->1",
        "3->1",
        "1->0",
    )
    assert winners(state) == {0, 1, 2}
    deal = ij2(roles=["AGENT", "S8", "INSIDER", "AGENT"])
    state = run(
        start(4, deal, special_roles=["S8"]), "0 R8", "1 R4", "2 B2", "3 R12", "ready", "0->2", "1->2", "2->0", "3->0"
    )
    assert winners(state) == {1, 2}


def test_informant_hint_and_sleeper_follows_suit_and_wins_one_lower():
    """Scenario 28."""
    deal = ij2(roles=["S5", "AGENT", "S6", "AGENT"], informant_hint=3)
    state = start(4, deal, special_roles=["S5", "S6"])
    assert ENGINE.view(state, 0)["me"]["hint"] == 3
    assert all(ENGINE.view(state, s)["me"]["hint"] is None for s in (1, 2, 3))
    state = run(state, "0 R8", "1 R4")
    assert plays(state, 2) == ["R10"]
    deal = ij2(
        roles=["S5", "AGENT", "S6", "AGENT"],
        informant_hint=3,
        tokens=[1, 1, 3, 1],
        hands=[["R8", "G3", "Y5"], ["R4", "G5", "Y7"], ["B2", "R10", "G9"], ["R2", "Y9", "G11"]],
    )
    state = run(start(4, deal, special_roles=["S5", "S6"]), "0 R8", "1 R4", "2 R10", "3 R2")
    assert state["public"]["tokens"][2] == 4 and state["public"]["end"] == "intel_goal"
    assert winners(state) == {2}
