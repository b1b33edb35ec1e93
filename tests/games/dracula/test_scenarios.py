"""The test scenarios of spec §10.1, one function each, driven through the deal and action dicts."""

from __future__ import annotations

import json

import pytest

from games.base import IllegalAction
from games.dracula.cards import ALL_CARDS
from tests.games.dracula.helpers import ENGINE, D, V, act, deal_state, play, quick_round, rack_cards, types


def _log_kinds(state, kind):
    return [e for e in state["log"] if e["kind"] == kind]


def test_setup_without_a_deal_starts_round_one_with_dracula_to_draw():
    """Scenario 1."""
    for seed in range(4):
        state = ENGINE.setup(2, {}, seed)
        public = state["public"]
        dracula = public["dracula"]
        assert public["vampires"] == [0] * 5 and public["lives"] == 12 and public["round"] == 1
        assert sorted(public["ranking"]) == ["G", "P", "R", "Y"]
        assert all(len(s["holder"]) == 5 for s in state["seats"])
        assert public["deck_count"] == 22 and len(state["hidden"]["deck"]) == 22 and public["discard"] == []
        assert ENGINE.awaiting(state) == {dracula}
        assert ENGINE.legal_actions(state, dracula) == [{"type": "draw"}, {"type": "timeout"}]
        assert public["revealed"] == [[None] * 5, [None] * 5]
        helsing_view = ENGINE.view(state, 1 - dracula)
        assert rack_cards(helsing_view, "dracula") == [None] * 5
        assert all(e["back"] for e in helsing_view["racks"]["dracula"])
        assert rack_cards(helsing_view, "van_helsing") == state["seats"][1 - dracula]["holder"]
        everything = sorted(state["seats"][0]["holder"] + state["seats"][1]["holder"] + state["hidden"]["deck"])
        assert everything == sorted(ALL_CARDS)
    assert ENGINE.setup(2, {"starting_lives": 11}, 0)["public"]["lives"] == 11


def _scenario_2():
    return deal_state(
        ["Y1", "Y3", "R4", "G5", "P6"],
        ["R8", "Y6", "G7", "R5", "G6"],
        ["P2"],
        ["R1", "R2", "R3", "G1", "G2", "G3"],
    )


def test_comparisons_trump_value_then_colour_rank_and_next_round():
    """Scenario 2."""
    state = quick_round(_scenario_2())
    assert _log_kinds(state, "revealed_top")[-1]["card"] == "R6"
    comparison = state["public"]["comparisons"][0]
    assert [d["winner"] for d in comparison["districts"]] == [
        "dracula",
        "van_helsing",
        "van_helsing",
        "van_helsing",
        "dracula",
    ]
    public = state["public"]
    assert public["vampires"] == [1, 0, 0, 0, 1] and public["lives"] == 9
    assert public["round"] == 2 and ENGINE.awaiting(state) == {D} and public["phase"] == "turn_start"
    assert public["discard"] == [] and public["revealed"] == [[None] * 5, [None] * 5] and public["deck_top"] is None
    assert public["ranking"] == ["Y", "R", "P", "G"]
    assert all(len(s["holder"]) == 5 for s in state["seats"]) and public["deck_count"] == 22
    resolved = _log_kinds(state, "round_resolved")[-1]
    assert resolved["winners"] == [d["winner"] for d in comparison["districts"]] and resolved["round"] == 1
    assert resolved["dracula"] == ["Y1", "Y3", "R4", "G5", "P6"] and resolved["lives"] == 9


def test_an_eight_is_discarded_only_onto_six_cards_and_ends_the_round_at_once():
    """Scenario 3."""
    state = deal_state(
        ["R1", "G2", "R3", "R4", "R5"], ["G4", "G5", "G6", "G7", "R8"], ["Y8", "P8"], ["Y1", "Y2", "Y3", "Y4", "Y5"]
    )
    state = act(state, D, "draw")
    assert ENGINE.legal_actions(state, D)[:-1] == [{"type": "replace", "slot": k} for k in range(1, 6)]
    with pytest.raises(IllegalAction):
        act(state, D, "discard")
    state = act(state, D, "replace", 2)
    assert state["public"]["deck_top"] == "P8" and state["public"]["discard"][-1] == "G2"
    assert "call_end" in types(state, V)
    state = act(state, V, "draw")
    assert state["public"]["drawn"] == "P8"
    state = act(state, V, "discard")
    assert _log_kinds(state, "round_ended")[-1]["reason"] == "eight"
    comparison = state["public"]["comparisons"][0]
    assert [d["winner"][0] for d in comparison["districts"]] == ["v", "d", "v", "v", "v"]
    assert state["public"]["lives"] == 8 and state["public"]["vampires"] == [0, 1, 0, 0, 0]
    assert state["public"]["round"] == 2 and ENGINE.awaiting(state) == {D}


