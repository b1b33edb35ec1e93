"""slug -> engine: every ``games/<slug>/engine.py`` that defines ``ENGINE`` is a game."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import games
from games.base import Engine


@cache
def _engines() -> dict[str, Engine]:
    found: dict[str, Engine] = {}
    for module in sorted(pkgutil.iter_modules(games.__path__), key=lambda m: m.name):
        if not module.ispkg:
            continue
        engine_module = importlib.import_module(f"games.{module.name}.engine")
        engine = engine_module.ENGINE
        if engine.slug != module.name:
            raise AssertionError(f"games/{module.name}/engine.py declares slug {engine.slug!r}")
        found[engine.slug] = engine
    return found


def get(slug: str) -> Engine:
    """The engine registered as ``slug``; ``KeyError`` for an unknown game."""
    return _engines()[slug]


def all() -> list[Engine]:  # noqa: A001 - the contract's name (ARCHITECTURE §2)
    """Every engine, in slug order."""
    return list(_engines().values())
