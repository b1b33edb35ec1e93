"""Finds Latin digits a Persian reader would see: in text nodes, outside ``dir="ltr"`` islands,
``<script>`` and ``<style>``. Attribute values (JSON, form values, ids) are never text."""

from __future__ import annotations

import re
from html.parser import HTMLParser

LATIN_DIGIT = re.compile(r"[0-9]")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SKIPPED = {"script", "style"}


class _Scanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        # One entry per open element: (tag, hidden-from-the-scan).
        self.stack: list[tuple[str, bool]] = []
        self.found: list[str] = []
        self.markup_in_attributes: list[str] = []

    def _hidden(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.markup_in_attributes += [f"{tag} {k}={v!r}" for k, v in attrs if v and "<" in v]
        if tag in VOID:
            return
        direction = dict(attrs).get("dir")
        hidden = tag in SKIPPED or direction == "ltr" or (self._hidden() and direction != "rtl")
        self.stack.append((tag, hidden))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if not self._hidden() and LATIN_DIGIT.search(data):
            path = "/".join(tag for tag, _ in self.stack[-3:])
            self.found.append(f"{path}: {data.strip()[:80]!r}")


def latin_digits_in_text(html: str) -> list[str]:
    """Each text node that shows a Latin digit, with where it sits."""
    scanner = _Scanner()
    scanner.feed(html)
    scanner.close()
    return scanner.found


def markup_in_attributes(html: str) -> list[str]:
    """Attributes whose value holds markup (a ``<bdi>`` rendered into a title, say)."""
    scanner = _Scanner()
    scanner.feed(html)
    scanner.close()
    return scanner.markup_in_attributes
