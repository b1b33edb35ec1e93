"""The test scenarios of spec §9.1, one function each (the docstring names the scenario)."""

from __future__ import annotations

import copy
import json

import pytest

from games.base import IllegalAction
from games.monster.cards import victims_in_play
from tests.games.monster.script import ENGINE, A, B, C, D, E, kinds, last, night_totals, play, start


def _order(state):
    return last(state, "hunt_order")["order"]


# -- 1 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "in_play"), [(2, 12), (3, 18), (4, 24), (5, 30)])
def test_setup_filters_victims_and_deals_full_hands(n, in_play):
    """Scenario 1: victims in play by dots, a row of N, hands 0-8, a random track, all awaited."""
    state = ENGINE.setup(n, None, seed=5)
    public = state["public"]
    assert len(public["table"]) == n
    assert sorted(public["table"] + state["hidden"]["deck"]) == sorted(victims_in_play(n))
    assert len(victims_in_play(n)) == in_play
    assert public["hands"] == [list(range(9))] * n
    assert sorted(public["track"]) == list(range(n))
    if n == 2:
        assert public["tokens"] == [0, 0]
    else:
        assert public["totals"] == [0] * n
    assert ENGINE.awaiting(state) == set(range(n))


@pytest.mark.parametrize("n", [1, 6])
def test_setup_refuses_one_or_six_players(n):
    """Scenario 1: N = 1 or 6 is a ValueError."""
    with pytest.raises(ValueError):
        ENGINE.setup(n, None, seed=0)


# -- 2 and 15 -----------------------------------------------------------------------------------

WORKED = {"track": [2, 0, 3, 1], "victims": [["V01", "V11", "V08", "V15"]]}


def test_worked_example_vampire_stops_mummy_and_blob_absorbs_beast():
    """Scenario 2: secret picks, Vampire cancels the Mummy, Blob absorbs the Beast, night scored."""
    state = play(start(4, WORKED), "0 sel 6; 1 sel 3; 2 sel 8")
    for viewer in (None, 0, 1, 2, 3):
        other = copy.deepcopy(state)
        for s in range(4):
            if s != viewer:
                other["seats"][s]["selection"] = 5
        view = ENGINE.view(state, viewer)
        assert json.dumps(ENGINE.view(other, viewer), sort_keys=True) == json.dumps(view, sort_keys=True)
        assert all(p["hand_size"] == 9 for p in view["players"])
        assert [p["chosen"] for p in view["players"]] == [True, True, True, False]
    assert ENGINE.view(state, 3)["me"]["selection"] is None
    assert ENGINE.view(state, 0)["me"]["selection"] == 6
    assert ENGINE.awaiting(state) == {D}
    state = play(state, "3 sel 0")
    drain = last(state, "vampire_drains")
    assert (drain["seat"], drain["target"], drain["effect"]) == (A, B, True)
    assert state["public"]["cancelled"][B] and state["public"]["front"] == []
    assert ENGINE.awaiting(state) == {D} and state["public"]["phase"] == "absorb"
    state = play(state, "3 absorb 7")
    assert state["public"]["strength"][D] == 7 and 7 in state["public"]["discarded"][D]
    assert _order(state) == [C, D, A, B]
    state = play(state, "2 take V01; 3 take V08; 0 take V11")
    assert kinds(state, "night_scored")[0]["scores"][B]["plain"] == -2  # B got V15 automatically
    assert state["public"]["track"] == [0, 3, 1, 2]
    assert night_totals(state, 0) == [1, 1, 9, 7]
    assert state["public"]["night"] == 2
    assert len(state["public"]["table"]) + state["public"]["deck_size"] == 24


def test_next_night_restores_hands_keeps_track_and_totals():
    """Scenario 15: after scenario 2 every hand is 0-8 again, the track is not reset, totals kept,
    the new deck holds all 24 victims in play."""
    state = play(start(4, WORKED), "0 sel 6; 1 sel 3; 2 sel 8; 3 sel 0; 3 absorb 7; 2 take V01; 3 take V08; 0 take V11")
    public = state["public"]
    assert public["hands"] == [list(range(9))] * 4
    assert public["played"] == [[]] * 4 and public["discarded"] == [[]] * 4 and public["captured"] == [[]] * 4
    assert public["track"] == [0, 3, 1, 2]
    assert public["totals"] == [1, 1, 9, 7]
    assert sorted(public["table"] + state["hidden"]["deck"]) == sorted(victims_in_play(4))
    assert ENGINE.awaiting(state) == {0, 1, 2, 3}


