"""Typed environment helpers fail loudly on values they cannot read."""

from __future__ import annotations

import pytest

from shabneshin.env import (
    EnvError,
    database_from_url,
    env_bool,
    env_float,
    env_int,
    env_list,
    redis_channel_layer,
)


def test_booleans_accept_the_usual_spellings_and_refuse_others(monkeypatch):
    for raw, value in [("1", True), ("yes", True), ("ON", True), ("0", False), ("false", False), ("", True)]:
        monkeypatch.setenv("FLAG", raw)
        assert env_bool("FLAG", True) is value
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(EnvError, match="FLAG"):
        env_bool("FLAG")


def test_numbers_refuse_words(monkeypatch):
    monkeypatch.setenv("N", "12")
    assert env_int("N", 0) == 12 and env_float("N", 0) == 12.0
    monkeypatch.setenv("N", "twelve")
    with pytest.raises(EnvError):
        env_int("N", 0)
    with pytest.raises(EnvError):
        env_float("N", 0)


def test_lists_split_on_commas(monkeypatch):
    monkeypatch.setenv("HOSTS", "a.example, b.example,,")
    assert env_list("HOSTS", []) == ["a.example", "b.example"]
    monkeypatch.delenv("HOSTS")
    assert env_list("HOSTS", ["x"]) == ["x"]


def test_database_url_becomes_a_postgresql_entry():
    entry = database_from_url("postgres://me:s%40cret@db.local:6543/games")
    assert entry["ENGINE"] == "django.db.backends.postgresql"
    assert (entry["USER"], entry["PASSWORD"], entry["HOST"], entry["PORT"], entry["NAME"]) == (
        "me",
        "s@cret",
        "db.local",
        "6543",
        "games",
    )
    with pytest.raises(EnvError):
        database_from_url("mysql://db/games")
    with pytest.raises(EnvError):
        database_from_url("postgres://db.local")


def test_redis_layer_sets_a_big_pool_and_a_socket_timeout_above_the_blocking_receive():
    layer = redis_channel_layer("redis://127.0.0.1:6379/0", 1000)
    host = layer["CONFIG"]["hosts"][0]
    assert host["max_connections"] == 1000 and host["socket_timeout"] > 5
    with pytest.raises(EnvError):
        redis_channel_layer("http://127.0.0.1:6379", 10)
