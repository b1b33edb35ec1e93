"""The engine's own rulings (module docstring R1–R7) and the clock rules of spec §13."""

from __future__ import annotations

import pytest

from games.mummy import guests as g
from tests.games.mummy.helpers import ENGINE, Table, deal


def test_a_window_choice_leaves_only_timeout_and_does_not_restart_the_clock():
    t = Table("M6", 4).invite(4, 2).accept(2)
    before = t.state
    t.join(1)
    assert t.legal(1) == [{"type": "timeout"}]
    assert t.awaiting == set(range(6))
    assert not ENGINE.opens_new_window(before, t.state)
    assert ENGINE.time_limit(t.state, 1, ENGINE.timers) == 8
    before = t.state
    t.close()
    assert ENGINE.opens_new_window(before, t.state)
    assert ENGINE.time_limit(t.state, 0, ENGINE.timers) == 10


def test_every_step_has_its_own_clock():
    t = Table("M5", 0)
    assert ENGINE.time_limit(t.state, 0, ENGINE.timers) == 90
    before = t.state
    t.act(0, "inquire")
    assert ENGINE.opens_new_window(before, t.state)
    assert ENGINE.time_limit(t.state, 0, ENGINE.timers) == 60
    t = Table("M5", 0).invite(0, 1)
    assert ENGINE.time_limit(t.state, 1, ENGINE.timers) == 30
    t = Table("M5", 1).accuse(1)
    before = t.state
    t.name(1, "ANUBIS")
    assert ENGINE.opens_new_window(before, t.state)
    assert ENGINE.time_limit(t.state, 1, {"accuse_s": 45}) == 45


def test_timeouts_at_target_and_flip_take_the_first_choice():
    t = Table("M5", 0).accuse(0).timeout(0)
    assert t.last("accusation")["seats"] == [1] and t.last("accusation")["names"] == ["MUMMY"]
    assert t.result_counts() == (1, 0)
    t = Table("M5", 0).invite(0, 4).accept(4).close().close().anubis(4).close().timeout(4)
    assert t.public["mystery"][0] == {"face_up": True, "guest": "GARGOYLE"}


def test_lapsed_declaration_leaves_no_public_trace():
    """R4 (scenario 12 variant): the Cat Burglar's declaration against a revealed Anubis vanishes."""
    t = Table("M5", 4).invite(4, 2).accept(2).close().close()
    t.anubis(4).burgle(2, 4).close().flip(4, 0).names(
        4, (0, "ARCHEOLOGIST"), (1, "MUMMY"), (2, "SASQUATCH"), (3, "CAT_BURGLAR")
    )
    assert t.result_counts() == (2, 2)
    assert [e["seat"] for e in t.state["log"] if e["kind"] == "ability"] == [4]
    assert t.public["revealed"][2] is None and t.awaiting == {0}


def test_dorian_new_identity_has_no_ability_in_the_dance_of_the_swap():
    """§5.10: a Dorian who swapped into the Cat Burglar cannot burgle in that dance."""
    d = deal("M8", 0)
    d["mystery"] = ["CAT_BURGLAR"]
    d["guests"][7] = "ANUBIS"
    t = Table(d).invite(0, 4).accept(4).close().swap(4, 0).close()
    assert t.view(4)["me"]["guest"] == "CAT_BURGLAR"
    assert t.legal(4) == [{"type": "pass"}, {"type": "timeout"}]


def test_host_picks_guests_and_the_rest_is_drawn():
    """R2."""
    picks = {"guest_phantom": "in", "guest_cat_burglar": "in"}
    for seed in range(20):
        state = ENGINE.setup(5, picks, seed)
        assert {"PHANTOM", "CAT_BURGLAR", "MUMMY"} <= set(state["public"]["guests"])
        assert state["public"]["advanced"] is True
    too_many = {f"guest_{x.lower()}": "in" for x in g.CANONICAL[1:7]}
    with pytest.raises(ValueError, match="6 guests picked"):
        ENGINE.setup(4, too_many)


def test_first_player_option_and_its_fallback():
    """R3."""
    assert ENGINE.setup(6, {"first_player": 5}, 1)["public"]["active"] == 5
    state = ENGINE.setup(4, {"first_player": 6}, 1)
    assert 0 <= state["public"]["active"] < 4


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"guests": ["MUMMY"], "mystery": [], "first": 0}, "one guest for each"),
        ({"guests": deal("M5", 0)["guests"], "mystery": ["GARGOYLE"], "first": 0}, "2 mystery"),
        (
            {
                "guests": ["ARCHEOLOGIST", "GARGOYLE", "CAT_BURGLAR", "SASQUATCH", "ANUBIS"],
                "mystery": ["MUMMY", "SARCOPHAGUS"],
                "first": 0,
            },
            "never a mystery",
        ),
        ({**deal("M5", 0), "first": 5}, "first"),
        ({**deal("M5", 0), "extra": 1}, "exactly the keys"),
    ],
)
def test_bad_deals_are_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        ENGINE.setup(5, {"deal": bad})


def test_invitee_view_says_a_must_accept_guest_must_accept():
    t = Table("M5", 1).invite(1, 0)
    assert t.view(0)["me"]["must_accept"] is True
    t = Table("M5", 1).invite(1, 2)
    assert t.view(2)["me"]["must_accept"] is False