# -- 3 and 17 -----------------------------------------------------------------------------------

TWO = {"track": [0, 1], "victims": [["V02", "V07"]]}


def test_two_players_invader_must_take_the_harmful_second_victim():
    """Scenario 3: the Invader takes V02 then must take V07; B gets nothing; A wins the night."""
    state = play(start(2, TWO), "0 sel 4; 1 sel 1; 0 take V02")
    assert state["public"]["night_scores"][0]["scores"][A]["plain"] == 1
    assert night_totals(state, 0) == [4, 3]
    assert state["public"]["tokens"] == [1, 0]
    assert any(e["kind"] == "hunt_nothing" and e["seat"] == B for e in state["log"])


def test_two_players_invader_gets_the_leftover_when_kaiju_hunts_first():
    """Scenario 3, variant ``1 sel 8``: B takes V02, A's Invader gets V07, B wins the night."""
    state = play(start(2, TWO), "0 sel 4; 1 sel 8; 1 take V02")
    assert night_totals(state, 0) == [0, 7]
    assert state["public"]["tokens"] == [0, 1]


def test_two_players_swamp_gift_goes_to_the_opponent_automatically():
    """Scenario 3, variant ``0 sel 8; 1 sel 1``: B's Swamp takes V07 and gives it to A, all automatic."""
    state = play(start(2, TWO), "0 sel 8; 1 sel 1; 0 take V02")
    gift = last(state, "victim_given")
    assert (gift["seat"], gift["recipient"], gift["victim"]) == (B, A, "V07")
    assert night_totals(state, 0) == [4, 3]


def test_optional_invader_second_take_may_stop():
    """Scenario 17: with ``invader_mandatory_second: false`` A may stop; B's Swamp then gives V07 to A."""
    state = play(start(2, TWO, invader_mandatory_second=False), "0 sel 4; 1 sel 1; 0 take V02")
    assert ENGINE.legal_actions(state, A)[:-1] == [
        {"type": "take", "victim": "V07"},
        {"type": "take", "victim": None},
    ]
    state = play(state, "0 take ·")
    assert last(state, "invader_stops")["seat"] == A
    gift = last(state, "victim_given")
    assert (gift["seat"], gift["recipient"], gift["victim"]) == (B, A, "V07")


# -- 4 ------------------------------------------------------------------------------------------

FOUR = {"track": [1, 2, 0], "captured": [[], ["V13"], []], "victims": [["V03", "V06", "V16"]]}


def test_invisible_man_burns_werewolf_maul_and_leftovers_burn():
    """Scenario 4: B's Werewolf hits A, C's Mummy finds no Kaiju, A burns B's Heiress, V06 burns."""
    state = play(start(3, FOUR), "0 sel 2; 1 sel 5; 2 sel 3")
    assert state["public"]["phase"] == "discard" and ENGINE.awaiting(state) == {A}
    state = play(state, "0 discard 1")
    assert last(state, "werewolf_mauls") == {"to": None, "kind": "werewolf_mauls", "seat": B, "target": A, "monster": 1}
    assert last(state, "mummy_checked")["first"] is False
    assert _order(state) == [B, C, A]
    state = play(state, "1 take V03; 2 take V16; 0 burn 1 V13")
    assert last(state, "leftovers_burned")["victims"] == ["V06"]
    assert night_totals(state, 0) == [3, 6, 10]


def test_werewolf_victim_may_discard_the_beast_and_lose_its_bonus():
    """Scenario 4, variant ``0 discard 7``: A's Beast is gone, A scores 0."""
    state = play(start(3, FOUR), "0 sel 2; 1 sel 5; 2 sel 3; 0 discard 7; 1 take V03; 2 take V16; 0 burn 1 V13")
    assert night_totals(state, 0) == [0, 6, 10]


