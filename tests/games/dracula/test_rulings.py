"""The engine's own rulings (module docstring R1-R6), the explicit deal's checks, and secrecy."""

from __future__ import annotations

import json
import re

import pytest

from games.base import pick, rng_for
from tests.games.dracula.helpers import ENGINE, D, V, act, deal_state, play, quick_round, rack_cards
from tests.games.playout import random_move

HOLDERS = (["R1", "R2", "R3", "R4", "R5"], ["G1", "G2", "G3", "G4", "G5"])


@pytest.mark.parametrize(
    "deal",
    [
        {"rounds": [{"dracula": ["R1", "R2", "R3", "R4"], "van_helsing": HOLDERS[1]}]},
        {"rounds": [{"dracula": HOLDERS[0], "van_helsing": ["R1", "G2", "G3", "G4", "G5"]}]},
        {"rounds": [{"dracula": HOLDERS[0], "van_helsing": HOLDERS[1], "deck": ["R1"]}]},
        {"rounds": [{"dracula": HOLDERS[0], "van_helsing": HOLDERS[1], "rest": "hand"}]},
        {"rounds": [{"dracula": HOLDERS[0], "van_helsing": HOLDERS[1], "revealed": {"dracula": [6]}}]},
        {"rounds": [{"dracula": HOLDERS[0], "van_helsing": HOLDERS[1], "colour": "R"}]},
        {"rounds": [{"dracula": HOLDERS[0]}]},
        {"rounds": [{"dracula": ["X1", "R2", "R3", "R4", "R5"], "van_helsing": HOLDERS[1]}]},
        {"ranking": ["Y", "R", "P"]},
        {"ranking": ["Y", "R", "P", "P"]},
        {"lives": 0},
        {"lives": 13},
        {"vampires": [0, 0, 4, 0, 0]},
        {"vampires": [0, 0, 0, 0]},
        {"round": 6},
        {"trump": "Y"},
        "deal",
    ],
)
def test_a_malformed_deal_is_a_value_error(deal):
    with pytest.raises(ValueError):
        ENGINE.setup(2, {"deal": deal}, 0)


def test_options_take_only_their_listed_values():
    """R1."""
    for options in ({"starting_lives": 10}, {"dracula_seat": 2}, {"dracula_seat": True}, {"colour": "R"}):
        with pytest.raises(ValueError):
            ENGINE.setup(2, options, 0)
    assert {ENGINE.setup(2, {}, seed)["public"]["dracula"] for seed in range(12)} == {0, 1}
    assert ENGINE.setup(2, {"dracula_seat": 1}, 5)["public"]["dracula"] == 1
    assert ENGINE.setup(2, {"starting_lives": 11, "deal": {"lives": 4}}, 0)["public"]["lives"] == 4


def test_a_deal_with_an_empty_deck_ends_its_round_at_once():
    """R2: Dracula's first turn would start with an empty deck."""
    state = deal_state(*HOLDERS, [], rest="discard")
    assert state["public"]["round"] == 2 and state["public"]["vampires"] == [1] * 5
    assert state["public"]["comparisons"][0]["ended_by"] == "deck_empty"


def test_every_decision_restarts_the_clock():
    """R3 (§7): one limit per decision, even when the same seat decides again."""
    state = deal_state(*HOLDERS, ["R6", "P2"])
    after = act(state, D, "draw")
    assert ENGINE.opens_new_window(state, after)
    assert ENGINE.time_limit(after, D, ENGINE.timers) == 60.0
    assert ENGINE.time_limit(after, D, {"turn_s": 30}) == 30.0


def test_a_seat_remembers_the_card_it_gave_as_the_opponent_moves_it():
    """R4: effect 6 gives knowledge; effect 4 moves it; a replace ends it."""
    state = deal_state(["R2", "Y7", "R3", "R4", "R5"], ["G1", "P3", "G3", "G4", "G5"], ["R6", "P4", "Y1", "R7"])
    state = play(state, (D, "draw"), (D, "discard"), (D, "swap_district", 2))
    helsing = ENGINE.view(state, V)["racks"]["dracula"][1]
    assert helsing == {"slot": 2, "card": "P3", "revealed": False, "back": False, "remembered": True}
    assert ENGINE.view(state, None)["racks"]["dracula"][1]["back"]
    state = play(state, (V, "draw"), (V, "discard"), (V, "swap_own", 1, 2))  # V's own swap: no change for V
    assert rack_cards(ENGINE.view(state, V), "dracula")[1] == "P3"
    state = play(state, (D, "draw"), (D, "replace", 4))  # Y1 into slot 4; R4 discarded: swap_own
    state = act(state, D, "swap_own", 2, 5)
    assert rack_cards(ENGINE.view(state, V), "dracula") == [None, None, None, None, "P3"]
    state = play(state, (V, "draw"), (V, "discard"), (V, "trump", "G"))  # R7 discarded
    state = play(state, (D, "draw"), (D, "replace", 5))
    assert rack_cards(ENGINE.view(state, V), "dracula") == [None] * 5


def test_the_final_position_is_public_when_the_game_ends():
    """R5 and R6."""
    state = quick_round(
        deal_state(
            ["R2", "Y1", "P7", "G1", "G2"],
            ["R5", "G8", "P6", "Y8", "Y7"],
            ["P2"],
            ["R1", "R3", "R4", "R6", "R7", "R8"],
            vampires=[0, 0, 3, 0, 0],
        )
    )
    view = ENGINE.view(state, None)
    assert rack_cards(view, "dracula") == ["R2", "Y1", "P7", "G1", "G2"]
    result = ENGINE.result(state)
    assert result.seats[D] == {"side": "dracula", "role": "dracula", "score": 5}
    assert result.seats[V] == {"side": "van_helsing", "role": "van_helsing", "score": 1}
    assert "Dracula" in result.summary


def test_no_view_shows_a_hidden_holder_card_of_another_seat():
    """§6.2: a seat sees its own cards, revealed cards and the cards it gave; nothing else of the
    opponent's holder, and never the opponent's hidden drawn card (checked over round 1 of random games)."""
    for game in range(16):
        state = ENGINE.setup(2, {}, 1000 + game)
        while ENGINE.awaiting(state) and state["public"]["round"] == 1:
            public = state["public"]
            for seat in (0, 1, None):
                text = json.dumps(ENGINE.view(state, seat))
                shown = set(re.findall(r'"([RGYP][1-8])"', text))
                for owner in (0, 1):
                    if owner == seat:
                        continue
                    gave = {
                        e["gave"]
                        for e in state["log"]
                        if e["kind"] == "gave_card" and seat is not None and seat in e["to"]
                    }
                    secret = {
                        c
                        for k, c in enumerate(state["seats"][owner]["holder"])
                        if public["revealed"][owner][k] is None and c not in gave
                    }
                    drawn = state["seats"][owner]["drawn"]
                    if drawn and public["drawn"] is None:
                        secret.add(drawn)
                    assert not shown & secret, (game, state["step"], seat, shown & secret)
            seat, action = random_move(ENGINE, state, f"secrecy:{game}")
            state = ENGINE.apply(state, seat, action)


def test_the_bot_and_random_play_reach_the_end_from_any_option():
    for options in ({"starting_lives": 11}, {"dracula_seat": 1}):
        state = ENGINE.setup(2, options, 7)
        while ENGINE.awaiting(state):
            (seat,) = ENGINE.awaiting(state)
            state = ENGINE.apply(
                state, seat, pick(rng_for("end", state["step"]), ENGINE.legal_actions(state, seat)[:-1])
            )
        assert ENGINE.result(state).winners in ([0], [1])
