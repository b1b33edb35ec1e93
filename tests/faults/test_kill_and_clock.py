"""Fault tests with real server processes (ARCHITECTURE §5, §6): two daphne processes share one
database (a SQLite file, the embedded default; and a PostgreSQL database of the test's own) and
run their clocks over several tables at once while WebSocket clients play a seat at each (the
channel layer is the tests' own redis-server); one process is killed with SIGKILL mid-game and
started again. Afterwards every match's moves are
contiguous (none lost, none applied twice), replaying them from the seed reproduces the stored
state, and no "database is locked" reached anyone."""

from __future__ import annotations

import asyncio
import html
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
import websockets

from tests.e2e.conftest import ROOT, Daphne, migrate, server_env
from tests.redis_server import OwnRedis

TABLES = 4

_SETUP = """
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from accounts.models import User
from tables import seating
out = []
for n in range(%(tables)d):
    player = User.objects.create_user(f"player{n}", password="x-long-pass-1", display_name=f"P{n}")
    table = seating.create_table(player, "werewolf", 5, "private")
    seating.fill_with_bots(table, player)
    seating.start(table, player, seed=100 + n)
    session = SessionStore()
    session[SESSION_KEY] = str(player.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = player.get_session_auth_hash()
    session.create()
    out.append({"token": table.token, "session": session.session_key})
print("SETUP" + json.dumps(out))
"""

_VERIFY = """
import json
from tables.models import Match
report = []
for match in Match.objects.all():
    seqs = list(match.moves.order_by("seq").values_list("seq", flat=True))
    engine = match.engine
    state = engine.setup(match.n_players, dict(match.options), match.seed)
    for move in match.moves.order_by("seq"):
        state = engine.apply(state, move.seat, move.action)
    sources = sorted(set(match.moves.values_list("source", flat=True)))
    report.append({"version": match.version, "seqs": seqs, "replays": state == match.state,
                   "status": match.status, "sources": sources})
print("VERIFY" + json.dumps(report))
"""


def _manage_shell(env: dict[str, str], code: str, marker: str):  # noqa: ANN202
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out[out.index(marker) + len(marker) :])


_ACTION = re.compile(r'name="action" value="([^"]+)">\s*<input type="hidden" name="version" value="(\d+)"')


_VERSION = re.compile(r'data-version="(\d+)"')


async def _play(
    servers: list[Daphne], table: dict[str, str], stop: asyncio.Event, errors: list[str], seen: list[int] | None = None
) -> None:
    """A browser tab playing seat 0: answers every decision at once, reconnects when its server
    goes away (to whichever process is up). ``seen`` collects the versions it was shown."""
    attempt = 0
    while not stop.is_set():
        server = servers[attempt % len(servers)]
        attempt += 1
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table['token']}/"
        headers = {"Origin": server.url, "Cookie": f"sessionid={table['session']}"}
        try:
            async with websockets.connect(url, additional_headers=headers, open_timeout=3) as ws:
                while not stop.is_set():
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=0.5)
                    except TimeoutError:
                        continue
                    if "database is locked" in text or "Internal" in text:
                        errors.append(text)
                    if seen is not None:
                        seen.extend(int(v) for v in _VERSION.findall(str(text)))
                    found = _ACTION.search(str(text))
                    if found:
                        message = {"action": html.unescape(found.group(1)), "version": found.group(2)}
                        await ws.send(json.dumps(message))
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError):
            await asyncio.sleep(0.1)


async def _drive(servers: list[Daphne], tables: list[dict[str, str]], env, log_dir, until) -> list[str]:  # noqa: ANN001
    stop = asyncio.Event()
    errors: list[str] = []
    players = [asyncio.create_task(_play(servers, t, stop, errors)) for t in tables]
    await asyncio.sleep(3)
    assert not until(), "the kill must come mid-game"
    victim = servers[0]
    os.kill(victim.proc.pid, signal.SIGKILL)  # no goodbye: mid-transaction, mid-send
    victim.proc.wait(timeout=10)
    victim._log.close()
    servers[0] = Daphne(env, log_dir / "daphne-restarted.log")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not until():
        await asyncio.sleep(0.5)
    stop.set()
    await asyncio.gather(*players)
    return errors


@pytest.mark.parametrize("fault_database", ["sqlite", "postgres"], indirect=True)
def test_killed_server_and_two_clocks_lose_no_move_and_apply_none_twice(tmp_path, fault_database):
    db = fault_database
    redis = OwnRedis()  # the channel layer both processes share: the tests' own, never 6379
    redis.start()
    env = server_env(
        **db.env(), REDIS_URL=redis.url, BOT_DELAY_S="0.05", CLOCK_TICK_S="0.05", TIMER_SCALE="0.2"
    )
    migrate(env)
    tables = _manage_shell(env, _SETUP % {"tables": TABLES}, "SETUP")
    servers = [Daphne(env, tmp_path / "daphne-a.log"), Daphne(env, tmp_path / "daphne-b.log")]

    def all_over() -> bool:
        return db.scalar("select count(*) from tables_match where status = 'playing'") == 0

    try:
        errors = asyncio.run(_drive(servers, tables, env, tmp_path, all_over))
    finally:
        for server in servers:
            server.stop()
        redis.stop()
    logs = "".join(p.read_text() for p in tmp_path.glob("*.log"))
    assert "database is locked" not in logs and not errors, logs[-3000:]
    report = _manage_shell(env, _VERIFY, "VERIFY")
    assert len(report) == TABLES
    total = sum(m["version"] for m in report)
    assert total >= 60, f"only {total} moves: the processes did not play"
    print(f"faults ({db.kind}): {total} moves over {TABLES} matches, two processes, one SIGKILL and restart")
    for match in report:
        assert match["seqs"] == list(range(1, match["version"] + 1)), "a move was lost or applied twice"
        assert match["replays"], "replaying the moves from the seed does not give the stored state"
        assert match["status"] == "finished"
    assert {"player", "bot"} <= {s for m in report for s in m["sources"]}, "clients and clocks both moved"