# -- 5 ------------------------------------------------------------------------------------------

ROW3 = {"track": [0, 1, 2], "victims": [["V01", "V02", "V03"]]}


def test_mummy_hunts_first_when_a_kaiju_is_revealed():
    """Scenario 5: a Kaiju sends the Mummy to the front: order B, A, C."""
    state = play(start(3, ROW3), "0 sel 8; 1 sel 3; 2 sel 7")
    assert _order(state) == [B, A, C]
    state = play(state, "1 take V01; 0 take V02")
    assert state["public"]["night_scores"][0]["scores"][C]["plain"] == 3


def test_two_mummies_go_first_in_tile_order():
    """Scenario 5, variant ``2 sel 3``: B, C in tile order, then A."""
    state = play(start(3, ROW3), "0 sel 8; 1 sel 3; 2 sel 3")
    assert _order(state) == [B, C, A]


def test_mummy_without_kaiju_is_plain_strength_three():
    """Scenario 5, variant ``0 sel 7; 1 sel 3; 2 sel 5``: C's Werewolf hits B; no Kaiju: A, C, B."""
    state = play(start(3, ROW3), "0 sel 7; 1 sel 3; 2 sel 5")
    assert ENGINE.awaiting(state) == {B} and state["public"]["phase"] == "discard"
    state = play(state, "1 discard 0")
    assert _order(state) == [A, C, B]


# -- 6 ------------------------------------------------------------------------------------------


def test_first_vampire_cancels_the_second_which_never_resolves():
    """Scenario 6: A's Vampire cancels B's; C's Invader is intact; tie A, B by tile."""
    state = play(start(3, ROW3), "0 sel 6; 1 sel 6; 2 sel 4")
    drains = kinds(state, "vampire_drains")
    assert [(d["seat"], d["target"], d["effect"]) for d in drains] == [(A, B, True)]
    assert state["public"]["cancelled"] == [False, True, False]
    assert _order(state) == [A, B, C]
    assert last(state, "hunt_order")["ties"] == [[A, B]]
    state = play(state, "0 take V01; 1 take V02")
    assert state["public"]["night_scores"][0]["scores"][C]["plain"] == 3


def test_a_resolved_vampire_is_unaffected_by_a_later_drain():
    """Scenario 6, variant track ``[1,0,2]``: B's Vampire cancels C's Invader first; A's drain of
    B's already-resolved Vampire has no effect."""
    state = play(start(3, {**ROW3, "track": [1, 0, 2]}), "0 sel 6; 1 sel 6; 2 sel 4")
    drains = kinds(state, "vampire_drains")
    assert [(d["seat"], d["target"], d["effect"]) for d in drains] == [(B, C, True), (A, B, False)]
    assert state["public"]["cancelled"] == [False, False, True]


# -- 7 ------------------------------------------------------------------------------------------


def test_cancelled_invader_takes_one_victim():
    """Scenario 7: A's Vampire cancels B's Invader: each takes one."""
    state = play(start(3, ROW3), "0 sel 6; 1 sel 4; 2 sel 2; 0 take V01; 1 take V02")
    assert state["public"]["phase"] == "invisible"
    state = play(state, "2 take V03")
    assert [s["plain"] for s in state["public"]["night_scores"][0]["scores"]] == [6, 4, 3]


def test_invisible_man_on_an_empty_table_may_burn_or_take_nothing():
    """Scenario 7, variant ``0 sel 7``: the Invader empties the table; C may burn any captured
    victim or take nothing; ``2 burn 1 V02``."""
    state = play(start(3, ROW3), "0 sel 7; 1 sel 4; 2 sel 2; 0 take V01; 1 take V02")
    assert ENGINE.legal_actions(state, C)[:-1] == [
        {"type": "take", "victim": None},
        {"type": "burn", "from": A, "victim": "V01"},
        {"type": "burn", "from": B, "victim": "V02"},
        {"type": "burn", "from": B, "victim": "V03"},
    ]
    state = play(state, "2 burn 1 V02")
    assert last(state, "victim_burned") == {"to": None, "kind": "victim_burned", "seat": C, "from": B, "victim": "V02"}
    assert state["public"]["night_scores"][0]["scores"][B]["plain"] == 3


