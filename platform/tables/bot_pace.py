"""When a practice bot acts: like a person, not at once, where that matters to the humans.

A bot whose only decision is to say it is ready to end a discussion (werewolf's day, Inside Job's
discussion) is ready only after a share of the discussion timer, so a lone human among bots has
time to read what was said and to talk. ``BOT_DELAY_S = 0`` (the platform tests) means bots act at
once, readiness too.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from games.base import TIMEOUT, rng_for
from tables.models import Match

READY_SHARE = 0.3  # of the discussion's time limit
READY_JITTER_SHARE = 0.1  # per bot, from the seed and seat


def ready_at(match: Match, seat: int, window: datetime, timers: dict[str, float]) -> datetime | None:
    """When the bot in ``seat`` may say it is ready, or ``None`` if its decision is another one."""
    engine = match.engine
    if settings.BOT_DELAY_S <= 0 or engine.legal_actions(match.state, seat) != [{"type": "ready"}, TIMEOUT]:
        return None
    share = READY_SHARE + rng_for(f"ready:{match.seed}", seat).random() * READY_JITTER_SHARE
    return window + timedelta(seconds=share * engine.time_limit(match.state, seat, timers))


def not_before(match: Match, seat: int, bot_at: datetime, window: datetime, timers: dict[str, float]) -> datetime:
    """``bot_at``, or later when the bot's decision is a readiness that should wait."""
    ready = ready_at(match, seat, window, timers)
    return bot_at if ready is None else max(bot_at, ready)
