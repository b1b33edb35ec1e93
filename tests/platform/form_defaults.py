"""What a browser sends for a page's form left as it came: each text box's value, each ticked
box, each select's selected option (else its first)."""

from __future__ import annotations

from html.parser import HTMLParser


class _Form(HTMLParser):
    def __init__(self, testid: str) -> None:
        super().__init__(convert_charrefs=True)
        self.testid = testid
        self.inside = False
        self.data: dict[str, str] = {}
        self.select: str | None = None
        self.first_option: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("data-testid") == self.testid:
            self.inside = True
        if not self.inside or "disabled" in a:
            return
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.data[a["name"]] = a.get("value", "on") or "on"
            elif kind not in ("submit", "button"):
                self.data[a["name"]] = a.get("value", "")
        elif tag == "select":
            self.select, self.first_option = a.get("name"), None
        elif tag == "option" and self.select:
            if self.first_option is None:
                self.first_option = a.get("value", "")
                self.data.setdefault(self.select, self.first_option)
            if "selected" in a:
                self.data[self.select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "form":
            self.inside = False


def form_defaults(page: str, testid: str) -> dict[str, str]:
    parser = _Form(testid)
    parser.feed(page)
    return parser.data