def test_call_end_gives_the_opponent_a_final_turn_with_extra_turns():
    """Scenario 4."""
    state = deal_state(
        ["R1", "R3", "R4", "R5", "R6"],
        ["G1", "G3", "G4", "G5", "G6"],
        ["R2", "G2", "P5", "P3"],
        ["Y1", "Y2", "Y3", "Y4", "Y5"],
    )
    assert "call_end" not in types(state, D)
    state = play(state, (D, "draw"), (D, "discard"))
    assert state["public"]["deck_top"] == "G2"
    state = play(state, (V, "draw"), (V, "discard"))
    assert state["public"]["deck_top"] == "P5"
    state = act(state, D, "call_end")
    assert ENGINE.awaiting(state) == {V} and "call_end" not in types(state, V)
    state = play(state, (V, "draw"), (V, "discard"))
    assert ENGINE.awaiting(state) == {V} and "call_end" not in types(state, V)
    state = play(state, (V, "draw"), (V, "discard"))
    assert ENGINE.legal_actions(state, V)[:-1] == [{"type": "reveal_opponent", "slot": k} for k in range(1, 6)]
    state = act(state, V, "reveal_opponent", 1)
    assert _log_kinds(state, "revealed_opponent")[-1]["card"] == "R1"
    assert _log_kinds(state, "round_ended")[-1]["reason"] == "call"
    assert state["public"]["vampires"] == [1] * 5 and state["public"]["lives"] == 12


def test_effect_two_shows_the_top_and_the_known_card_enters_revealed():
    """Scenario 5."""
    state = deal_state(["R1", "R2", "R3", "R4", "R5"], ["G1", "G3", "G2", "G4", "G5"], ["P2", "R7", "Y7"])
    state = play(state, (D, "draw"), (D, "discard"))
    assert state["public"]["deck_top"] == "R7"
    state = act(state, V, "draw")
    assert ENGINE.view(state, D)["drawn"]["card"] == "R7"
    state = act(state, V, "replace", 3)
    assert state["seats"][V]["holder"][2] == "R7" and state["public"]["revealed"][V][2] == "R7"
    assert rack_cards(ENGINE.view(state, D), "van_helsing")[2] == "R7"
    assert state["public"]["discard"][-1] == "G2" and state["public"]["deck_top"] == "Y7"


def test_effect_four_swaps_own_cards_keeping_their_status():
    """Scenario 6."""
    state = deal_state(["G6", "R2", "R3", "Y2", "R5"], ["G1", "G3", "G4", "G5", "G7"], ["R1", "G2", "P4"])
    state = play(state, (D, "draw"), (D, "discard"), (D, "reveal_own", 1))
    assert state["public"]["revealed"][D][0] == "G6"
    state = play(state, (V, "draw"), (V, "discard"))
    assert state["public"]["deck_top"] == "P4"
    state = play(state, (D, "draw"), (D, "discard"), (D, "swap_own", 1, 4))
    assert state["seats"][D]["holder"][3] == "G6" and state["public"]["revealed"][D][3] == "G6"
    assert state["seats"][D]["holder"][0] == "Y2" and state["public"]["revealed"][D][0] is None
    helsing = ENGINE.view(state, V)["racks"]["dracula"]
    assert helsing[0]["back"] and helsing[3]["card"] == "G6"


