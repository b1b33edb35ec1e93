"""Shabneshin's one settings file, driven by the environment (see env.py)."""
from __future__ import annotations

from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent.parent
SECRET_KEY = "dev-only"
INSTALLED_APPS: list[str] = []
