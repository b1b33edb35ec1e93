"""Our rulings where the spec is silent (engine docstring), scoring units, secrecy, clocks, views."""

from __future__ import annotations

import copy
import json

import pytest

from games.monster.scoring import engineer_points, teen_awards
from tests.games.monster.script import ENGINE, A, B, C, kinds, last, play, start

ROW3 = {"track": [0, 1, 2], "victims": [["V01", "V02", "V03"]]}


# -- scoring (§7.2, §7.3) -----------------------------------------------------------------------


def test_engineer_points_follow_the_pair_formula():
    """§7.3 and scenario 11's unit test: 0, -2, +6, +4, +12, +10 for 0..5 Engineers."""
    assert [engineer_points(e) for e in range(6)] == [0, -2, 6, 4, 12, 10]


def test_teen_awards_follow_the_spec_examples():
    """§7.2: A=3, B=1, C=1, D=0 -> 7, 3, 3, 0; A=3, B=3, C=1 -> 7, 7, 0; nobody with icons -> 0."""
    assert teen_awards([3, 1, 1, 0]) == [7, 3, 3, 0]
    assert teen_awards([3, 3, 1]) == [7, 7, 0]
    assert teen_awards([0, 0]) == [0, 0]
    assert teen_awards([2, 0, 0]) == [7, 0, 0]


# -- ruling 1: single monster picked automatically; an empty hand sits out -----------------------


def test_a_single_monster_left_is_picked_automatically():
    """Ruling 1: a seat holding one monster is not awaited; its card is revealed with the others."""
    state = start(3, {**ROW3, "hands": [[2], list(range(9)), list(range(9))]})
    assert ENGINE.awaiting(state) == {B, C}
    assert state["public"]["chosen"] == [True, False, False]
    state = play(state, "1 sel 8; 2 sel 7")
    assert state["public"]["revealed"] == [2, 8, 7]


def test_a_seat_with_an_empty_hand_sits_the_hand_out():
    """Ruling 1: an empty hand reveals nothing and does not hunt."""
    state = start(3, {**ROW3, "hands": [[], list(range(9)), list(range(9))]})
    assert ENGINE.awaiting(state) == {B, C}
    state = play(state, "1 sel 8; 2 sel 7")
    assert state["public"]["revealed"] == [None, 8, 7]
    assert kinds(state, "hunt_order")[0]["order"] == [B, C]


# -- ruling 2: a drain of a card without an ability left has no effect --------------------------


def test_vampire_drain_of_a_kaiju_has_no_effect():
    """Ruling 2 (§6.6): cancelling a Kaiju changes nothing and is logged with effect false."""
    state = play(start(3, ROW3), "0 sel 6; 1 sel 8; 2 sel 3")
    drain = last(state, "vampire_drains")
    assert (drain["target"], drain["monster"], drain["effect"]) == (B, 8, False)
    assert state["public"]["cancelled"] == [False, False, False]
    assert state["public"]["front"] == [C]  # the Kaiju still wakes the Mummy


# -- ruling 3: V1 tie winners --------------------------------------------------------------------


def test_front_mummies_tie_among_themselves_only():
    """Ruling 3: two front Mummies: the first won a tie; a strength-3 seat behind is no tie."""
    deal = {"track": [0, 1, 2, 3], "victims": [["V01", "V02", "V03", "V04"]]}
    state = play(start(4, deal, tiebreak_rotation="winner_to_bottom"), "0 sel 3; 1 sel 3; 2 sel 8; 3 sel 6")
    # D's Vampire drains A (its left neighbour): A's Mummy stays at 3 behind; B's rises.
    assert last(state, "hunt_order") == {"to": None, "kind": "hunt_order", "order": [B, C, 3, A], "ties": []}
    deal = {"track": [0, 1, 2], "victims": [["V01", "V02", "V03"]]}
    state = play(start(3, deal, tiebreak_rotation="winner_to_bottom"), "0 sel 3; 1 sel 3; 2 sel 8")
    assert last(state, "hunt_order")["ties"] == [[A, B]]
    state = play(state, "0 take V01; 1 take V02")
    assert kinds(state, "track_rotated")[0]["track"] == [1, 2, 0]


# -- ruling 4: the explicit deal is checked ------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "deal"),
    [
        (3, {"track": [0, 1]}),
        (3, {"track": [0, 1, 1]}),
        (3, {"victims": [["V01", "V01", "V02"]]}),
        (3, {"victims": [["V19", "V01", "V02"]]}),  # a 4-dot card with 3 players
        (3, {"victims": [["V01", "V02", "V03"]], "captured": [["V01"], [], []]}),
        (3, {"captured": [[], []]}),
        (3, {"hands": [[9], [], []]}),
        (3, {"hands": [[1, 1], [], []]}),
        (3, {"night": 4}),
        (3, {"night": 0}),
        (3, {"tokens": [0, 0, 0]}),
        (2, {"totals": [1, 2]}),
        (2, {"tokens": [2, 0]}),
        (3, {"colour": "red"}),
        (3, ["V01"]),
    ],
)
def test_a_bad_deal_is_a_value_error(n, deal):
    """Ruling 4 (§9.0): a deal with a bad key, seat list, id, hand, night, total or token."""
    with pytest.raises(ValueError):
        start(n, deal)