def test_effect_six_swaps_a_district_keeping_status_and_tells_each_side():
    """Scenario 7."""
    state = deal_state(["R2", "Y7", "R3", "R4", "R5"], ["G1", "P3", "G3", "G4", "G5"], ["R1", "R6"])
    state = play(state, (D, "draw"), (D, "discard"), (D, "reveal_own", 2))
    state = play(state, (V, "draw"), (V, "discard"), (V, "swap_district", 2))
    assert state["seats"][V]["holder"][1] == "Y7" and state["public"]["revealed"][V][1] == "Y7"
    assert state["seats"][D]["holder"][1] == "P3" and state["public"]["revealed"][D][1] is None
    assert rack_cards(ENGINE.view(state, D), "dracula")[1] == "P3"
    helsing = ENGINE.view(state, V)
    gave = [e for e in helsing["log"] if e["kind"] == "gave_card"]
    assert gave == [{"to": [V], "kind": "gave_card", "seat": V, "district": 2, "gave": "P3", "received": "Y7"}]
    spectator = ENGINE.view(state, None)
    assert spectator["racks"]["dracula"][1]["back"]
    assert "P3" not in json.dumps(spectator)


def test_effect_seven_changes_trump_and_the_old_trump_takes_its_place():
    """Scenario 8."""
    state = deal_state(
        ["G1", "Y5", "R3", "R4", "R1"],
        ["Y8", "P5", "G3", "G4", "G2"],
        ["R7", "Y2"],
        ["P1", "P2", "P3", "P4", "P6", "P8"],
    )
    state = play(state, (D, "draw"), (D, "discard"))
    assert [a["colour"] for a in ENGINE.legal_actions(state, D)[:-1]] == ["R", "P", "G"]
    state = act(state, D, "trump", "G")
    assert state["public"]["ranking"] == ["G", "R", "P", "Y"]
    state = play(state, (V, "call_end"), (D, "draw"), (D, "discard"))
    comparison = state["public"]["comparisons"][0]
    assert [d["winner"][0] for d in comparison["districts"]] == ["d", "v", "v", "v", "v"]
    assert state["public"]["vampires"] == [1, 0, 0, 0, 0] and state["public"]["lives"] == 8


def test_effects_without_a_target_are_skipped_and_single_targets_applied_at_once():
    """Scenario 9."""
    state = deal_state(
        ["R2", "R3", "R4", "R5", "R6"],
        ["G2", "G3", "G4", "G5", "G6"],
        ["R1", "P3", "Y3"],
        revealed={"dracula": [1, 2, 3, 4, 5], "van_helsing": [1, 2, 3, 4]},
    )
    state = play(state, (D, "draw"), (D, "discard"))
    assert ENGINE.awaiting(state) == {V} and _log_kinds(state, "effect_skipped")[-1]["value"] == 1
    state = play(state, (V, "draw"), (V, "discard"))
    assert ENGINE.awaiting(state) == {D} and _log_kinds(state, "effect_skipped")[-1]["value"] == 3
    state = play(state, (D, "draw"), (D, "discard"))
    assert ENGINE.awaiting(state) == {V} and state["public"]["phase"] == "turn_start"
    assert state["public"]["revealed"][V][4] == "G6"


def test_an_empty_deck_ends_the_round_even_before_an_extra_turn():
    """Scenario 10."""
    cards = (["R1", "R2", "R3", "R4", "R6"], ["G1", "G2", "G3", "G4", "G6"])
    state = deal_state(*cards, ["P5"], rest="discard")
    state = play(state, (D, "draw"), (D, "discard"))
    assert _log_kinds(state, "round_ended")[-1]["reason"] == "deck_empty"
    assert state["public"]["vampires"] == [1] * 5 and state["public"]["round"] == 2
    variant = deal_state(*cards, ["P2"], rest="discard")
    variant = play(variant, (D, "draw"), (D, "discard"))
    assert _log_kinds(variant, "effect_skipped")[-1]["value"] == 2
    assert _log_kinds(variant, "round_ended")[-1]["reason"] == "deck_empty"
    assert variant["public"]["vampires"] == [1] * 5


def _scenario_11():
    return deal_state(["R1", "P4", "R3", "R5", "R6"], ["G1", "G2", "G3", "G5", "G6"], ["G4"], revealed={"dracula": [2]})


def test_a_hidden_card_placed_into_a_revealed_slot_is_hidden():
    """Scenario 11."""
    state = act(_scenario_11(), D, "draw")
    assert "G4" in json.dumps(ENGINE.view(state, D)) and "G4" not in json.dumps(ENGINE.view(state, V))
    state = act(state, D, "replace", 2)
    assert state["public"]["discard"][-1] == "P4"
    state = act(state, D, "swap_own", 4, 5)
    assert state["seats"][D]["holder"][1] == "G4" and state["public"]["revealed"][D][1] is None
    assert ENGINE.view(state, V)["racks"]["dracula"][1]["back"]


