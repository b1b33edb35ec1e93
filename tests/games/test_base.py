"""The chance helpers and the contract's fixed behaviour in games/base.py."""

from __future__ import annotations

import pytest

from games.base import IllegalAction, pick, randbelow, rng_for, sample, shuffled


def test_chance_is_a_function_of_seed_and_step():
    assert shuffled(rng_for(5, 3), list(range(20))) == shuffled(rng_for(5, 3), list(range(20)))
    assert shuffled(rng_for(5, 3), list(range(20))) != shuffled(rng_for(5, 4), list(range(20)))


def test_chance_helpers_use_only_random_and_stay_stable():
    # Pinned values: if these change, stored matches would no longer replay.
    assert shuffled(rng_for(0, 0), list(range(8))) == [2, 1, 6, 5, 0, 3, 7, 4]
    assert randbelow(rng_for(1, 1), 1000) == 716
    assert sorted(shuffled(rng_for(2, 2), list(range(50)))) == list(range(50))
    assert len(set(sample(rng_for(3, 3), list(range(10)), 4))) == 4
    assert pick(rng_for(4, 4), ["only"]) == "only"


def test_randbelow_is_roughly_uniform():
    rng = rng_for("uniform", 0)
    counts = [0] * 6
    for _ in range(6000):
        counts[randbelow(rng, 6)] += 1
    assert all(850 < c < 1150 for c in counts)


def test_illegal_action_has_a_stable_code():
    err = IllegalAction("nope", "not_awaited")
    assert isinstance(err, ValueError) and err.code == "not_awaited" and err.reason == "nope"
    with pytest.raises(ValueError):
        IllegalAction("nope", "no-such-code")


@pytest.mark.parametrize("slug", ["werewolf", "dracula", "insidejob", "mummy", "monster"])
def test_a_decision_is_optional_only_when_passing_or_in_a_mummy_window(slug):
    """Every engine answers decision_is_optional for every awaited seat of random games."""
    from games import registry
    from games.base import TIMEOUT

    engine = registry.get(slug)
    seen = set()
    for seed in range(8):
        state = engine.setup(engine.min_players, None, seed)
        rng = rng_for("optional", seed)
        for _ in range(200):
            awaited = sorted(engine.awaiting(state))
            if not awaited:
                break
            for seat in awaited:
                legal = engine.legal_actions(state, seat)
                window = slug == "mummy" and state["public"]["phase"] == "window"
                expected = window or all(a["type"] in ("pass", "timeout") for a in legal)
                assert engine.decision_is_optional(state, seat) is expected
                seen.add(expected)
            seat = pick(rng, awaited)
            choices = [a for a in engine.legal_actions(state, seat) if a != TIMEOUT] or [TIMEOUT]
            state = engine.apply(state, seat, pick(rng, choices))
    assert False in seen
    if slug == "mummy":
        assert True in seen


def test_a_result_is_not_a_draw_unless_marked_and_a_draw_has_no_winners():
    from games.base import Result

    assert Result(winners=[], seats=[], summary="").to_dict()["draw"] is False
    assert Result(winners=[], seats=[], summary="", draw=True).to_dict()["draw"] is True
    with pytest.raises(ValueError):
        Result(winners=[0], seats=[], summary="", draw=True)


def test_an_option_that_checks_its_values_replaces_its_menu_in_resolve_options():
    from games import registry
    from games.base import OptionsRefused

    engine = registry.get("insidejob")
    assert engine.resolve_options({"special_roles": ["S3", "S4"]})["special_roles"] == ["S3", "S4"]
    with pytest.raises(OptionsRefused) as refused:
        engine.resolve_options({"special_roles": ["S3", "S3"]})
    assert refused.value.message.startswith("Special roles are a list")
    for option in engine.options:
        for value in option.choices:  # every menu entry stays acceptable
            assert engine.resolve_options({option.key: value})[option.key] == value
    with pytest.raises(ValueError, match="takes one of"):
        engine.resolve_options({"wagers": "maybe"})