def test_invisible_man_with_own_scope_and_empty_pile_takes_nothing_automatically():
    """Scenario 7, ``invisible_man_scope: own``: C's only option is nothing, applied automatically."""
    state = play(start(3, ROW3, invisible_man_scope="own"), "0 sel 7; 1 sel 4; 2 sel 2; 0 take V01; 1 take V02")
    assert last(state, "hunt_nothing")["seat"] == C
    assert state["public"]["night"] == 2


# -- 8 ------------------------------------------------------------------------------------------


def test_blob_absorbing_a_kaiju_ties_the_kaiju_and_wins_by_tile():
    """Scenario 8: C's Mummy first; ``0 absorb 8`` ties B's Kaiju, A ahead by tile: C, A, B."""
    state = play(start(3, ROW3), "0 sel 0; 1 sel 8; 2 sel 3")
    assert state["public"]["front"] == [C]
    assert {"type": "absorb", "monster": None} in ENGINE.legal_actions(state, A)
    state = play(state, "0 absorb 8")
    assert _order(state) == [C, A, B]


def test_an_absorbed_kaiju_does_not_wake_the_mummy():
    """Scenario 8, variant ``1 sel 7``, ``0 absorb 8``: no Mummy jump: A, B, C."""
    state = play(start(3, ROW3), "0 sel 0; 1 sel 7; 2 sel 3; 0 absorb 8")
    assert _order(state) == [A, B, C]


def test_a_blob_that_declines_hunts_last():
    """Scenario 8, variant ``0 absorb ·``: A hunts last."""
    state = play(start(3, ROW3), "0 sel 0; 1 sel 8; 2 sel 3; 0 absorb ·")
    assert _order(state) == [C, B, A]


def test_blob_must_absorb_when_not_optional():
    """Scenario 8, ``blob_optional: false``: ``absorb ·`` is not offered."""
    state = play(start(3, ROW3, blob_optional=False), "0 sel 0; 1 sel 8; 2 sel 3")
    legal = ENGINE.legal_actions(state, A)
    assert {"type": "absorb", "monster": None} not in legal
    assert [a["monster"] for a in legal[:-1]] == [1, 2, 3, 4, 5, 6, 7, 8]
    with pytest.raises(IllegalAction):
        play(state, "0 absorb ·")


# -- 9 ------------------------------------------------------------------------------------------

SWAMP = {"track": [0, 1, 2], "victims": [["V07", "V01", "V02"]]}


def test_swamp_creature_must_give_its_victim_away():
    """Scenario 9: ``1 discard 0``; hunt B, C, A; A takes V07 and ``0 give 1``."""
    state = play(start(3, SWAMP), "0 sel 1; 1 sel 8; 2 sel 5; 1 discard 0")
    assert _order(state) == [B, C, A]
    state = play(state, "1 take V01; 2 take V02")
    assert state["public"]["phase"] == "give"
    assert ENGINE.legal_actions(state, A)[:-1] == [{"type": "give", "to": B}, {"type": "give", "to": C}]
    state = play(state, "0 give 1")
    assert [s["plain"] for s in state["public"]["night_scores"][0]["scores"]] == [0, 3, 4]


def test_cancelled_swamp_creature_keeps_its_victim():
    """Scenario 9, variant ``2 sel 6``: C's Vampire cancels A's Swamp: A keeps V07."""
    state = play(start(3, SWAMP), "0 sel 1; 1 sel 8; 2 sel 6; 1 take V01; 2 take V02")
    assert kinds(state, "victim_given") == []
    assert state["public"]["night_scores"][0]["scores"][A]["plain"] == -3


# -- 10 -----------------------------------------------------------------------------------------

TEENS = {
    "track": [0, 1, 2, 3],
    "captured": [["V08", "V10"], ["V09"], ["V16"], []],
    "victims": [["V01", "V02", "V03", "V04"]],
}
TEEN_SCRIPT = "0 sel 8; 1 sel 7; 2 sel 3; 3 sel 0; 3 absorb ·; 2 take V01; 0 take V02; 1 take V03"


