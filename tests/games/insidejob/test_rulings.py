"""Our rulings where the spec is silent (engine docstring R1-R10) and game-specific invariants."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from games.base import OptionsRefused, rng_for
from games.insidejob import missions as M
from games.insidejob.engine import SPECIAL_CHOICES
from games.insidejob.roles import ROLES, SPECIAL_IDS
from tests.games.insidejob.helpers import ENGINE, ij2, plays, run, start, winners
from tests.games.playout import random_game


def test_mission_table_has_24_normal_and_4_risky_cards_with_even_trumps():
    """§7: 24 normal cards, each suit trump on 6 of them; 4 risky; every test names a predicate."""
    normal = [m for m in M.MISSIONS if m.kind == "normal"]
    assert len(normal) == 24 and len(M.MISSIONS) == 28
    assert Counter(m.trump for m in normal) == {"B": 6, "G": 6, "Y": 6, "R": 6}
    for m in M.MISSIONS:
        assert m.test[0] in M.PREDICATES
    assert [m.id for m in M.MISSIONS if m.needs_wagers] == ["A11"]


def test_a06_with_four_positions_needs_both_middle_cards_odd():
    """Ruling 13."""
    trick = [{"pos": i, "card": c, "wager": False} for i, c in enumerate(["B2", "B3", "B5", "B4"])]
    assert M.succeeds("A06", trick, "G", 2)
    trick[2]["card"] = "B6"
    assert not M.succeeds("A06", trick, "G", 2)


def test_the_insider_is_offered_every_card_and_an_agent_only_the_led_suit():
    """§5.2.2: the difference lives only in each seat's own legal actions."""
    state = run(start(4, ij2()), "0 R8", "1 R4")
    assert plays(state, 2) == ["B2", "G9", "R10"]
    agent = run(start(4, ij2(roles=["AGENT", "INSIDER", "AGENT", "AGENT"])), "0 R8", "1 R4")
    assert plays(agent, 2) == ["R10"]
    # No auto-play: a seat with a single legal card is still asked (§5.2.5).
    assert ENGINE.awaiting(agent) == {2}


def test_two_players_ignore_special_roles():
    """Ruling R2."""
    state = ENGINE.setup(2, {"special_roles": ["S1", "S4"], "house_roles": True}, seed=4)
    roles = [s["role"] for s in state["seats"]] + [state["hidden"]["larry_role"]]
    assert sorted(roles) == ["AGENT", "AGENT", "INSIDER"]
    assert state["public"]["phase"] == "mission_choice"


def test_house_roles_widen_only_the_random_pool_and_the_draw_stays_secret():
    """Ruling R1."""
    basic, house = set(), set()
    for seed in range(40):
        a = ENGINE.setup(4, {"special_roles": {"random": 2}}, seed=seed)
        b = ENGINE.setup(4, {"special_roles": {"random": 2}, "house_roles": True}, seed=seed)
        basic |= set(a["hidden"]["specials"])
        house |= set(b["hidden"]["specials"])
        assert a["public"]["modules"]["special_roles"] == "random"
        assert a["public"]["phase"] == "role_setup"
    assert basic == {"S1", "S2", "S3", "S4"}
    assert house & {"S5", "S6", "S7", "S8"}


def test_every_special_role_choice_sets_up_at_every_count():
    """Every option value is valid on its own (the create-table form offers each)."""
    for value in SPECIAL_CHOICES:
        for n in (2, 3, 4, 5):
            state = ENGINE.setup(n, {"special_roles": value}, seed=n)
            roles = [s["role"] for s in state["seats"]]
            assert sum(ROLES[r].is_insider for r in roles) == (0 if n == 2 else 1) or n == 2


@pytest.mark.parametrize(
    ("handicap", "missions", "intel"),
    [("none", 7, 5), ("missions-1", 6, 5), ("missions+1", 8, 5), ("intel-1", 7, 4), ("intel+1", 7, 6)],
)
def test_handicap_moves_one_goal(handicap, missions, intel):
    """Ruling R3 (§12.24)."""
    goals = ENGINE.setup(4, {"handicap": handicap}, seed=0)["public"]["goals"]
    assert (goals["missions"], goals["intel"], goals["leftover"]) == (missions, intel, 2)


