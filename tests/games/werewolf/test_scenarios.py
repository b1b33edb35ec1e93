"""The werewolf spec's §10.1 test scenarios, one named test each, driven through the §10.0 deal
and action dicts only."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from games.base import IllegalAction
from games.werewolf.engine import ENGINE
from games.werewolf.roles import WOLVES_FOR
from tests.games.werewolf.helpers import (
    TIMEOUT,
    W5,
    W7,
    W7_REVERSED,
    deal,
    knows_inquiry,
    knows_wolf_pick,
    last_news,
    last_vote,
    night,
    night_turn,
    ready,
    targets,
    views,
    votes,
    walk,
)

ROLE_NAMES = ("WOLF", "SEER", "DOCTOR", "VILLAGER")


def _refused(state, seat, action):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before


# -- 1 ------------------------------------------------------------------------------------------


def test_role_counts_follow_the_table_and_wolves_know_each_other():
    """Scenario 1: §1.1 counts for N = 5..10 over seeds 0..199; wolf lists; no role leaks."""
    for n in range(5, 11):
        for seed in range(200):
            state = ENGINE.setup(n, None, seed)
            roles = [slot["role"] for slot in state["seats"]]
            counts = Counter(roles)
            assert counts == Counter({"WOLF": WOLVES_FOR[n], "SEER": 1, "DOCTOR": 1, "VILLAGER": n - WOLVES_FOR[n] - 2})
            wolves = [s for s, r in enumerate(roles) if r == "WOLF"]
            for s in wolves:
                assert state["seats"][s]["wolves"] == wolves
            if seed % 20:
                continue
            for s, role in enumerate(roles):
                if role == "WOLF":
                    continue
                view = ENGINE.view(state, s)
                text = json.dumps(view)
                assert all(r is None for r in view["dead_roles"])
                for other in ROLE_NAMES:
                    if other != role:
                        assert f'"{other}"' not in text, f"seat {s} ({role}) sees {other}"
                assert view["my_wolves"] == []


def test_bad_player_counts_and_bad_deals_are_refused():
    """Scenario 1 / §8.11: N = 4 or 11, or a deal off the §1.1 multiset, raise ValueError."""
    for n in (4, 11):
        with pytest.raises(ValueError):
            ENGINE.setup(n)
    with pytest.raises(ValueError):
        deal(W5[:4] + ["WOLF"])
    for bad in ({"roles": W5[:4]}, {"roles": W5, "extra": 1}, {"roles": "SEER"}, ["SEER"], {"roles": [*W5[:4], 3]}):
        with pytest.raises(ValueError):
            ENGINE.setup(5, {"deal": bad})
    with pytest.raises(ValueError):
        ENGINE.setup(5, {"no_such_option": 1})


# -- 2, 3, 4 ------------------------------------------------------------------------------------


def test_night_one_kill_is_announced_with_the_role():
    """Scenario 2: the seer alone learns "2: WOLF"; 1 dies as VILLAGER; the day begins."""
    state = deal(W5)
    state = ENGINE.apply(state, 0, {"type": "pick", "target": 2})
    for seat, view in views(state).items():
        assert knows_inquiry(view, 2, "WOLF") == (seat == 0), seat
    state = ENGINE.apply(state, 0, TIMEOUT)
    state = night(state, "1>0, 2>1, 3>4, 4>0")
    assert last_news(state) == {"round": 1, "died": 1, "role": "VILLAGER"}
    assert state["log"][-1] == {"to": None, "kind": "night_death", "round": 1, "seat": 1, "role": "VILLAGER"}
    assert state["public"]["phase"] == "day_discussion"
    assert ENGINE.awaiting(state) == {0, 2, 3, 4}
    assert ENGINE.view(state, None)["dead_roles"] == [None, "VILLAGER", None, None, None]


def test_doctor_save_is_announced_as_nobody_died():
    """Scenario 3: a save reads exactly like a night without an attack, for every non-wolf."""
    saved = night(deal(W5), "0>1, 1>0, 2>4, 3>4, 4>0")
    assert last_news(saved) == {"round": 1, "died": None, "role": None}
    assert all(saved["public"]["alive"])
    # The same night with the wolf silent: nobody died either; no non-wolf can tell the two apart.
    quiet = night(deal(W5), "0>1, 1>0, 2>·, 3>4, 4>0")
    for seat in (None, 0, 1, 3, 4):
        assert ENGINE.view(saved, seat) == ENGINE.view(quiet, seat), seat
    for view in views(saved).values():
        assert not any("save" in str(d.get("kind", "")) or "saved" in d for d in walk(view))


def test_doctor_cannot_protect_the_same_player_two_nights_running():
    """Scenario 4: last_protected blocks the next night only; a night without a pick clears it."""
    state = night(deal(W5), "0>1, 1>0, 2>4, 3>3, 4>0")
    assert last_news(state)["died"] == 4
    state = votes(ready(state), "0:·, 1:·, 2:·, 3:·")
    assert state["log"][-1]["kind"] == "night_began" and last_vote(state)["eliminated"] is None
    assert state["public"]["order"] == [1, 2, 3, 0]
    state = night(state, "1>0, 2>1")
    assert targets(state, 3, "pick") == {0, 1, 2}
    _refused(state, 3, {"type": "pick", "target": 3})
    variant = night(state, "3>·, 0>2")
    state = night(state, "3>0, 0>2")
    assert last_news(state) == {"round": 2, "died": 1, "role": "VILLAGER"}
    state = votes(ready(state), "2:·, 3:·, 0:·")
    assert state["public"]["order"] == [2, 3, 0]
    state = night(state, "2>3")
    _refused(state, 3, {"type": "pick", "target": 0})
    state = night(state, "3>3, 0>2")
    assert last_news(state) == {"round": 3, "died": None, "role": None}
    # Variant: no pick in N2 clears the restriction.
    assert last_news(variant)["died"] == 1
    variant = votes(ready(variant), "2:·, 3:·, 0:·")
    variant = night(variant, "2>3")
    assert targets(variant, 3, "pick") == {0, 2, 3}


# -- 5, 6, 7, 8 ---------------------------------------------------------------------------------


def test_wolf_tie_kills_nobody():
    """Scenario 5: two wolves on two targets: no attack."""
    state = night(deal(W7), "0>1, 1>3, 2>0, 3>0, 4>6, 5>0, 6>0")
    assert last_news(state) == {"round": 1, "died": None, "role": None}


def test_wolves_see_fellow_wolves_picks_and_nobody_else_does():
    """Scenario 6: a wolf cannot pick a wolf; a later wolf sees "1 -> 3"; non-wolves never do."""
    state = night(deal(W7), "0>1")
    assert targets(state, 1, "pick") == {0, 2, 3, 5, 6}
    _refused(state, 1, {"type": "pick", "target": 4})
    assert ENGINE.view(state, 1)["wolf_picks"] == []
    state = night(state, "1>3, 2>4")
    assert knows_inquiry(ENGINE.view(state, 2), 4, "WOLF")
    state = night(state, "3>0")
    assert ENGINE.awaiting(state) == {4}
    assert ENGINE.view(state, 4)["wolf_picks"] == [{"seat": 1, "target": 3}]
    for seat, view in views(state).items():
        assert knows_wolf_pick(view, 1, 3) == (seat in (1, 4)), seat


def test_wolf_timeout_leaves_the_other_wolf_pick_as_the_unique_maximum():
    """Scenario 7: one wolf times out; the other wolf's single vote kills."""
    state = night(deal(W7), "0>1, 1>3, 2>0, 3>0, 4>·, 5>0, 6>0")
    assert last_news(state) == {"round": 1, "died": 3, "role": "VILLAGER"}


