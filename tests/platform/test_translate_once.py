"""``{% translate %}`` of a literal looked up once per language (tables.templatetags.translate_once)
must read exactly as Django's own tag: in every fragment of random games of every game, for every
seat, the host and a spectator, in both languages; and a language switched back and forth, a
message context, ``as`` and filters, autoescaping on and off.

Persona: Afsaneh hosts practice tables of bots.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.template import Context, Template
from django.templatetags.i18n import TranslateNode
from django.utils import translation

from tables import renderer
from tables.templatetags import translate_once
from tests.platform.helpers import BOT_GAMES, assert_fragments_unchanged_by, whole_bot_game

SAMPLES = (
    '{% translate "Your turn" %}|{% translate "out" context "a dead player" %}|'
    '{% translate "Your turn" as t %}{{ t }}|{% translate "Your turn"|upper %}|{% translate "a <b> & c" %}|'
    '{% autoescape off %}{% translate "a <b> & c" %}{% endautoescape %}'
)


@pytest.fixture(autouse=True)
def _fresh_caches():
    renderer.clear_caches()
    translate_once._texts.clear()
    yield
    renderer.clear_caches()
    translate_once._texts.clear()


def _as_django_does(monkeypatch_context) -> None:
    monkeypatch_context.setattr(translate_once.TranslateOnceNode, "render", TranslateNode.render)


def _samples(load: str, language: str) -> str:
    with translation.override(language):
        return Template("{% load " + load + " %}" + SAMPLES).render(Context({}))


def test_literals_read_as_djangos_translate_in_each_language_switched_back_and_forth():
    expected = {language: _samples("i18n", language) for language in ("fa", "en")}
    assert expected["fa"] != expected["en"]
    for language in ("fa", "en", "fa", "en"):
        assert _samples("i18n translate_once", language) == expected[language]
    assert translate_once._texts, "the plain literals were kept"


@pytest.mark.django_db
@pytest.mark.parametrize(("slug", "players"), BOT_GAMES)
def test_every_fragment_reads_as_with_djangos_translate(slug, players, monkeypatch):
    host = get_user_model().objects.create_user(username=f"afsaneh-{slug}", password="a-long-password-1")
    snapshots = whole_bot_game(slug, players, host, seed=9, step=4)
    assert_fragments_unchanged_by(snapshots, players, monkeypatch, _as_django_does)
