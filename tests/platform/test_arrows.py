"""A chain read in order (a colour ranking, trump first) is joined by an arrow that points the way
the page reads: ← on a Persian page, → on an English one. Never «›», which one browser mirrors in
right-to-left text and another does not, so on a Persian page it pointed the wrong way."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"
RANKING = ["Y", "R", "P", "G"]
FORWARD = {"fa": "←", "en": "→"}


def _comparison() -> dict:
    return {"round": 1, "ranking": RANKING, "districts": [], "lives": 12, "ended_by": "call"}


def _trump_changed() -> dict:
    return {"to": None, "kind": "trump_changed", "seat": 0, "colour": "Y", "ranking": RANKING}


@pytest.mark.parametrize("language", ["fa", "en"])
def test_the_ranking_used_in_a_dracula_fight_points_the_way_the_page_reads(language):
    with translation.override(language):
        html = render_to_string("games/dracula/_comparison.html", {"cmp": _comparison()})
    ranking = html.split('class="dv-rank-mini"')[1].split("</p>")[0]
    assert "›" not in ranking
    assert ranking.count(FORWARD[language]) == len(RANKING) - 1


@pytest.mark.parametrize("language", ["fa", "en"])
def test_a_new_trump_in_dracula_s_log_lists_the_ranking_the_way_the_page_reads(language):
    with translation.override(language):
        html = render_to_string("games/dracula/_log_entry.html", {"entry": _trump_changed(), "names": ["Alice", "Bob"]})
    assert "›" not in html
    assert html.count(FORWARD[language]) == len(RANKING) - 1


def test_no_template_of_the_site_joins_a_chain_with_a_mirrored_angle_quote():
    """Django's own admin breadcrumbs keep its «&rsaquo;» (templates/admin/ only restyles them)."""
    found = [
        str(path.relative_to(TEMPLATES))
        for path in TEMPLATES.rglob("*.html")
        if "admin" not in path.parts and ("›" in (text := path.read_text()) or "&rsaquo;" in text)
    ]
    assert not found