def test_seer_result_is_private_until_the_end():
    """Scenario 8: in scenario 6 "4: WOLF" is in the seer's view only, night and day."""
    state = night(deal(W7), "0>1, 1>3, 2>4")
    while not state["public"]["phase"] == "day_vote":
        for seat, view in views(state).items():
            assert knows_inquiry(view, 4, "WOLF") == (seat == 2), seat
        seat = min(ENGINE.awaiting(state))
        legal = ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, legal[0])


# -- 9, 10, 11 ----------------------------------------------------------------------------------


def test_plurality_eliminates_and_the_reveal_lists_every_vote():
    """Scenario 9: votes stay secret until the last one; 4 votes eliminate wolf 1."""
    state = ready(night(deal(W7), "0>1, 1>3, 2>0, 3>0, 4>6, 5>0, 6>0"))
    cast = [(0, 1), (1, 0), (2, 1), (3, 1), (4, 0), (5, 1), (6, None)]
    for voter, target in cast:
        for seat, view in views(state).items():
            assert view["votes"] == []
            assert not any("voter" in d or d.get("kind") == "votes_revealed" for d in walk(view)), seat
            others = [s for s, _ in cast if s != seat]
            if seat is not None and seat in view["voted"]:
                assert view["my_vote"] == dict(cast)[seat]
            for d in walk(view["log"]):
                assert d.get("kind") != "vote" or d.get("seat") not in others
        state = ENGINE.apply(state, voter, {"type": "vote", "target": target})
    reveal = last_vote(state)
    assert reveal == {
        "round": 1,
        "votes": [{"voter": v, "target": t} for v, t in cast],
        "eliminated": 1,
        "role": "WOLF",
    }
    assert state["public"]["dead_roles"][1] == "WOLF"
    assert state["public"]["phase"] == "night" and state["public"]["round"] == 2
    assert state["public"]["order"] == [2, 3, 4, 5, 6, 0]