def test_dracula_wins_at_once_when_a_district_holds_four_vampires():
    """Scenario 12."""
    state = deal_state(
        ["R2", "Y1", "P7", "G1", "G2"],
        ["R5", "G8", "P6", "Y8", "Y7"],
        ["P2"],
        ["R1", "R3", "R4", "R6", "R7", "R8"],
        vampires=[0, 0, 3, 0, 0],
    )
    state = quick_round(state)
    public = state["public"]
    assert [d["winner"][0] for d in public["comparisons"][0]["districts"]] == ["v", "d", "d"]
    assert public["vampires"] == [0, 1, 4, 0, 0] and public["lives"] == 11
    assert ENGINE.result(state).winners == [D] and ENGINE.awaiting(state) == set()
    assert public["winner"] == "dracula" and public["win_reason"] == "vampires"


def _scenario_13(**extra):
    return deal_state(
        ["R1", "Y3", "R2", "Y7", "Y8"],
        ["R5", "G4", "R6", "G1", "G2"],
        ["P2"],
        ["P1", "P3", "P4", "P5", "P6", "P7"],
        **extra,
    )


def test_van_helsing_wins_at_once_when_lives_reach_zero():
    """Scenario 13."""
    state = quick_round(_scenario_13(lives=2))
    public = state["public"]
    assert [d["winner"][0] for d in public["comparisons"][0]["districts"]] == ["v", "d", "v"]
    assert public["lives"] == 0 and public["vampires"] == [0, 1, 0, 0, 0]
    assert ENGINE.result(state).winners == [V] and ENGINE.awaiting(state) == set()


def test_dracula_wins_by_surviving_round_five():
    """Scenario 14."""
    state = deal_state(
        ["R1", "R2", "R3", "R4", "R5"],
        ["Y1", "Y2", "G1", "G2", "G3"],
        ["P2"],
        ["P1", "P3", "P4", "P5", "P6", "P7"],
        round=5,
        lives=3,
    )
    state = quick_round(state)
    public = state["public"]
    assert [d["winner"][0] for d in public["comparisons"][0]["districts"]] == ["v", "v", "d", "d", "d"]
    assert public["lives"] == 1 and public["vampires"] == [0, 0, 1, 1, 1]
    assert ENGINE.result(state).winners == [D] and public["win_reason"] == "survived"


def test_the_next_round_deals_the_next_round_entry():
    """Scenario 15."""
    second = {"dracula": ["P1", "P2", "P3", "P4", "P5"], "van_helsing": ["G1", "G2", "G3", "G4", "G5"]}
    state = deal_state(
        ["Y1", "Y3", "R4", "G5", "P6"],
        ["R8", "Y6", "G7", "R5", "G6"],
        ["P2"],
        ["R1", "R2", "R3", "G1", "G2", "G3"],
        more_rounds=[second],
    )
    state = quick_round(state)
    assert state["seats"][D]["holder"] == second["dracula"] and state["seats"][V]["holder"] == second["van_helsing"]
    used = set(second["dracula"] + second["van_helsing"])
    assert state["hidden"]["deck"] == [c for c in ALL_CARDS if c not in used]
    assert state["public"]["deck_count"] == 22


def test_eleven_lives_option():
    """Scenario 16."""
    state = ENGINE.setup(2, {"dracula_seat": 0, "starting_lives": 11}, 3)
    assert state["public"]["lives"] == 11
    state = quick_round(_scenario_13(lives=1, starting_lives=11))
    assert state["public"]["lives"] == 0 and len(state["public"]["comparisons"][0]["districts"]) == 1
    assert ENGINE.result(state).winners == [V]


