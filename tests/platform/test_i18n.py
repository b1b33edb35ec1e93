"""Every user-facing string is translated: Persian catalogues are complete and current, pages
render right-to-left in Persian and left-to-right in English, and the switcher works."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.components import require

ROOT = Path(__file__).resolve().parent.parent.parent


def _catalogues(root: Path) -> list[Path]:
    return sorted(root.glob("locale/fa/LC_MESSAGES/django.po")) + sorted(
        root.glob("templates/games/*/locale/fa/LC_MESSAGES/django.po")
    )


def _untranslated(po: Path) -> str:
    out = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)], capture_output=True, text=True, check=True
    )
    stats = out.stderr.strip()
    return "" if ("untranslated" not in stats and "fuzzy" not in stats) else stats


def test_every_persian_catalogue_is_complete_and_compiled():
    require("msgfmt")
    catalogues = _catalogues(ROOT)
    assert catalogues, "no Persian catalogue found"
    for po in catalogues:
        assert not _untranslated(po), f"{po.relative_to(ROOT)}: {_untranslated(po)}"
        assert po.with_suffix(".mo").exists(), f"{po.relative_to(ROOT)} is not compiled"


def test_catalogues_hold_every_string_of_the_current_sources(tmp_path):
    """makemessages over a copy of the sources finds nothing new that lacks a Persian text."""
    require("msgfmt")
    copy = tmp_path / "src"
    ignore = shutil.ignore_patterns("__pycache__", "golden", "*.mo", "*.jsonl")
    for name in ("platform", "games", "templates", "locale"):
        shutil.copytree(ROOT / name, copy / name, ignore=ignore)
    shutil.copy(ROOT / "manage.py", copy / "manage.py")
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "fa", "-v", "0"],
        cwd=copy,
        check=True,
        env={"PATH": "/usr/bin:/bin:/usr/local/bin", "DJANGO_SETTINGS_MODULE": "shabneshin.settings"},
    )
    problems = {str(po.relative_to(copy)): _untranslated(po) for po in _catalogues(copy)}
    assert not {k: v for k, v in problems.items() if v}


@pytest.mark.parametrize(("language", "direction", "brand"), [("fa", "rtl", "شب‌نشین"), ("en", "ltr", "Shabneshin")])
def test_pages_follow_the_browser_language(client, db, language, direction, brand):
    page = client.get(reverse("tables:lobby"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'lang="{language}" dir="{direction}"' in page and brand in page


def test_persian_is_the_fallback_language(client, db):
    page = client.get(reverse("tables:lobby"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'lang="fa" dir="rtl"' in page


def test_the_language_switcher_sets_the_language(client, db):
    client.post(reverse("set_language"), {"language": "en", "next": "/"}, HTTP_ACCEPT_LANGUAGE="fa")
    page = client.get(reverse("tables:lobby"), HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert 'lang="en"' in page
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
