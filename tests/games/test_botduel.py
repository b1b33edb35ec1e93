"""A short run of the bot duel (scripts/botduel.py, 50 games a game): a practice bot is in the
winning side more often than a random player in the same seat of the same deals, in every game.

With one bot seat among random players, the werewolf bot's edge is too small for 50 games to show
(about +1 percentage point over 500 games: a lone villager learns nothing from random players'
votes, and random players do not listen to a seer). Werewolf is a team game, so its short run
measures a bot seat among bots instead, where the talking bots' team play shows.
"""

from __future__ import annotations

import pytest

from games import registry
from scripts.botduel import short_duel

GAMES = 50
AMONG_BOTS = {"werewolf"}


@pytest.mark.parametrize("slug", [engine.slug for engine in registry.all()])
def test_a_bot_seat_wins_more_often_than_a_random_player_in_the_same_seat(slug):
    bot, random_player = short_duel(slug, GAMES, all_bots=slug in AMONG_BOTS)
    assert bot > random_player, f"{slug}: bot {bot:.0%} vs random {random_player:.0%} over {GAMES} games"