@pytest.mark.parametrize(
    ("n", "deal", "options"),
    [
        (4, ij2(hands=[["R8", "G3", "Y5"], ["R8", "G5", "Y7"], ["B2", "R10", "G9"], ["R12", "Y9", "G11"]]), {}),
        (4, ij2(hands=[["R8", "G3"], ["R4", "G5", "Y7"], ["B2", "R10", "G9"], ["R12", "Y9", "G11"]]), {}),
        (4, ij2(hands=[["R8", "G3"], ["R4", "G5"], ["B2", "R10"], ["R12", "Y9"]]), {}),
        (4, ij2(hands=[["X8", "G3", "Y5"], ["R4", "G5", "Y7"], ["B2", "R10", "G9"], ["R12", "Y9", "G11"]]), {}),
        (4, ij2(roles=["AGENT", "AGENT", "AGENT", "AGENT"]), {}),
        (4, ij2(roles=["S1", "AGENT", "INSIDER", "AGENT"]), {}),
        (4, ij2(missions=["A11", "P01"]), {}),
        (4, ij2(missions=["R01", "P01"]), {}),
        (4, ij2(surprise=1), {}),
        (4, ij2(dealer=4), {}),
        (4, ij2(completed=7), {}),
        (4, ij2(tokens=[5, 5, 3, 1]), {}),
        (4, ij2(controller_first=0), {}),
        (4, ij2(roles=["S5", "AGENT", "INSIDER", "AGENT"], informant_hint=2), {"special_roles": ["S5", "S6"]}),
        (2, {"roles": ["AGENT", "AGENT"], "larry_role": "AGENT"}, {}),
        (3, {"roles": ["INSIDER", "S2", "S8"]}, {"special_roles": ["S8"]}),
    ],
)
def test_invalid_deals_raise_value_error(n, deal, options):
    """§14.6: invalid combinations → ValueError (ruling R4 for lengths and tokens)."""
    with pytest.raises(ValueError):
        ENGINE.setup(n, {**options, "deal": deal}, seed=0)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_tokens_are_never_created_or_lost(n):
    """§1 invariant: held + supply + pot = 14, and the supply never runs out."""
    for seed in range(6):
        state, moves = random_game(ENGINE, n, seed, {"wagers": True})
        public = state["public"]
        assert sum(public["tokens"]) + public["supply"] + public["pot"] == 14
        assert public["supply"] >= 0


def test_a_revealed_turncoat_shows_its_card_not_its_flip():
    """Ruling R7."""
    deal = ij2(
        roles=["AGENT", "S2", "INSIDER", "AGENT"],
        tokens=[1, 4, 1, 1],
        hands=[
            ["R8", "G1", "G2", "G3"],
            ["R9", "G4", "G5", "G6"],
            ["R2", "G7", "G8", "B1"],
            ["R4", "G10", "G11", "B2"],
        ],
    )
    state = run(start(4, deal, special_roles=["S2"]), "0 R8", "1 R9", "2 R2", "3 R4")
    assert state["public"]["revealed"][1] == "S2"
    assert state["seats"][1]["side"] == "INSIDER"
    assert "INSIDER" not in str(ENGINE.view(state, 0))


def test_larry_as_insider_winning_on_tokens_leaves_no_winners():
    """Ruling R10 (§11.6)."""
    deal = {
        "roles": ["AGENT", "AGENT"],
        "larry_role": "INSIDER",
        "dealer": 1,
        "controller_first": 0,
        "tokens": [1, 1, 5],
        "missions": ["A04", "P01"],
        "hands": [["R2", "G1", "G2"], ["R3", "G3", "G4"], ["R5", "G5", "G6"]],
    }
    state = run(start(2, deal), "0 R2", "1 R3", "0 R5")
    assert state["public"]["end"] == "intel_goal" and winners(state) == set()
    assert ENGINE.result(state).seats[0]["side"] == "AGENTS"


def test_the_controller_alternates_trick_by_trick():
    """§11.4."""
    deal = {
        "roles": ["AGENT", "INSIDER"],
        "larry_role": "AGENT",
        "dealer": 1,
        "controller_first": 1,
        "hands": [["R2", "G1", "G2", "B1"], ["R3", "G3", "G4", "B2"], ["R5", "G5", "G6", "B3"]],
        "missions": ["P01", "P02", "P03", "P04"],
    }
    state = run(start(2, deal), "0 R2", "1 R3")
    assert state["public"]["controller"] == 1 and ENGINE.awaiting(state) == {1}
    state = run(state, "1 R5")
    assert state["public"]["leader"] == 2 and state["public"]["controller"] == 0
    assert ENGINE.awaiting(state) == {0}
    assert [m["id"] for m in ENGINE.view(state, 0)["me"]["drawn"]] == ["P03", "P04"]


def test_clocks_follow_the_timer_table_and_restart_per_decision():
    """§16: per-phase limits; the leader's card after its mission choice gets a fresh window."""
    state = start(4, ij2())
    assert ENGINE.time_limit(state, 0, ENGINE.timers) == 45
    after = run(state, "0 mission 0")
    assert ENGINE.opens_new_window(state, after)
    discussion = run(after, "0 R8", "1 R4", "2 B2", "3 R12")
    assert ENGINE.time_limit(discussion, 1, ENGINE.timers) == 120
    one_ready = run(discussion, "0 ready")
    assert not ENGINE.opens_new_window(discussion, one_ready)
    vote = run(one_ready, "1 ready", "2 ready", "3 ready")
    assert ENGINE.opens_new_window(one_ready, vote) and ENGINE.time_limit(vote, 0, ENGINE.timers) == 60
    shadow = start(4, ij2(roles=["S4", "AGENT", "INSIDER", "AGENT"]), special_roles=["S4"])
    assert ENGINE.time_limit(shadow, 2, {"pick_s": 12}) == 12