def test_vote_tie_eliminates_nobody():
    """Scenario 10: 3-3 tie: nobody out; round 2 starts at seat 1."""
    state = ready(night(deal(W7), "0>1, 1>3, 2>0, 3>0, 4>6, 5>0, 6>0"))
    state = votes(state, "0:1, 1:0, 2:1, 3:1, 4:0, 5:0, 6:·")
    assert last_vote(state)["eliminated"] is None
    assert all(state["public"]["alive"])
    assert state["public"]["order"] == [1, 2, 3, 4, 5, 6, 0]


def test_a_lone_vote_eliminates_and_all_abstain_eliminates_nobody():
    """Scenario 11: one vote and six timeouts (= abstain) eliminate 3; all abstain: nobody."""
    day = ready(night(deal(W7), "0>1, 1>3, 2>0, 3>0, 4>6, 5>0, 6>0"))
    state = votes(day, "0:3")
    for seat in range(1, 7):
        state = ENGINE.apply(state, seat, TIMEOUT)
    assert last_vote(state)["votes"][1:] == [{"voter": s, "target": None} for s in range(1, 7)]
    assert last_vote(state)["eliminated"] == 3
    assert state["public"]["dead_roles"][3] == "VILLAGER"
    state = votes(day, "0:·, 1:·, 2:·, 3:·, 4:·, 5:·, 6:·")
    assert last_vote(state)["eliminated"] is None
    assert all(state["public"]["alive"])


# -- 12, 13, 14 ---------------------------------------------------------------------------------


def test_wolves_win_at_dawn_on_parity():
    """Scenario 12: doctor dies, seer voted out, then a villager at night: 1 vs 1."""
    state = night(deal(W5), "0>1, 1>0, 2>3, 3>4, 4>0")
    assert last_news(state) == {"round": 1, "died": 3, "role": "DOCTOR"}
    state = votes(ready(state), "0:2, 1:0, 2:0, 4:0")
    assert last_vote(state)["eliminated"] == 0
    assert not state["public"]["over"]
    state = night(state, "1>2, 2>1, 4>2")
    assert last_news(state)["died"] == 1
    result = ENGINE.result(state)
    assert result is not None and result.winners == [2]
    assert ENGINE.awaiting(state) == set()
    assert state["public"]["winner"] == "wolves"


def test_wolves_win_right_after_the_vote():
    """Scenario 13: parity after a day elimination ends the game without another night."""
    state = night(deal(W7), "0>1, 1>2, 2>1, 3>0, 4>2, 5>0, 6>0")
    assert last_news(state) == {"round": 1, "died": 2, "role": "SEER"}
    state = votes(ready(state), "0:6, 1:6, 3:6, 4:6, 5:·, 6:·")
    assert last_vote(state)["eliminated"] == 6
    assert state["public"]["order"] == [1, 3, 4, 5, 0]
    state = night(state, "1>3, 3>0, 4>0, 5>3, 0>1")
    assert last_news(state) == {"round": 2, "died": None, "role": None}
    state = votes(ready(state), "1:0, 3:·, 4:0, 5:·, 0:·")
    assert state["public"]["over"] and state["public"]["round"] == 2
    assert ENGINE.result(state).winners == [1, 4]
    assert ENGINE.awaiting(state) == set()
    assert state["log"][-1]["kind"] == "game_over"


