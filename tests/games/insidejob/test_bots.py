"""The practice bot decides from its own view and clearly beats uniformly random play."""

from __future__ import annotations

from games.base import pick, rng_for
from games.insidejob import bots
from tests.games.insidejob.helpers import ENGINE, ij2, run, start

GAMES = 30
ALL_BOT_GAMES = 12


def _game(n: int, seed: int, bot_side: str) -> str:
    """One game where the bot plays the Agents, the Insider, or nobody; random legal moves otherwise."""
    state = ENGINE.setup(n, None, seed)
    insider = [s["role"] == "INSIDER" for s in state["seats"]]
    while ENGINE.awaiting(state):
        seat = min(ENGINE.awaiting(state))
        legal = ENGINE.legal_actions(state, seat)
        rng = rng_for(f"bots:{seed}", state["step"])
        if bot_side == ("insider" if insider[seat] else "agents"):
            action = bots.choose(ENGINE.view(state, seat), legal, rng)
            assert action != {"type": "timeout"} and action in legal
        else:
            action = pick(rng, legal[:-1])
        state = ENGINE.apply(state, seat, action)
    return str(state["public"]["winner_side"])


def test_bot_agents_beat_random_agents():
    """Measured over these 30 seeds: random Agents win about 20%, bot Agents about 95%."""
    baseline = sum(_game(4, s, "nobody") == "AGENTS" for s in range(GAMES)) / GAMES
    bot = sum(_game(4, s, "agents") == "AGENTS" for s in range(GAMES)) / GAMES
    assert baseline <= 0.4
    assert bot >= 0.75 and bot >= baseline + 0.4


def test_bot_insider_beats_random_insider_against_bot_agents():
    """Against bot Agents a random Insider wins about 10% (these 30 seeds); the bot Insider wins
    about 70% of 12 all-bot games."""
    random_insider = sum(_game(4, s, "agents") == "INSIDER" for s in range(GAMES)) / GAMES
    bot_agents_vs_bot_insider = 0
    for seed in range(ALL_BOT_GAMES):
        state = ENGINE.setup(4, None, seed)
        while ENGINE.awaiting(state):
            seat = min(ENGINE.awaiting(state))
            legal = ENGINE.legal_actions(state, seat)
            state = ENGINE.apply(
                state, seat, bots.choose(ENGINE.view(state, seat), legal, rng_for(seed, state["step"]))
            )
        bot_agents_vs_bot_insider += state["public"]["winner_side"] == "INSIDER"
    assert random_insider <= 0.25
    assert bot_agents_vs_bot_insider / ALL_BOT_GAMES >= random_insider + 0.3


def test_an_agent_bot_votes_for_a_proven_insider():
    """§14.5: a seat that showed a void in a suit and later played it is the Insider."""
    deal = ij2(
        missions=["P01", "P02", "P03", "P04"],
        hands=[
            ["R8", "G3", "Y5", "Y1"],
            ["R4", "G5", "Y7", "Y2"],
            ["B2", "R10", "G9", "Y3"],
            ["R12", "Y9", "G11", "Y4"],
        ],
    )
    state = run(start(4, deal), "0 R8", "1 R4", "2 B2", "3 R12", "3 Y9", "0 Y5", "1 Y7", "2 R10", "ready")
    view = ENGINE.view(state, 0)
    action = bots.choose(view, ENGINE.legal_actions(state, 0), rng_for(0, 0))
    assert action == {"type": "vote", "target": 2}