def test_teenager_majority_awards_first_and_second():
    """Scenario 10: A +7, B +3, C +3, D 0; nights 14, 6, 12, 5."""
    state = start(4, TEENS)
    state = play(state, "0 sel 8; 1 sel 7; 2 sel 3; 3 sel 0; 3 absorb ·")
    assert _order(state) == [C, A, B, D]
    state = play(state, "2 take V01; 0 take V02; 1 take V03")
    scores = state["public"]["night_scores"][0]["scores"]
    assert [s["teen_points"] for s in scores] == [7, 3, 3, 0]
    assert [s["total"] for s in scores] == [14, 6, 12, 5]


def test_tied_teenager_leaders_share_first_and_nobody_is_second():
    """Scenario 10, variant: B also holds V17 (3 icons): A +7, B +7, C 0."""
    deal = {**TEENS, "captured": [["V08", "V10"], ["V09", "V17"], ["V16"], []]}
    state = play(start(4, deal), TEEN_SCRIPT)
    assert [s["teen_points"] for s in state["public"]["night_scores"][0]["scores"]] == [7, 7, 0, 0]


# -- 11 -----------------------------------------------------------------------------------------


def test_engineers_score_in_pairs():
    """Scenario 11: Engineer parts A 0, B -2, C +6, D +4."""
    deal = {
        "track": [0, 1, 2, 3, 4],
        "captured": [[], ["V11"], ["V12", "V18"], ["V23", "V24", "V30"], []],
        "victims": [["V01", "V02", "V03", "V04", "V05"]],
    }
    state = play(start(5, deal), "0 sel 8; 1 sel 7; 2 sel 3; 3 sel 0; 4 sel 5; 3 discard 1; 3 absorb ·")
    assert _order(state) == [C, A, B, E, D]
    state = play(state, "2 take V01; 0 take V02; 1 take V03; 4 take V04")
    scores = state["public"]["night_scores"][0]["scores"]
    assert [s["engineer_points"] for s in scores] == [0, -2, 6, 4, 0]
    assert scores[D]["plain"] == 1  # V05 came automatically


# -- 12 -----------------------------------------------------------------------------------------


def test_third_night_ends_the_game_and_the_tile_breaks_the_tie():
    """Scenario 12: totals A 15, B 13, C 15; track after rotation [1,0,2]: A wins, nobody awaited."""
    deal = {"night": 3, "totals": [10, 12, 11], "track": [2, 1, 0], "victims": [["V05", "V06", "V04"]]}
    state = play(start(3, deal), "0 sel 8; 1 sel 7; 2 sel 6; 0 take V04; 1 take V05")
    assert state["public"]["totals"] == [15, 13, 15]
    assert state["public"]["track"] == [1, 0, 2]
    result = ENGINE.result(state)
    assert result is not None and result.winners == [A]
    assert ENGINE.awaiting(state) == set()
    assert last(state, "game_over")["tie_break"] is True


# -- 13 -----------------------------------------------------------------------------------------


def test_two_players_match_ends_at_two_night_tokens():
    """Scenario 13: night 2, tokens [1,0]: A 7, B -3 -> tokens [2,0], A wins the match."""
    deal = {"night": 2, "tokens": [1, 0], "track": [0, 1], "victims": [["V02", "V07"]]}
    state = play(start(2, deal), "0 sel 8; 1 sel 7; 0 take V02")
    assert night_totals(state) == [7, -3]
    assert state["public"]["tokens"] == [2, 0]
    assert ENGINE.result(state).winners == [A]


def test_two_players_tied_night_goes_to_the_higher_tile():
    """Scenario 13, variant: both score 4; B's tile is higher after rotation: tokens [1,1], night 3."""
    deal = {"night": 2, "tokens": [1, 0], "track": [0, 1], "victims": [["V05", "V06"]]}
    state = play(start(2, deal), "0 sel 6; 1 sel 8; 1 take V05")
    assert night_totals(state) == [4, 4]
    assert state["public"]["tokens"] == [1, 1]
    assert state["public"]["night"] == 3 and ENGINE.awaiting(state) == {A, B}


