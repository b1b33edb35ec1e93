"""Every option of every game explains itself on the create-table form: a short help text under
its choice, in both languages, that assistive technology reads with the choice
(``aria-describedby``). Persona: Afsaneh, signed in, opens each game's new-table form; as host she
opens the settings of her open table."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games import registry
from tables import seating

pytestmark = pytest.mark.django_db

PERSIAN_LETTERS = re.compile("[\u0600-\u06ff]")
SHORT = 120  # characters: about two lines of small text on a phone (tests/e2e/test_create_form.py)
GAMES_WITH_OPTIONS = sorted(engine.slug for engine in registry.all() if engine.options)


class _Form(HTMLParser):
    """The form's controls (name -> attributes), each element's text by id, and the order in which
    controls and ids appear."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: dict[str, dict[str, str]] = {}
        self.text: dict[str, str] = {}
        self.order: list[str] = []
        self._open: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag in ("select", "input") and found.get("name", "").startswith("opt_"):
            self.controls[found["name"]] = found
            self.order.append(found["name"])
        if tag not in ("input", "br", "img", "meta", "link"):
            self._open.append(found.get("id"))
            if found.get("id"):
                self.text[found["id"]] = ""
                self.order.append(found["id"])

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("input", "br", "img", "meta", "link") and self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for element in self._open:
            if element:
                self.text[element] += data


def _form(client, user, url: str, language: str) -> _Form:  # noqa: ANN001
    client.force_login(user)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    parsed = _Form()
    parsed.feed(response.content.decode())
    return parsed


def test_every_option_of_every_game_has_a_short_help_translated_into_persian():
    options = [(engine.slug, option) for engine in registry.all() for option in engine.options]
    assert len(options) >= 20
    for slug, option in options:
        assert option.help and len(option.help) <= SHORT, (slug, option.key, option.help)
        with translation.override("fa"):
            persian = gettext(option.help)
        assert persian != option.help and PERSIAN_LETTERS.search(persian), (slug, option.key)


@pytest.mark.parametrize("language", ["en", "fa"])
@pytest.mark.parametrize("slug", GAMES_WITH_OPTIONS)
def test_the_new_table_form_shows_each_options_help_under_it_and_names_it_for_screen_readers(
    client, alice, slug, language
):
    form = _form(client, alice, f"/new/{slug}/", language)
    engine = registry.get(slug)
    for option in engine.options:
        name = f"opt_{option.key}"
        help_id = f"id_{name}_helptext"
        assert help_id in form.controls[name].get("aria-describedby", "").split(), (name, form.controls[name])
        with translation.override(language):
            expected = gettext(option.help)
        assert form.text[help_id].strip() == expected, name
        assert form.order.index(help_id) > form.order.index(name), "the help stands under its choice"


def test_the_hosts_settings_page_shows_the_same_help(client, alice):
    table = seating.create_table(alice, "monster", 3, "private")
    form = _form(client, alice, f"/t/{table.token}/host/settings/", "en")
    for option in registry.get("monster").options:
        help_id = f"id_opt_{option.key}_helptext"
        assert form.text[help_id].strip() == option.help
        assert help_id in form.controls[f"opt_{option.key}"]["aria-describedby"]
