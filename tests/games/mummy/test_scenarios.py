"""The spec's test scenarios (shared/rules/night-of-the-mummy.md §11.1), one function each."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

from games.base import IllegalAction, OptionsRefused
from games.mummy import guests as g
from tests.games.mummy.helpers import ENGINE, PASS_ONLY, Table, deal
from tests.games.playout import canonical, scrambled_for


def _hiders(names: list[str]) -> int:
    return sum(1 for x in names if x in g.HIDERS)


def test_setup_sizes_mummy_placement_and_constraints():
    """Scenario 1."""
    for n, (total, mystery) in g.SIZES.items():
        for seed in range(200):
            state = ENGINE.setup(n, {"advanced_guests": True}, seed)
            seat_guests = [s["guest"] for s in state["seats"]]
            hidden = state["hidden"]["mystery"]
            assert len(state["public"]["guests"]) == total and len(hidden) == mystery
            assert g.MUMMY in seat_guests and g.MUMMY not in hidden
            everyone = seat_guests + hidden
            assert _hiders(everyone) >= 2
            if {g.CAT_BURGLAR, g.MAGIC_MIRROR} & set(everyone):
                assert _hiders(everyone) >= 3
    # A 7-player guest list of basic guests only cannot exist.
    with pytest.raises(ValueError, match="twice"):
        ENGINE.setup(7, {"deal": {"guests": list(g.BASIC), "mystery": ["GARGOYLE"], "first": 0}})

    def picked(*names: str) -> dict[str, str]:
        return {f"guest_{x.lower()}": "in" for x in names}

    state = ENGINE.setup(4, picked("SASQUATCH", "CAT_BURGLAR", "ARCHEOLOGIST", "GARGOYLE", "ANUBIS"))
    assert state["public"]["guests"] == ["MUMMY", "ARCHEOLOGIST", "CAT_BURGLAR", "SASQUATCH", "GARGOYLE", "ANUBIS"]
    state = ENGINE.setup(4, picked("SASQUATCH", "CAT_BURGLAR", "ARCHEOLOGIST", "GARGOYLE", "SARCOPHAGUS"))
    assert g.SARCOPHAGUS in state["public"]["guests"]
    with pytest.raises(ValueError, match="3 hiders"):
        ENGINE.setup(
            4,
            {"advanced_guests": True, **picked("SASQUATCH", "CAT_BURGLAR", "ARCHEOLOGIST", "GARGOYLE", "MAGIC_MIRROR")},
        )


def test_seven_or_eight_players_with_advanced_guests_off_raise_value_error():
    """Scenario 1: "N = 7 or 8 with advanced off -> ValueError" (§2.3 V2: the table cannot start),
    whatever else the host picked (R1)."""
    for n in (7, 8):
        for options in ({"advanced_guests": False}, {}, {"advanced_guests": False, "guest_phantom": "in"}):
            with pytest.raises(OptionsRefused, match="needs the advanced guests") as refused:
                ENGINE.setup(n, options, 3)
            assert isinstance(refused.value, ValueError) and refused.value.params == {"players": n}
            assert refused.value.fix == {"advanced_guests": True}, "the remedy the form offers (R1)"
        state = ENGINE.setup(n, {"advanced_guests": True}, 3)
        assert set(state["public"]["guests"]) & set(g.ADVANCED)
    for n in (4, 5, 6):
        assert not set(ENGINE.setup(n, {"advanced_guests": False}, 3)["public"]["guests"]) & set(g.ADVANCED)


def test_inquiry_is_answered_truthfully_and_privately():
    """Scenario 2."""
    t = Table("M5", 0).inquire(0, 3, "SASQUATCH")
    assert t.answers(0) == ["YES"]
    assert t.view(3)["answers_given"] == [{"asker": 0, "target": 3, "guest": "SASQUATCH", "answer": "YES"}]
    for seat in (1, 2, 4, None):
        view = t.view(seat)
        assert view["answers_received"] == [] and view["answers_given"] == []
        assert '"answer"' not in json.dumps(view)
        assert t.last("inquiry") == {"to": None, "kind": "inquiry", "asker": 0, "target": 3, "guest": "SASQUATCH"}
    assert t.window() is None and t.awaiting == {1}


def test_mummy_always_answers_no_to_inquiries_but_truthfully_to_accusations():
    """Scenario 3."""
    t = Table("M5", 0).inquire(0, 1, "MUMMY")
    assert t.answers(0) == ["NO"]
    t.inquire(1, 0, "ARCHEOLOGIST")
    assert t.answers(1) == ["YES"]
    t.accuse(2).names(2, (3, "SASQUATCH"), (4, "ANUBIS"), (0, "ARCHEOLOGIST"), (1, "MUMMY"))
    assert t.result_counts() == (4, 0)
    assert ENGINE.result(t.state).winners == [2]


def test_sarcophagus_always_answers_yes_and_names_come_from_the_candidate_pool():
    """Scenario 4."""
    t = Table("M6", 0).inquire(0, 3, "ANUBIS")
    assert t.answers(0) == ["YES"]
    t.accuse(1).names(1, (2, "SASQUATCH"), (3, "ANUBIS"), (4, "MUMMY"), (5, "SARCOPHAGUS"), (0, "ARCHEOLOGIST"))
    assert t.result_counts() == (3, 2)
    assert t.public["revealed"][1] == "GARGOYLE"
    t.accuse(2)
    offered = {a["guest"] for a in t.legal(2) if a["type"] == "name"}
    assert offered == {"ARCHEOLOGIST", "SARCOPHAGUS", "MUMMY", "ANUBIS", "CAT_BURGLAR"}
    t.names(2, (3, "SARCOPHAGUS"), (4, "MUMMY"), (5, "ANUBIS"), (0, "ARCHEOLOGIST"))
    assert t.result_counts() == (4, 0)
    assert ENGINE.result(t.state).winners == [2]


def test_decline_turns_into_an_inquiry_of_someone_else():
    """Scenario 5."""
    t = Table("M5", 1).invite(1, 2).decline(2)
    assert t.last("invite_answer") == {"to": None, "kind": "invite_answer", "invitee": 2, "accepted": False}
    with pytest.raises(IllegalAction):
        t.ask(1, 2, "ANUBIS")
    t.ask(1, 4, "ANUBIS")
    assert t.answers(1) == ["YES"] and t.awaiting == {2}

    t = Table("M5", 0).accuse(0).target(0, 3)
    assert t.result_counts() == (0, 1) and t.public["revealed"][0] == "ARCHEOLOGIST"
    t.skip(1).skip(2).accuse(3).names(3, (4, "MUMMY"), (1, "ANUBIS"), (2, "CAT_BURGLAR"))
    assert t.result_counts() == (1, 2)
    t.accuse(4).names(4, (1, "CAT_BURGLAR"), (2, "MUMMY"))
    assert t.result_counts() == (0, 2)
    t.skip(0).invite(1, 2).decline(2)
    assert t.last("no_target")["seat"] == 1
    assert t.awaiting == {2} and t.public["phase"] == "kind"


def test_must_accept_guests_get_the_same_prompt_and_always_accept():
    """Scenario 6."""
    t = Table("M6", 4).invite(4, 3)
    assert t.legal(3) == [{"type": "accept"}, {"type": "decline"}, {"type": "timeout"}]
    assert t.view(3)["me"]["must_accept"] is True
    t.decline(3)
    assert t.last("invite_answer")["accepted"] is True
    t.close().close().close()
    assert t.awaiting == {5}

    t = Table("M5", 2).invite(2, 0).timeout(0)
    assert t.last("invite_answer")["accepted"] is True


def test_basic_dance_views_and_uniform_window_options():
    """Scenario 7."""
    t = Table("M5", 0).invite(0, 1).accept(1)
    for kind in ("join", "in_dance", "post_dance"):
        assert t.window() == kind
        for seat in range(5):
            assert t.legal(seat) == PASS_ONLY
        t.close()
    assert t.saw(0) == {1: None}
    assert t.saw(1) == {0: "ARCHEOLOGIST"}
    for seat in (2, 3, 4):
        assert t.view(seat)["dances"] == []
        assert t.last("invite_answer") == {"to": None, "kind": "invite_answer", "invitee": 1, "accepted": True}
    assert t.awaiting == {1}


def test_sasquatch_shows_next_to_a_neighbour_and_peeks():
    """Scenario 8."""
    t = Table("M5", 2).invite(2, 3).accept(3).close()
    assert t.saw(2) == {3: "SASQUATCH"}
    assert t.view(3)["dances"][-1]["face"] == "shown"
    assert t.window() == "in_dance"
    assert {"type": "peek", "slot": 1} in t.legal(3)
    t.peek(3, 1).close()
    assert t.view(3)["mystery"][1]["known"] == "SARCOPHAGUS"
    assert t.view(2)["dances"][-1]["events"] == [{"kind": "peeked", "seat": 3}]
    for seat in (0, 1, 4):
        assert t.view(seat)["dances"] == [] and t.view(seat)["mystery"][1]["known"] is None
    assert t.window() == "post_dance" and t.legal(2) == PASS_ONLY
    t.close()
    assert t.awaiting == {3}

    t = Table("M5", 0).invite(0, 3).accept(3).close()
    assert t.saw(0) == {3: None}
    assert t.view(3)["dances"][-1]["face"] == "hidden"
    assert t.window() == "in_dance" and t.legal(3) == PASS_ONLY


def test_gargoyle_joins_and_makes_sasquatch_show():
    """Scenario 9."""
    t = Table("M6", 4).invite(4, 2).accept(2)
    assert t.legal(1) == [{"type": "pass"}, {"type": "join"}, {"type": "timeout"}]
    t.join(1).close()
    assert t.saw(4) == {2: "SASQUATCH", 1: "GARGOYLE"}
    assert t.saw(2) == {4: None, 1: "GARGOYLE"}
    assert t.saw(1) == {4: None, 2: "SASQUATCH"}
    t.peek(2, 0).close()
    assert t.view(2)["mystery"][0]["known"] == "CAT_BURGLAR"
    t.close()
    assert t.awaiting == {5}
    for seat in (0, 3, 5):
        assert t.view(seat)["dances"] == []

    t = Table("M6", 1).accuse(1)
    t.names(1, (2, "ARCHEOLOGIST"), (3, "SASQUATCH"), (4, "SARCOPHAGUS"), (5, "MUMMY"), (0, "ANUBIS"))
    assert t.result_counts() == (0, 5)
    t.skip(2).skip(3).invite(4, 2).accept(2)
    assert t.window() == "in_dance"  # no JOIN window: the Gargoyle is revealed
    assert t.view(2)["dances"][-1]["face"] == "hidden"
    assert t.legal(2) == PASS_ONLY
    t.close().close()
    assert t.awaiting == {5}


def test_cat_burglar_accuses_a_partner_who_hid_and_wins():
    """Scenario 10."""
    t = Table("M5", 1).invite(1, 2).accept(2).close().close()
    assert t.legal(2) == [{"type": "pass"}, {"type": "burgle", "target": 1}, {"type": "timeout"}]
    t.burgle(2, 1).close()
    assert t.public["revealed"][2] == "CAT_BURGLAR"
    assert t.awaiting == {2} and t.public["phase"] == "name"
    t.name(2, "MUMMY")
    assert t.result_counts() == (1, 0)
    assert ENGINE.result(t.state).winners == [2]


def test_anubis_flips_a_mystery_guest_then_accuses_everyone():
    """Scenario 11."""
    t = Table("M5", 0).invite(0, 4).accept(4).close().close()
    assert t.legal(4) == [{"type": "pass"}, {"type": "anubis"}, {"type": "timeout"}]
    t.anubis(4).close()
    assert t.public["revealed"][4] == "ANUBIS"
    t.flip(4, 0)
    assert t.view(None)["mystery"][0] == {"slot": 0, "face_up": True, "guest": "GARGOYLE", "known": None}
    assert "GARGOYLE" not in {a["guest"] for a in t.legal(4) if a["type"] == "name"}
    t.names(4, (0, "ARCHEOLOGIST"), (1, "MUMMY"), (2, "CAT_BURGLAR"), (3, "SASQUATCH"))
    assert ENGINE.result(t.state).winners == [4]

    t = Table("M5", 1).invite(1, 4).accept(4).close().close()
    assert t.window() == "post_dance" and t.legal(4) == PASS_ONLY


def test_declared_abilities_resolve_in_priority_order_from_the_active_player():
    """Scenario 12."""
    t = Table("M5", 2).invite(2, 4).accept(4).close().close()
    t.burgle(2, 4).anubis(4).close()
    assert t.public["revealed"][2] == "CAT_BURGLAR" and t.public["revealed"][4] is None
    t.name(2, "MUMMY")
    assert t.result_counts() == (0, 1)
    assert t.public["revealed"][4] == "ANUBIS" and t.awaiting == {4} and t.public["phase"] == "flip"
    t.flip(4, 1)
    assert t.public["mystery"][1] == {"face_up": True, "guest": "SARCOPHAGUS"}
    t.names(4, (0, "ARCHEOLOGIST"), (1, "MUMMY"), (3, "SASQUATCH"))
    assert t.result_counts() == (3, 0)
    assert ENGINE.result(t.state).winners == [4]

    t = Table("M5", 4).invite(4, 2).accept(2).close().close()
    t.anubis(4).burgle(2, 4).close()
    t.flip(4, 0).names(4, (0, "ARCHEOLOGIST"), (1, "MUMMY"), (2, "CAT_BURGLAR"), (3, "SASQUATCH"))
    assert ENGINE.result(t.state).winners == [4]
    assert t.public["revealed"][2] is None


def test_magic_mirror_makes_partners_show_and_cannot_invite():
    """Scenario 13."""
    t = Table("M8", 1).invite(1, 2).accept(2).close()
    assert t.saw(2) == {1: "SARCOPHAGUS"}
    assert t.saw(1) == {2: "MAGIC_MIRROR"}
    t.close().close()
    assert t.awaiting == {2}
    assert t.kinds(2) == ["inquire", "accuse"]

    t = Table("M8", 5).invite(5, 2).accept(2).close()
    assert t.view(5)["dances"][-1]["face"] == "shown"
    t.peek(5, 0).close().close()
    assert t.view(5)["mystery"][0]["known"] == "ANUBIS"


def test_phantom_accuses_an_inquirer_he_answered_no():
    """Scenario 14."""
    t = Table("M8", 7).inquire(7, 3, "DORIAN")
    assert t.answers(7) == ["NO"]
    assert t.window() == "phantom" and t.awaiting == {3}
    assert t.legal(3) == [{"type": "pass"}, {"type": "phantom"}, {"type": "timeout"}]
    t.phantom(3).close()
    assert t.public["revealed"][3] == "PHANTOM"
    t.name(3, "CAT_BURGLAR")
    assert ENGINE.result(t.state).winners == [3]

    t = Table("M8", 7).inquire(7, 3, "DORIAN").phantom(3).close().name(3, "DORIAN")
    assert t.result_counts() == (0, 1)
    assert t.public["revealed"][3] == "PHANTOM" and t.awaiting == {0}
    t.act(0, "dance")
    assert {"type": "invite", "target": 3} not in t.legal(0)
    t = Table("M8", 7).inquire(7, 3, "DORIAN").phantom(3).close().name(3, "DORIAN").act(0, "inquire")
    assert all(a.get("target") != 3 for a in t.legal(0))

    t = Table("M8", 0).inquire(0, 3, "PHANTOM")
    assert t.answers(0) == ["YES"]
    assert t.window() == "phantom" and t.legal(3) == PASS_ONLY

    t = Table("M8", 7).accuse(7)
    t.names(
        7,
        (0, "SARCOPHAGUS"), (1, "GARGOYLE"), (2, "PHANTOM"), (3, "MAGIC_MIRROR"),
        (4, "SASQUATCH"), (5, "DORIAN"), (6, "ANUBIS"),
    )  # fmt: skip
    assert t.result_counts() == (0, 7)
    for seat in range(7):
        t.skip(seat)
    t.inquire(7, 3, "MUMMY")
    assert t.window() is None and t.awaiting == {0}


def test_dorian_swaps_with_a_mystery_guest_and_becomes_it():
    """Scenario 15."""
    assert Table("M8", 4).kinds(4) == ["inquire", "accuse"]
    t = Table("M8", 0).invite(0, 4).accept(4).close()
    assert t.saw(0) == {4: None}
    assert t.saw(4) == {0: "GARGOYLE"}
    assert t.legal(4) == [{"type": "pass"}, {"type": "swap", "slot": 0}, {"type": "timeout"}]
    t.swap(4, 0).close()
    assert t.view(0)["dances"][-1]["events"] == [{"kind": "swapped", "seat": 4, "slot": 0}]
    assert t.view(4)["me"]["guest"] == "ANUBIS"
    assert t.view(4)["mystery"][0] == {"slot": 0, "face_up": False, "guest": None, "known": "DORIAN"}
    assert t.window() == "post_dance" and t.legal(4) == PASS_ONLY
    t.close()
    t.inquire(1, 4, "ANUBIS")
    assert t.answers(1) == ["YES"]
    t.close()
    t.skip(2).skip(3)
    assert "dance" in t.kinds(4)
    for seat in (4, 5, 6, 7, 0, 1):
        t.skip(seat)
    placed = [(3, "PHANTOM"), (4, "ANUBIS"), (5, "SASQUATCH"), (6, "MUMMY"), (7, "CAT_BURGLAR")]
    placed += [(0, "GARGOYLE"), (1, "SARCOPHAGUS")]
    before = t.state
    t.accuse(2).names(2, *placed)
    assert t.result_counts() == (7, 0)
    assert ENGINE.result(t.state).winners == [2]
    t.state = before
    placed[1] = (4, "DORIAN")
    t.accuse(2).names(2, *placed)
    assert t.result_counts() == (6, 1)


def test_cat_burglar_cannot_burgle_a_dorian_who_showed_but_can_one_who_hid():
    """Scenario 16."""
    t = Table("M8", 7).invite(7, 4).accept(4).close().swap(4, 0).close()
    assert t.window() == "post_dance" and t.legal(7) == PASS_ONLY

    t = Table("M8", 7).invite(7, 4).accept(4).close().close()
    t.burgle(7, 4).close().name(7, "DORIAN")
    assert ENGINE.result(t.state).winners == [7]


def test_archeologist_first_accusation_names_only_the_mummy():
    """Scenario 17."""
    t = Table("M5", 0).accuse(0)
    assert t.public["phase"] == "target"
    assert t.legal(0) == [{"type": "target", "target": s} for s in (1, 2, 3, 4)] + [{"type": "timeout"}]
    t.target(0, 3)
    assert t.result_counts() == (0, 1) and t.public["revealed"][0] == "ARCHEOLOGIST"
    for seat in (1, 2, 3, 4):
        t.skip(seat)
    t.accuse(0).names(0, (1, "MUMMY"), (2, "CAT_BURGLAR"), (3, "SASQUATCH"), (4, "ANUBIS"))
    assert ENGINE.result(t.state).winners == [0]

    t = Table("M5", 0).accuse(0).target(0, 1)
    assert t.result_counts() == (1, 0)
    assert ENGINE.result(t.state).winners == [0]

    t = Table("M5", 1).accuse(1).names(1, (2, "ARCHEOLOGIST"), (3, "CAT_BURGLAR"), (4, "SASQUATCH"), (0, "ANUBIS"))
    assert t.result_counts() == (0, 4)
    t.skip(2).skip(3).skip(4).accuse(0)
    assert t.public["phase"] == "name"
    assert t.public["accusation"]["targets"] == [2, 3, 4]


def test_failed_accusation_reveals_the_accuser_and_shows_only_counts():
    """Scenario 18."""
    t = Table("M5", 1).accuse(1).names(1, (2, "ANUBIS"), (3, "SASQUATCH"), (4, "CAT_BURGLAR"), (0, "ARCHEOLOGIST"))
    entry = t.last("accusation")
    assert (entry["seats"], entry["names"]) == ([2, 3, 4, 0], ["ANUBIS", "SASQUATCH", "CAT_BURGLAR", "ARCHEOLOGIST"])
    assert t.result_counts() == (2, 2)
    for seat in (0, 1, 2, 3, 4, None):
        text = json.dumps(t.view(seat))
        assert '"answers"' not in text and "accusations" not in text
    assert t.public["revealed"][1] == "MUMMY"
    t.act(2, "dance")
    assert [a["target"] for a in t.legal(2) if a["type"] == "invite"] == [0, 3, 4]
    t = Table("M5", 1).accuse(1).names(1, (2, "ANUBIS"), (3, "SASQUATCH"), (4, "CAT_BURGLAR"), (0, "ARCHEOLOGIST"))
    t.act(2, "inquire")
    assert all(a["target"] != 1 for a in t.legal(2) if a["type"] == "ask")
    t.ask(2, 3, "MUMMY").skip(3).skip(4).skip(0)
    assert t.kinds(1) == ["inquire", "accuse"]
    t.skip(1).accuse(2)
    assert 1 not in t.public["accusation"]["targets"]


def test_accusation_with_nobody_left_to_accuse_wins():
    """Scenario 19."""
    t = Table("M4", 1).accuse(1).names(1, (2, "ARCHEOLOGIST"), (3, "SASQUATCH"), (0, "ANUBIS"))
    assert t.result_counts() == (0, 3)
    t.accuse(2).names(2, (3, "ARCHEOLOGIST"), (0, "ANUBIS"))
    assert t.result_counts() == (0, 2)
    t.accuse(3).names(3, (0, "GARGOYLE"))
    assert t.result_counts() == (0, 1)
    t.accuse(0)
    assert t.last("accusation")["form"] == "normal"
    assert ENGINE.result(t.state).winners == [0]


def test_mystery_guests_are_untouchable_and_everything_is_revealed_at_the_end():
    """Scenario 20."""
    t = Table("M5", 0).act(0, "inquire")
    for bad in (5, -1, "1", None):
        with pytest.raises(IllegalAction):
            t.ask(0, bad, "MUMMY")  # type: ignore[arg-type]
    t = Table("M5", 0)
    steps = [
        lambda: t.ask(0, 3, "SASQUATCH"),
        lambda: t.inquire(1, 0, "MUMMY"),
        lambda: t.invite(2, 3).accept(3).close().peek(3, 0).close().close(),
        lambda: t.invite(3, 2).accept(2).close().peek(3, 1).close().close(),
        lambda: t.invite(4, 1).accept(1).close().close().close(),
    ]
    t.act(0, "inquire")
    for step in steps:
        step()
        for seat in (*range(5), None):
            view = t.view(seat)
            for p in view["players"]:
                assert p["guest"] is None or p["revealed"]
            for m in view["mystery"]:
                assert m["guest"] is None
            if seat != 3:
                assert all(m["known"] is None for m in view["mystery"])
            other = scrambled_for(t.state, -1 if seat is None else seat)
            assert canonical(ENGINE.view(other, seat)) == canonical(view)
    assert [m["known"] for m in t.view(3)["mystery"]] == ["GARGOYLE", "SARCOPHAGUS"]
    t.accuse(0).target(0, 1)
    assert ENGINE.result(t.state).winners == [0]
    for seat in (*range(5), None):
        view = t.view(seat)
        assert view["public"]["final"] == {"guests": deal("M5", 0)["guests"], "mystery": ["GARGOYLE", "SARCOPHAGUS"]}
        assert view["reveal"]["hidden"]["mystery"] == ["GARGOYLE", "SARCOPHAGUS"]
        assert len(view["log"]) == len(t.state["log"])


def _observers(t: Table, seats: tuple[int, ...]) -> str:
    return canonical({"awaiting": sorted(t.awaiting), "views": [t.view(s) for s in seats], "spectator": t.view(None)})


def test_windows_look_the_same_whatever_is_chosen_in_them():
    """Scenario 21."""
    a = Table("M6", 4).invite(4, 2).accept(2)
    b = Table("M6", 4).invite(4, 2).accept(2)
    watchers = (0, 3, 5)
    assert _observers(a, watchers) == _observers(b, watchers)
    b.join(1)
    assert _observers(a, watchers) == _observers(b, watchers)
    for _ in range(3):
        a.close()
        b.close()
        assert _observers(a, watchers) == _observers(b, watchers)
    assert a.saw(4) == {2: None} and b.saw(4) == {2: "SASQUATCH", 1: "GARGOYLE"}

    swapped = deal("M8", 7)
    swapped["guests"][3], swapped["guests"][4] = "DORIAN", "PHANTOM"
    c = Table("M8", 7).inquire(7, 3, "DORIAN")
    d = Table(swapped).inquire(7, 3, "DORIAN")
    assert c.answers(7) == ["NO"] and d.answers(7) == ["YES"]
    watchers = (0, 1, 2, 5, 6)
    assert c.awaiting == d.awaiting == {3}
    assert canonical(c.public) == canonical(d.public)
    assert _observers(c, watchers) == _observers(d, watchers)
    c.phantom(3)
    d.timeout(3)
    assert _observers(c, watchers) == _observers(d, watchers)
    c.timeout(3)
    d.timeout(3)
    assert c.public["phase"] == "name" and d.awaiting == {0}


def test_timeouts_apply_each_decisions_default():
    """Scenario 22."""
    t = Table("M5", 0).timeout(0)
    assert t.awaiting == {1} and t.last("skip")["seat"] == 0
    t.invite(1, 2).timeout(2)
    assert t.last("invite_answer")["accepted"] is False and t.public["phase"] == "reask"
    t.timeout(1)
    assert t.awaiting == {2}

    t = Table("M5", 3).accuse(3)
    for _ in range(4):
        t.timeout(3)
    entry = t.last("accusation")
    assert (entry["seats"], entry["names"]) == ([4, 0, 1, 2], ["MUMMY", "ARCHEOLOGIST", "CAT_BURGLAR", "SARCOPHAGUS"])
    assert t.result_counts() == (1, 3)


def test_round_limit_ends_in_a_draw_that_reveals_everything():
    """Scenario 23."""
    t = Table("M4", 0, max_rounds=1)
    for seat in range(4):
        t.skip(seat)
    assert t.awaiting == set() and t.public["draw"] is True
    result = ENGINE.result(t.state)
    assert result.winners == [] and result.draw is True
    assert t.view(None)["result"]["draw"] is True
    for seat in (*range(4), None):
        assert t.view(seat)["public"]["final"]["guests"] == deal("M4", 0)["guests"]


def test_a_correct_accusation_is_a_win_and_not_a_draw():
    """§6: the game ends when an accusation receives no NO answer; its accuser is the sole winner."""
    t = Table("M5", 0).inquire(0, 1, "MUMMY").inquire(1, 0, "ARCHEOLOGIST")
    t.accuse(2).names(2, (3, "SASQUATCH"), (4, "ANUBIS"), (0, "ARCHEOLOGIST"), (1, "MUMMY"))
    result = ENGINE.result(t.state)
    assert result.winners == [2] and result.draw is False


def test_every_uniform_prompt_is_the_same_for_every_guest():
    """§4.0/§9.15: the invitation prompt and the dance-window prompts of seats without the ability."""
    for fixture in ("M5", "M6", "M8"):
        n = len(deal(fixture, 0)["guests"])
        for inviter in range(n):
            t = Table(fixture, inviter)
            if "dance" not in t.kinds(inviter):
                continue
            for invitee in range(n):
                if invitee == inviter:
                    continue
                u = Table(fixture, inviter).invite(inviter, invitee)
                assert u.legal(invitee) == [{"type": "accept"}, {"type": "decline"}, {"type": "timeout"}]


def test_guest_lists_cover_every_valid_combination():
    """§2.3: the random draw reaches every valid list (4 players, basic guests: 6 of 7, all valid)."""
    seen = set()
    for seed in range(300):
        state = ENGINE.setup(4, {}, seed)
        seen.add(tuple(state["public"]["guests"]))
    expected = {tuple(g.canonical([g.MUMMY, *rest])) for rest in combinations(g.BASIC[1:], 5)}
    assert seen == expected