def test_two_players_long_match_needs_three_tokens():
    """Scenario 13, ``two_player_target: 3``: tokens [2,0] and night 3 starts."""
    deal = {"night": 2, "tokens": [1, 0], "track": [0, 1], "victims": [["V02", "V07"]]}
    state = play(start(2, deal, two_player_target=3), "0 sel 8; 1 sel 7; 0 take V02")
    assert state["public"]["tokens"] == [2, 0]
    assert state["public"]["night"] == 3 and ENGINE.result(state) is None


# -- 14 -----------------------------------------------------------------------------------------

V1_SCRIPT = "0 sel 8; 1 sel 7; 2 sel 8; 0 take V01; 2 take V02"


def test_default_rotation_moves_the_top_tile_down():
    """Scenario 14: track [1,0,2], A wins a tie against C; default rotation -> [0,2,1]."""
    state = play(start(3, {**ROW3, "track": [1, 0, 2]}), V1_SCRIPT)
    assert kinds(state, "hunt_order")[0]["ties"] == [[A, C]]
    assert kinds(state, "track_rotated")[0]["track"] == [0, 2, 1]


def test_winner_to_bottom_rotation_moves_only_the_tie_winner():
    """Scenario 14, ``tiebreak_rotation: winner_to_bottom`` -> [1,2,0]."""
    state = play(start(3, {**ROW3, "track": [1, 0, 2]}, tiebreak_rotation="winner_to_bottom"), V1_SCRIPT)
    assert kinds(state, "track_rotated")[0]["track"] == [1, 2, 0]


# -- 16 -----------------------------------------------------------------------------------------


def test_timeouts_apply_the_spec_defaults():
    """Scenario 16: select lowest, discard lowest, Blob declines, take first, give left."""
    state = play(start(3, ROW3), "0 timeout; 1 sel 5; 2 sel 1")
    assert state["public"]["revealed"] == [0, 5, 1]
    state = play(state, "0 timeout")
    assert state["public"]["discarded"][A] == [1]
    state = play(state, "0 timeout")
    assert last(state, "blob_absorbs")["monster"] is None
    assert _order(state) == [B, C, A]
    state = play(state, "1 timeout; 2 timeout")
    assert ENGINE.awaiting(state) == {C} and state["public"]["phase"] == "give"
    state = play(state, "2 timeout")
    gift = last(state, "victim_given")
    assert (gift["seat"], gift["recipient"], gift["victim"]) == (C, A, "V02")
    captured = [e for e in state["log"] if e["kind"] == "victim_taken"]
    assert [(e["seat"], e["victim"]) for e in captured] == [(B, "V01"), (C, "V02"), (A, "V03")]
    assert len(kinds(state, "timed_out")) == 6


# -- 18 -----------------------------------------------------------------------------------------


def _refused(state, seat, action):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before


def test_illegal_actions_are_refused_and_change_nothing():
    """Scenario 18: a played card, a seat not awaited, a gift to oneself, a burn from the wrong pile."""
    deal = {"track": [0, 1, 2], "victims": [["V07", "V01", "V02", "V03", "V04", "V05"]]}
    state = play(start(3, deal), "0 sel 1; 1 sel 8; 2 sel 5; 1 discard 0; 1 take V01; 2 take V02")
    _refused(state, A, {"type": "give", "to": A})
    _refused(state, B, {"type": "give", "to": C})  # not awaited
    state = play(state, "0 give 1")
    _refused(state, A, {"type": "select", "monster": 1})  # played this night
    _refused(state, B, {"type": "select", "monster": 0})  # discarded to the Werewolf
    state = play(state, "0 sel 2; 1 sel 7")
    _refused(state, A, {"type": "select", "monster": 3})  # already picked
    state = play(state, "2 sel 3; 1 take V03; 2 take V04")
    assert state["public"]["phase"] == "invisible"
    _refused(state, A, {"type": "burn", "from": C, "victim": "V01"})  # C's pile lacks V01
    _refused(state, A, {"type": "burn", "from": A, "victim": "V07"})  # V07 was given to B
    state = play(state, "0 burn 1 V07")
    assert last(state, "victim_burned")["victim"] == "V07"
