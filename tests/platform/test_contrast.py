"""The site's palette reads: every colour a stylesheet sets as text from the palette reaches the
4.5:1 contrast WCAG asks of normal text on every panel, and so does white on a red badge (the red
of a lost rating, «‎-۳۱», read at 4.48:1 on a panel: axe flagged every rated match page)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parent.parent.parent / "static" / "css"
PANELS = ("--bg", "--panel", "--panel-2")


def _palette() -> dict[str, str]:
    root = re.search(r":root\s*{(.*?)}", (CSS / "site.css").read_text(), re.S)
    assert root is not None
    return dict(re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{6})", root[1]))


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _stylesheets() -> str:
    return "\n".join(path.read_text() for path in sorted(CSS.rglob("*.css")))


def _text_colours() -> set[str]:
    """The palette's names set as a text colour anywhere (``color: var(--x)``, not a background's)."""
    return set(re.findall(r"(?<![-\w])color:\s*var\((--[\w-]+)\)", _stylesheets()))


def test_the_check_finds_the_palettes_text_colours():
    assert {"--ink", "--muted", "--accent", "--good", "--danger-ink"} <= _text_colours()


# A text colour made for one background: the accent buttons' dark ink.
ON_ITS_OWN = {"--accent-ink": "--accent"}


@pytest.mark.parametrize("name", sorted(_text_colours() & set(_palette())))
def test_every_text_colour_of_the_palette_reads_on_every_panel(name):
    palette = _palette()
    for background in [ON_ITS_OWN[name]] if name in ON_ITS_OWN else PANELS:
        assert _contrast(palette[name], palette[background]) >= 4.5, (name, background)


def test_white_text_reads_on_every_badge_background():
    palette = _palette()
    badges = re.findall(r"background:\s*var\((--[\w-]+)\);\s*color:\s*#fff\b", _stylesheets())
    assert badges, "the unread and notification badges are white on red"
    for name in set(badges) & set(palette):  # a game's own colours (Dracula's suits) are its own
        assert _contrast("#ffffff", palette[name]) >= 4.5, name