def test_view_gives_the_ui_what_it_renders():
    """The keys the templates read: hand by suit, role, mission and trump, trick, tokens, goals, vote."""
    state = run(
        start(4, ij2(hands=[["Y5", "R8", "G3"], ["R4", "G5", "Y7"], ["B2", "R10", "G9"], ["R12", "Y9", "G11"]])),
        "0 mission 0",
        "0 R8",
    )
    view = ENGINE.view(state, 1)
    assert ENGINE.view(state, 0)["me"]["hand"] == ["G3", "Y5"]
    assert view["me"]["role"] == "AGENT" and view["me"]["hand"] == ["G5", "Y7", "R4"]
    assert view["mission"]["id"] == "A01" and view["trump"] == "B" and view["led"] == "R"
    assert view["trick"] == [{"pos": 0, "card": "R8", "wager": False}]
    assert view["playable"] == ["R4"] and view["my_turn"]
    assert [p["tokens"] for p in view["players"]] == [1, 1, 1, 1]
    assert view["goals"] == {"missions": 7, "intel": 5, "leftover": 2}
    assert set(view["vote"]) == {"voted", "ballots", "result"}
    assert ENGINE.view(state, None)["me"] is None


def test_seeded_random_games_replay_the_same_chance():
    """All chance comes from (seed, step): the same seed deals the same game."""
    a = ENGINE.setup(5, {"special_roles": {"random": 2}, "house_roles": True}, seed=9)
    b = ENGINE.setup(5, {"special_roles": {"random": 2}, "house_roles": True}, seed=9)
    assert a == b and rng_for(9, 0).random() == rng_for(9, 0).random()


def _fits(n: int, roles: tuple[str, ...]) -> bool:
    """§9.3 read literally: one card per role, S6 replaces the Insider card and every other chosen
    role a plain Agent of the n - 1, and no S2 with S8 at three players."""
    agents_replaced = [r for r in roles if r != "S6"]
    return len(agents_replaced) <= n - 1 and not (n == 3 and {"S2", "S8"} <= set(roles))


def test_special_roles_take_every_list_of_roles_in_play_within_the_deck_rules():
    """§9.3: "the list of special roles in play (S1-S5, S7, S8 replace plain Agents, S6 the Insider
    card), one card per role; S2 with S8 in a 3-player game -> ValueError"."""
    for n in (3, 4, 5):
        for size in range(len(SPECIAL_IDS) + 1):
            for roles in combinations(SPECIAL_IDS, size):
                options = {"special_roles": list(roles)}
                if _fits(n, roles):
                    state = ENGINE.setup(n, options, seed=size)
                    dealt = [s["role"] for s in state["seats"]]
                    assert set(roles) <= set(dealt) and sum(ROLES[r].is_insider for r in dealt) == 1
                    assert state["public"]["modules"]["special_roles"] == list(roles)
                else:
                    with pytest.raises(OptionsRefused):
                        ENGINE.setup(n, options, seed=size)
    # The example, which the old menu refused; the order of the list does not matter.
    assert ENGINE.setup(4, {"special_roles": ["S4", "S3"]}, 1) == ENGINE.setup(4, {"special_roles": ["S3", "S4"]}, 1)


@pytest.mark.parametrize(
    ("n", "value", "reason"),
    [
        (4, ["S1", "S1"], "one card per role"),
        (4, ["S9"], "among S1 to S8"),
        (4, ["AGENT"], "among S1 to S8"),
        (4, "S1", "among S1 to S8"),
        (4, [1], "among S1 to S8"),
        (4, {"random": 0}, "at least 1"),
        (4, {"random": True}, "at least 1"),
        (4, {"random": 1, "more": 1}, "at least 1"),
        (3, ["S1", "S2", "S3"], "3 special roles do not fit 3 players: at most 2"),
        (4, ["S1", "S2", "S3", "S7"], "4 special roles do not fit 4 players: at most 3"),
        (3, ["S2", "S8"], "Turncoat and the Accomplice cannot both play at three players"),
        (3, {"random": 3}, "cannot draw 3 special roles"),
    ],
)
def test_special_roles_outside_the_deck_rules_are_refused_with_the_specs_reason(n, value, reason):
    """§9.3, with its reasons: distinct roles among S1-S8, at most n - 1 besides S6, no S2 with S8
    at three players; ``{"random": k}`` needs a k some deck of the table can hold."""
    with pytest.raises(OptionsRefused, match=reason):
        ENGINE.setup(n, {"special_roles": value}, seed=0)