def test_views_hide_the_drawn_card_and_the_deck():
    """Scenario 17."""
    state = act(_scenario_11(), D, "draw")
    assert ENGINE.view(state, D)["drawn"]["card"] == "G4"
    assert "G4" not in json.dumps(ENGINE.view(state, V)) and "G4" not in json.dumps(ENGINE.view(state, None))
    state = act(state, D, "replace", 2)
    helsing = ENGINE.view(state, V)
    assert helsing["racks"]["dracula"][1]["back"] and helsing["discard"][-1] == "P4"
    before_the_draw = _scenario_11()
    for s in (before_the_draw, act(before_the_draw, D, "draw"), state):
        unseen = [c for c in s["hidden"]["deck"] if c != s["public"]["deck_top"]]
        for seat in (D, V, None):
            text = json.dumps(ENGINE.view(s, seat))
            assert not [c for c in unseen if f'"{c}"' in text], "a deck card appears in a view"


def test_timeouts_play_the_auto_moves():
    """Scenario 18."""
    state = deal_state(
        ["R3", "R2", "R4", "R5", "R6"],
        ["G1", "G2", "G3", "G5", "G6"],
        ["Y8", "P4"],
        ["Y1", "Y2", "Y3", "Y4", "Y5"],
    )
    state = act(state, D, "timeout")
    assert state["seats"][D]["drawn"] == "Y8"
    state = act(state, D, "timeout")
    assert state["seats"][D]["holder"][0] == "Y8" and state["public"]["discard"][-1] == "R3"
    assert state["public"]["phase"] == "reveal_opponent"
    state = act(state, D, "timeout")
    assert state["public"]["revealed"][V][0] == "G1"
    state = act(state, V, "timeout")
    assert state["seats"][V]["drawn"] == "P4"
    state = act(state, V, "timeout")
    assert state["public"]["discard"][-1] == "P4" and state["public"]["phase"] == "swap_own"
    state = act(state, V, "timeout")
    assert state["seats"][V]["holder"][:2] == ["G2", "G1"] and state["public"]["revealed"][V][:2] == [None, "G1"]
    assert len(state["public"]["discard"]) == 7 and "call_end" in types(state, D)
    state = act(state, D, "timeout")
    assert state["public"]["phase"] == "placing" and state["public"]["end_called_by"] is None
    assert len(_log_kinds(state, "auto_move")) == 7


def test_illegal_actions_are_refused_and_change_nothing():
    """Scenario 19."""
    five = deal_state(
        ["R1", "R3", "R4", "R5", "R6"], ["G1", "G3", "G4", "G5", "G6"], ["R2", "G2"], ["Y1", "Y2", "Y3", "Y4", "Y5"]
    )
    six = deal_state(
        ["R1", "R3", "R4", "R5", "R6"],
        ["G1", "G3", "G4", "G5", "G6"],
        ["R2", "G2"],
        ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"],
    )
    called = act(six, D, "call_end")
    drawn = act(six, D, "draw")
    trump = play(
        deal_state(["G1", "Y5", "R3", "R4", "R1"], ["Y8", "P5", "G3", "G4", "G2"], ["R7"]), (D, "draw"), (D, "discard")
    )
    swap = play(
        deal_state(["G1", "Y5", "R3", "R4", "R1"], ["Y8", "P5", "G3", "G7", "G2"], ["P4"]), (D, "draw"), (D, "discard")
    )
    cases = [
        (five, D, {"type": "call_end"}),
        (called, V, {"type": "call_end"}),
        (drawn, D, {"type": "replace", "slot": 6}),
        (trump, D, {"type": "trump", "colour": "Y"}),
        (swap, D, {"type": "swap_own", "slots": [2, 2]}),
        (six, V, {"type": "draw"}),
        (drawn, V, {"type": "discard"}),
    ]
    for state, seat, action in cases:
        before = json.dumps(state, sort_keys=True)
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, seat, action)
        assert json.dumps(state, sort_keys=True) == before


def test_the_end_may_be_called_during_an_extra_turn():
    """Scenario 20."""
    state = deal_state(
        ["R1", "R2", "R3", "R4", "R6"],
        ["G1", "G2", "G3", "G4", "G6"],
        ["P5", "P2"],
        ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"],
    )
    state = play(state, (D, "draw"), (D, "discard"))
    assert ENGINE.awaiting(state) == {D} and "call_end" in types(state, D)
    state = play(state, (D, "call_end"), (V, "draw"), (V, "discard"))
    assert _log_kinds(state, "round_ended")[-1]["reason"] == "call"
    assert state["public"]["vampires"] == [1] * 5
