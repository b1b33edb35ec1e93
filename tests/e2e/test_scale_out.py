"""Scaling out (ARCHITECTURE §6): two daphne processes share PostgreSQL and Redis. The host plays
on one, a friend on the other; every move reaches both, each process runs its own moderator
clock, and the match plays to its end with a complete move log."""

from __future__ import annotations

import secrets
import subprocess
import sys
from urllib.parse import urlparse

import pytest

from tests.components import require
from tests.e2e.conftest import Daphne, migrate, server_env
from tests.e2e.flows import become_guest, create_table, play_until_over, run_in_site, wait_for_socket

pytestmark = pytest.mark.e2e

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test"
REDIS_URL = "redis://127.0.0.1:6379/3"


def _psql(database: str, sql: str) -> None:
    parsed = urlparse(DATABASE_URL)
    code = (
        "import psycopg, sys; "
        f"c = psycopg.connect(host={parsed.hostname!r}, port={parsed.port}, user={parsed.username!r}, "
        f"dbname={database!r}, autocommit=True); c.execute(sys.argv[1]); c.close()"
    )
    subprocess.run([sys.executable, "-c", code, sql], check=True)


@pytest.fixture
def two_servers(tmp_path):
    require("postgresql", "redis", "chromium", "playwright")
    name = f"shabneshin_e2e_{secrets.token_hex(4)}"
    _psql("test", f'CREATE DATABASE "{name}"')
    env = server_env(DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{name}", REDIS_URL=REDIS_URL)
    try:
        migrate(env)
        first = Daphne(env, tmp_path / "first.log")
        second = Daphne(env, tmp_path / "second.log")
        yield first, second, env
        first.stop()
        second.stop()
    finally:
        _psql("test", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _match_summary(env) -> str:
    code = (
        "from tables.models import Match; m = Match.objects.get(); "
        "print(m.status, m.version, m.moves.count(), list(m.moves.values_list('seq', flat=True)) "
        "== list(range(1, m.version + 1)))"
    )
    return run_in_site(env, code)


def test_two_server_processes_serve_one_table_to_its_end(two_servers, new_page):
    first, second, env = two_servers
    host = new_page("en")
    become_guest(host, first.url, "Ava")
    invite = create_table(host, first.url, "werewolf", 5)
    token_path = urlparse(invite).path

    friend = new_page("en")
    become_guest(friend, second.url, "Bijan")
    friend.goto(second.url + token_path)
    wait_for_socket(friend)
    friend.click("[data-testid=sit]")
    friend.wait_for_selector("[data-testid=leave]")
    wait_for_socket(friend)

    host.goto(invite)
    wait_for_socket(host)
    host.click("[data-testid=fill-bots]")
    host.click("[data-testid=start]")
    wait_for_socket(host)
    # The friend's page on the other process hears the start through Redis, without a reload.
    friend.wait_for_selector("[data-testid=my-role]", timeout=15_000)

    play_until_over([host, friend])
    status, version, moves, complete = _match_summary(env).split()
    assert status == "finished"
    assert int(version) == int(moves) > 0 and complete == "True", "no move applied twice or lost"
    for page in (host, friend):
        assert page.locator("[data-testid=result] [data-role-of]").count() == 5