def test_village_win_includes_the_dead():
    """Scenario 14 (and the end of 8): all village seats win; every view shows all roles and picks."""
    state = night(deal(W7), "0>1, 1>6, 2>1, 3>0, 4>6, 5>0, 6>0")
    assert last_news(state)["died"] == 6
    state = votes(ready(state), "0:1, 1:0, 2:1, 3:1, 4:0, 5:1")
    assert last_vote(state)["role"] == "WOLF"
    state = night(state, "2>4, 3>0, 4>3, 5>3, 0>2")
    assert last_news(state)["died"] is None
    for seat, view in views(state).items():
        assert knows_inquiry(view, 4, "WOLF") == (seat == 2), seat
    state = votes(ready(state), "2:4, 3:4, 4:2, 5:4, 0:4")
    result = ENGINE.result(state)
    assert result is not None and result.winners == [0, 2, 3, 5, 6]
    assert [row["side"] for row in result.seats] == [
        "village",
        "wolves",
        "village",
        "village",
        "wolves",
        "village",
        "village",
    ]
    for seat, view in views(state).items():
        assert [s["role"] for s in view["reveal"]["seats"]] == W7
        assert knows_inquiry(view, 4, "WOLF"), seat
        assert knows_wolf_pick(view, 1, 6) and knows_wolf_pick(view, 4, 3), seat
        picks = {(d["seat"], d["round"], d["target"]) for d in walk(view["log"]) if d.get("kind") == "night_pick"}
        assert (5, 2, 3) in picks and (6, 1, 0) in picks


# -- 15, 16, 17, 18 -----------------------------------------------------------------------------


def test_the_dead_take_no_turns_and_are_no_targets():
    """Scenario 15: after scenario 2, seat 1 is never awaited nor a target, and cannot chat."""
    state = night(deal(W5), "0>2, 1>0, 2>1, 3>4, 4>0")
    seen_orders = []
    while not (state["public"]["phase"] == "day_discussion" and state["public"]["round"] == 2):
        assert 1 not in ENGINE.awaiting(state)
        assert ENGINE.legal_actions(state, 1) == []
        assert ENGINE.view(state, 1)["can_chat"] is False
        for seat in ENGINE.awaiting(state):
            assert 1 not in {a.get("target") for a in ENGINE.legal_actions(state, seat)}
        if state["public"]["order"] not in seen_orders:
            seen_orders.append(state["public"]["order"])
        seat = min(ENGINE.awaiting(state))
        legal = ENGINE.legal_actions(state, seat)
        state = ENGINE.apply(state, seat, legal[-2] if len(legal) > 1 else legal[-1])
        if state["public"]["over"]:
            break
    assert [0, 2, 3, 4] in seen_orders  # V1
    assert [2, 3, 4, 0] in seen_orders  # N2 starts past the dead seat 1


def test_chat_is_closed_at_night_and_open_to_the_living_by_day():
    """Scenario 16: can_chat false at night for all; true for the living in the discussion."""
    state = deal(W5)
    for view in views(state).values():
        assert view["can_chat"] is False
    state = night(state, "0>2, 1>0, 2>1, 3>4")
    for view in views(state).values():
        assert view["can_chat"] is False
    state = night(state, "4>0")
    chat = {seat: view["can_chat"] for seat, view in views(state).items()}
    assert chat == {0: True, 1: False, 2: True, 3: True, 4: True, None: False}
    state = ENGINE.apply(state, 0, {"type": "ready"})
    assert ENGINE.view(state, 0)["can_chat"] is True


