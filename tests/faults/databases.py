"""The databases the fault tests run their server processes on: a SQLite file of their own (the
embedded default), or a PostgreSQL database of their own, ``faults_<pid>_<n>``, created on the
shared server at 127.0.0.1:5432 for one test and dropped after it. The shared server itself is
never stopped or touched otherwise, and no other database on it is."""

from __future__ import annotations

import itertools
import os
import sqlite3
from abc import ABC, abstractmethod
from pathlib import Path

from tests.components import require

ADMIN_URL = os.environ.get("FAULTS_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
_numbers = itertools.count(1)


class FaultDatabase(ABC):
    """One test's database: the settings its servers need, a way to read one value, a clean-up."""

    kind = ""

    @abstractmethod
    def env(self) -> dict[str, str]: ...

    @abstractmethod
    def scalar(self, sql: str) -> object: ...

    def drop(self) -> None:
        return None


class SqliteFile(FaultDatabase):
    kind = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path

    def env(self) -> dict[str, str]:
        return {"SQLITE_PATH": str(self.path), "DATABASE_URL": ""}

    def scalar(self, sql: str) -> object:
        with sqlite3.connect(self.path, timeout=20) as conn:
            return conn.execute(sql).fetchone()[0]


class OwnPostgres(FaultDatabase):
    kind = "postgres"

    def __init__(self) -> None:
        require("postgresql")
        import psycopg

        self.name = f"faults_{os.getpid()}_{next(_numbers)}"
        with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}"')
            conn.execute(f'CREATE DATABASE "{self.name}"')
        base = ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgres://", 1)
        self.url = f"{base}/{self.name}"

    def env(self) -> dict[str, str]:
        return {"DATABASE_URL": self.url}

    def scalar(self, sql: str) -> object:
        import psycopg

        with psycopg.connect(self.url.replace("postgres://", "postgresql://", 1)) as conn:
            row = conn.execute(sql).fetchone()
            return row[0] if row else None

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def open_database(kind: str, tmp_path: Path) -> FaultDatabase:
    return OwnPostgres() if kind == "postgres" else SqliteFile(tmp_path / "faults.sqlite3")
