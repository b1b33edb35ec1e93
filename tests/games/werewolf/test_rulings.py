"""Rulings of the werewolf engine where the spec is silent, its clocks (§12) and its view keys."""

from __future__ import annotations

from games.werewolf.engine import ENGINE
from tests.games.werewolf.helpers import TIMEOUT, W5, W7, deal, night, ready, views, votes, walk


def test_night_pick_and_close_share_one_clock_window():
    """§12: the pick has night_turn_max_s, the close night_turn_min_s, both from the turn start."""
    state = deal(W5)
    assert ENGINE.time_limit(state, 0, ENGINE.timers) == 30
    picked = ENGINE.apply(state, 0, {"type": "pick", "target": 2})
    assert ENGINE.time_limit(picked, 0, ENGINE.timers) == 5
    assert not ENGINE.opens_new_window(state, picked)
    closed = ENGINE.apply(picked, 0, TIMEOUT)
    assert ENGINE.opens_new_window(picked, closed)
    assert ENGINE.time_limit(closed, 1, {"night_turn_max_s": 45, "night_turn_min_s": 8}) == 45


def test_discussion_window_does_not_restart_as_seats_become_ready():
    """§12: one discussion_s window for the whole discussion."""
    state = night(deal(W5), "0>2, 1>0, 2>1, 3>4")
    before_dawn = state
    state = night(state, "4>0")
    assert ENGINE.opens_new_window(before_dawn, state)
    assert ENGINE.time_limit(state, 2, ENGINE.timers) == 180
    after = ENGINE.apply(state, 2, {"type": "ready"})
    assert not ENGINE.opens_new_window(state, after)


def test_each_vote_turn_opens_a_window_even_for_the_last_ready_seat():
    """§12: the first voter gets a fresh vote_turn_s even if it was the last seat to get ready."""
    state = night(deal(W5), "0>2, 1>0, 2>1, 3>4, 4>0")
    for seat in (2, 3, 4):
        state = ENGINE.apply(state, seat, {"type": "ready"})
    assert ENGINE.awaiting(state) == {0}
    voting = ENGINE.apply(state, 0, {"type": "ready"})
    assert ENGINE.awaiting(voting) == {0} and voting["public"]["phase"] == "day_vote"
    assert ENGINE.opens_new_window(state, voting)
    assert ENGINE.time_limit(voting, 0, ENGINE.timers) == 30
    nxt = ENGINE.apply(voting, 0, {"type": "vote", "target": None})
    assert ENGINE.opens_new_window(voting, nxt)


def test_chat_is_closed_during_the_vote_and_open_to_every_seat_after_the_end():
    """Ruling: no chat in DAY_VOTE; after the game every seated player may chat, spectators not."""
    state = ready(night(deal(W5), "0>1, 1>0, 2>3, 3>4, 4>0"))
    assert not any(view["can_chat"] for view in views(state).values())
    state = votes(state, "0:2, 1:0, 2:0, 4:0")
    state = night(state, "1>2, 2>1, 4>2")
    assert state["public"]["over"]
    chat = {seat: view["can_chat"] for seat, view in views(state).items()}
    assert chat == {0: True, 1: True, 2: True, 3: True, 4: True, None: False}


def test_view_gives_the_ui_everything_it_renders():
    """The keys the platform's templates read."""
    state = night(deal(W7), "0>1, 1>3, 2>4, 3>0")
    view = ENGINE.view(state, 4)
    for key in (
        "phase round order turn turn_seat my_turn alive dead_roles ready voted votes announcements winner "
        "can_chat chatters my_role my_wolves wolf_picks seer_results last_protected my_pick night_step "
        "has_voted my_vote me log seat over awaiting"
    ).split():
        assert key in view, key
    assert view["my_turn"] and view["night_step"] == "pick" and view["my_wolves"] == [1, 4]
    assert ENGINE.view(ENGINE.apply(state, 4, {"type": "pick", "target": 3}), 4)["night_step"] == "close"
    assert ENGINE.view(state, 3)["night_step"] is None
    doctor = ENGINE.view(night(state, "4>3, 5>5, 6>0"), 5)
    assert doctor["last_protected"] == 5


def test_no_pick_is_told_to_nobody_but_the_seat():
    """Ruling: a wolf's no-pick is not shown to the other wolf."""
    state = night(deal(W7), "0>1, 1>·, 2>0, 3>0")
    assert ENGINE.view(state, 4)["wolf_picks"] == []
    assert any(d.get("kind") == "no_pick" for d in walk(ENGINE.view(state, 1)["log"]))
    assert not any(d.get("kind") == "no_pick" for d in walk(ENGINE.view(state, 4)["log"]))


def test_dead_wolf_receives_no_new_wolf_picks():
    """§5: wolf-pick entries go to living wolves only."""
    state = ready(night(deal(W7), "0>1, 1>3, 2>0, 3>0, 4>6, 5>0, 6>0"))
    state = votes(state, "0:1, 1:0, 2:1, 3:1, 4:0, 5:1, 6:·")
    assert state["public"]["dead_roles"][1] == "WOLF"
    state = night(state, "2>0, 3>0, 4>3")
    assert ENGINE.view(state, 1)["wolf_picks"] == []
    assert not any(d.get("kind") == "wolf_pick" and d["round"] == 2 for d in ENGINE.view(state, 1)["log"])


def test_spectator_sees_no_living_role_and_no_private_entry():
    state = night(deal(W7), "0>1, 1>3, 2>4, 3>0, 4>3, 5>0")
    spectator = ENGINE.view(state, None)
    assert spectator["me"] is None and spectator["my_role"] is None
    assert all(e["to"] is None for e in spectator["log"])
    assert spectator["dead_roles"] == [None] * 7