def test_dead_doctor_protects_nobody_and_dead_seer_learns_nothing():
    """Scenario 17: the doctor dies on N1, so N2's attack kills; a dead seer gets no result."""
    state = night(deal(W7), "0>1, 1>5, 2>1, 3>0, 4>5, 5>0, 6>0")
    assert last_news(state) == {"round": 1, "died": 5, "role": "DOCTOR"}
    state = votes(ready(state), "0:·, 1:·, 2:·, 3:·, 4:·, 6:·")
    assert state["public"]["order"] == [1, 2, 3, 4, 6, 0]
    state = night(state, "1>3, 2>4, 3>0, 4>3, 6>0, 0>1")
    assert last_news(state) == {"round": 2, "died": 3, "role": "VILLAGER"}
    # Scenario 13: the seer dies on N1; no inquiry result is written afterwards.
    state = night(deal(W7), "0>1, 1>2, 2>1, 3>0, 4>2, 5>0, 6>0")
    results_before = sum(1 for e in state["log"] if e["kind"] == "seer_result")
    state = votes(ready(state), "0:6, 1:6, 3:6, 4:6, 5:·, 6:·")
    state = votes(ready(night(state, "1>3, 3>0, 4>0, 5>3, 0>1")), "1:0, 3:·, 4:0, 5:·, 0:·")
    assert sum(1 for e in state["log"] if e["kind"] == "seer_result") == results_before == 1


def test_nights_look_the_same_whatever_the_roles():
    """Scenario 18: W7 and W7 reversed give equal awaiting and public after every apply."""
    games = [deal(W7), deal(W7_REVERSED)]
    assert games[0]["public"] == games[1]["public"]
    for seat, target in [(0, 3)] + [(s, 0) for s in range(1, 7)]:
        moves = [{"type": "pick", "target": target}, TIMEOUT]
        for move in moves:
            games = [ENGINE.apply(g, seat, move) for g in games]
            assert ENGINE.awaiting(games[0]) == ENGINE.awaiting(games[1])
            assert games[0]["public"] == games[1]["public"]
            assert ENGINE.view(games[0], None) == ENGINE.view(games[1], None)
        assert games[0]["public"]["turn"] == seat + 1 or seat == 6, "every turn takes exactly two moves"
    assert games[0]["public"]["phase"] == "day_discussion"


# -- 19, 20 -------------------------------------------------------------------------------------


def test_illegal_actions_raise_and_change_nothing():
    """Scenario 19: self-vote, dead target, second vote, off-turn pick, second pick, unknown type."""
    state = deal(W5)
    _refused(state, 1, {"type": "pick", "target": 2})  # not on turn
    picked = ENGINE.apply(state, 0, {"type": "pick", "target": 2})
    _refused(picked, 0, {"type": "pick", "target": 3})  # already picked this turn
    _refused(state, 0, {"type": "dance"})
    _refused(state, 0, {"type": "pick", "target": 0})  # seer cannot inquire himself
    _refused(state, 0, {"type": "pick", "target": "2"})
    state = ready(night(state, "0>2, 1>0, 2>1, 3>4, 4>0"))
    _refused(state, 0, {"type": "vote", "target": 0})  # self-vote
    _refused(state, 0, {"type": "vote", "target": 1})  # dead
    _refused(state, 0, {"type": "ready"})
    state = ENGINE.apply(state, 0, {"type": "vote", "target": 2})
    _refused(state, 0, {"type": "vote", "target": 3})  # second vote
    _refused(state, 2, {"type": "vote", "target": 0, "extra": True})


def test_order_rotates_one_seat_clockwise_and_skips_the_dead():
    """Scenario 20: round 2 starts at seat 2 when 1 is dead (scenario 9), at seat 1 otherwise (10)."""
    day = ready(night(deal(W7), "0>1, 1>3, 2>0, 3>0, 4>6, 5>0, 6>0"))
    assert day["public"]["round"] == 1
    dead_one = votes(day, "0:1, 1:0, 2:1, 3:1, 4:0, 5:1, 6:·")
    assert dead_one["public"]["order"][0] == 2
    tie = votes(day, "0:1, 1:0, 2:1, 3:1, 4:0, 5:0, 6:·")
    assert tie["public"]["order"][0] == 1
    assert copy.deepcopy(tie) == tie


def test_each_night_turn_is_exactly_two_moves_for_every_role():
    """§3.1 / §8.10: after a pick or a no-pick only the close is legal; the turn then passes."""
    state = deal(W7)
    for seat, role in enumerate(W7):
        assert ENGINE.awaiting(state) == {seat}, role
        state = night_turn(state, seat, None if seat % 2 else 0 if seat else 3)
    assert state["public"]["phase"] == "day_discussion"
