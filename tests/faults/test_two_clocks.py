"""The clock on two processes never applies a timeout or a bot move twice (ARCHITECTURE §5), over
hundreds of deadlines: two daphne processes, both running their clocks on one PostgreSQL database
of the test's own (row locks with SKIP LOCKED), with short timers and no browser at all. Every
table is played by bots, and at some a human seat nobody answers ends its decisions by timeout.
Once they have applied DEADLINES moves (the processes are stopped then, mid-game for most
tables), each match's move seqs are contiguous and as many as its version (none applied
twice, none lost), and replaying them from the seed gives the stored state."""

from __future__ import annotations

import time

import pytest

from tests.e2e.conftest import Daphne, migrate, server_env
from tests.faults.test_kill_and_clock import _VERIFY, _manage_shell
from tests.redis_server import OwnRedis

_SETUP = """
import json
from accounts.models import User
from tables import seating
from tables.models import Seat
games = [("werewolf", 7), ("mummy", 6), ("monster", 4), ("dracula", 2), ("insidejob", 4)]
for n in range(%(tables)d):
    game, seats = games[n %% len(games)]
    host = User.objects.create_user(f"host{n}", password="x-long-pass-1", display_name=f"H{n}")
    table = seating.create_table(host, game, seats, "private")
    seating.fill_with_bots(table, host)
    if n %% 3:  # a table of bots only; otherwise the host's seat is never answered: timeouts
        Seat.objects.filter(table=table, number=0).update(user=None, is_bot=True)
    seating.start(table, host, seed=500 + n)
print("SETUP" + json.dumps(%(tables)d))
"""
TABLES = 10
DEADLINES = 500
_CLOCK_MOVES = "select count(*) from tables_move where source in ('bot', 'clock')"


@pytest.mark.parametrize("fault_database", ["postgres"], indirect=True)
def test_two_clocks_apply_each_timeout_and_bot_move_once_over_hundreds_of_deadlines(tmp_path, fault_database):
    db = fault_database
    redis = OwnRedis()
    redis.start()
    env = server_env(**db.env(), REDIS_URL=redis.url, BOT_DELAY_S="0.01", CLOCK_TICK_S="0.02", TIMER_SCALE="0.01")
    migrate(env)
    servers = [Daphne(env, tmp_path / "daphne-a.log"), Daphne(env, tmp_path / "daphne-b.log")]
    try:
        _manage_shell(env, _SETUP % {"tables": TABLES}, "SETUP")  # the clocks start at once
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and db.scalar(_CLOCK_MOVES) < DEADLINES:
            time.sleep(0.5)
    finally:
        for server in servers:
            server.stop()
        redis.stop()
    report = _manage_shell(env, _VERIFY, "VERIFY")
    assert len(report) == TABLES
    for match in report:
        assert match["seqs"] == list(range(1, match["version"] + 1)), "a move was lost or applied twice"
        assert match["replays"], "replaying the moves from the seed does not give the stored state"
    total = sum(m["version"] for m in report)
    sources = {s for m in report for s in m["sources"]}
    assert {"bot", "clock"} <= sources, sources
    assert total >= DEADLINES, f"only {total} deadlines"
    print(f"two clocks: {total} deadlines (bot moves and timeouts) over {TABLES} matches, each applied once")
