from __future__ import annotations

import pytest

from tests.faults.databases import open_database


@pytest.fixture
def fault_database(request, tmp_path):
    """The database a fault test's processes share (parametrized "sqlite" or "postgres"); a
    PostgreSQL one is the test's own, dropped afterwards whatever happened."""
    db = open_database(request.param, tmp_path)
    yield db
    db.drop()