def test_without_a_first_deck_night_one_shuffles_what_is_not_captured():
    """Ruling 4: the shuffled first deck leaves out the dealt captured victims."""
    state = start(3, {"captured": [["V01"], ["V13"], []]})
    deck = state["public"]["table"] + state["hidden"]["deck"]
    assert len(deck) == 16 and "V01" not in deck and "V13" not in deck


def test_later_nights_use_the_later_dealt_decks():
    """§9.0: ``victims[i]`` is the i-th night's deck."""
    deal = {"track": [0, 1], "victims": [["V01", "V02"], ["V03", "V04", "V05", "V06"]]}
    state = play(start(2, deal), "0 sel 8; 1 sel 7; 0 take V01")
    assert state["public"]["night"] == 2 and state["public"]["table"] == ["V03", "V04"]
    assert state["hidden"]["deck"] == ["V05", "V06"]


# -- ruling 6: abilities on an empty hand --------------------------------------------------------


def test_werewolf_against_an_empty_hand_does_nothing():
    """Ruling 6: the Werewolf's target has no card left: logged with monster None."""
    state = start(3, {**ROW3, "hands": [[1], list(range(9)), list(range(9))]})
    state = play(state, "1 sel 5; 2 sel 8")
    assert last(state, "werewolf_mauls") == {
        "to": None,
        "kind": "werewolf_mauls",
        "seat": B,
        "target": A,
        "monster": None,
    }


# -- ruling 7 and the view -----------------------------------------------------------------------


def test_the_view_carries_what_the_table_shows():
    """The UI keys: my hand, everyone's played and captured cards, the row, the track, scores."""
    state = play(start(3, ROW3), "0 sel 8")
    view = ENGINE.view(state, A)
    assert view["me"] == {"seat": A, "hand": list(range(9)), "selection": 8, "chosen": True}
    assert view["phase"] == "select" and view["my_turn"] is False
    assert [p["chosen"] for p in view["players"]] == [True, False, False]
    assert [c["id"] for c in view["table_cards"]] == ["V01", "V02", "V03"]
    assert view["track"] == [0, 1, 2] and view["night"] == 1 and view["hand"] == 1
    assert view["hands_per_night"] == 6 and view["nights"] == 3
    assert ENGINE.view(state, None)["me"] is None
    state = play(state, "1 sel 7; 2 sel 6; 0 take V01; 1 take V02")
    view = ENGINE.view(state, B)
    assert view["night_scores"][0]["scores"][A]["total"] == 9
    assert view["players"][A]["total"] == 9


def test_the_view_log_holds_the_current_night_only():
    """Ruling 7: the view's log starts at the current night's ``night_started``."""
    state = play(start(3, ROW3), "0 sel 8; 1 sel 7; 2 sel 6; 0 take V01; 1 take V02")
    log = ENGINE.view(state, A)["log"]
    assert log[0] == {"to": None, "kind": "night_started", "night": 2, "deck_size": 18}
    assert len(kinds(state, "night_started")) == 2


# -- secrecy -------------------------------------------------------------------------------------


def test_no_log_entry_or_other_view_names_a_pending_pick():
    """§13.2: before the reveal a pick lives in its seat's slot only, even after a timeout."""
    state = play(start(3, ROW3), "0 sel 8; 1 timeout")
    public_text = json.dumps([state["public"], state["log"]])
    assert '"monster"' not in public_text and "selection" not in public_text
    for viewer in (None, C):
        other = copy.deepcopy(state)
        other["seats"][A]["selection"] = 2
        other["seats"][B]["selection"] = 5
        assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)
    assert ENGINE.view(state, B)["me"]["selection"] == 0


# -- clocks (§16) --------------------------------------------------------------------------------


def test_selection_has_sixty_seconds_and_other_decisions_thirty():
    """§16: 60 s for the pick from the hand's start; 30 s for each other decision."""
    timers = ENGINE.timers
    state = start(3, ROW3)
    assert ENGINE.time_limit(state, A, timers) == 60
    picked = play(state, "0 sel 4")
    assert not ENGINE.opens_new_window(state, picked)  # the hand's one window goes on
    hunting = play(picked, "1 sel 1; 2 sel 2")
    assert ENGINE.time_limit(hunting, A, timers) == 30
    assert ENGINE.awaiting(hunting) == {A}
    second = play(hunting, "0 take V01")
    assert ENGINE.awaiting(second) == {A}  # the Invader's second take: the same seat, a new clock
    assert ENGINE.opens_new_window(hunting, second)


# -- result --------------------------------------------------------------------------------------


def test_two_player_result_scores_night_tokens():
    """§10: the match result lists night tokens as scores."""
    deal = {"night": 2, "tokens": [1, 0], "track": [0, 1], "victims": [["V02", "V07"]]}
    state = play(start(2, deal), "0 sel 8; 1 sel 7; 0 take V02")
    result = ENGINE.result(state)
    assert result is not None
    assert result.winners == [A] and [s["score"] for s in result.seats] == [2, 0]
    assert "2-0" in result.summary
