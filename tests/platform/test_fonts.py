"""The Persian font travels with the site: Vazirmatn's woff2 files and licence under static/,
@font-face rules with font-display: swap and a unicode-range per subset, linked from every page,
served by our own static handler, and nothing fetched from elsewhere."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent.parent
FONTS_CSS = ROOT / "static" / "css" / "fonts.css"
FONT_DIR = ROOT / "static" / "fonts" / "vazirmatn"


def _faces() -> list[str]:
    return re.findall(r"@font-face\s*\{(.*?)\}", FONTS_CSS.read_text(), re.S)


def test_every_face_swaps_and_names_its_subset_and_an_existing_file():
    faces = _faces()
    assert len(faces) == 4  # Arabic script and Latin, regular and bold
    for face in faces:
        assert "font-display: swap" in face and "unicode-range:" in face
        (url,) = re.findall(r'url\("([^"]+)"\)', face)
        assert (FONTS_CSS.parent / url).resolve().is_file(), url
    assert {re.search(r"font-weight: (\d+)", f)[1] for f in faces} == {"400", "700"}
    ranges = {re.search(r"unicode-range: ([^;]+);", f)[1] for f in faces}
    assert len(ranges) == 2 and any("U+0600-06FF" in r for r in ranges)


def test_the_font_ships_with_its_licence():
    assert "SIL Open Font License" in (FONT_DIR / "OFL.txt").read_text()


def test_no_stylesheet_fetches_anything_from_another_site():
    for css in (ROOT / "static").rglob("*.css"):
        assert not re.search(r"url\(\s*['\"]?(https?:)?//", css.read_text()), css


def test_every_page_links_the_font_rules_before_the_site_styles(client, db):
    page = client.get(reverse("tables:lobby")).content.decode()
    assert page.index("css/fonts.css") < page.index("css/site.css")
    assert "font-family: var(--font)" in (ROOT / "static/css/site.css").read_text()
    assert '--font: "Vazirmatn"' in (ROOT / "static/css/site.css").read_text()


@pytest.mark.parametrize("name", sorted(p.name for p in FONT_DIR.glob("*.woff2")))
async def test_the_static_handler_serves_the_font_files(name):
    from shabneshin.asgi import application

    sent: list[dict] = []
    requested = False

    async def receive() -> dict:
        nonlocal requested
        if requested:  # the browser stays until the response is over (Django stops listening then)
            await asyncio.Event().wait()
        requested = True
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    path = f"/static/fonts/vazirmatn/{name}"
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b""}
    scope |= {"headers": [(b"host", b"127.0.0.1")], "server": ("127.0.0.1", 8000), "scheme": "http"}
    await application(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    assert start["status"] == 200
    assert dict(start["headers"]).get(b"Content-Type", b"").startswith(b"font/woff2")
    assert body == (FONT_DIR / name).read_bytes()
