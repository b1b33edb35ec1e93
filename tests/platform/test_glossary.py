"""The Persian catalogues speak with one voice: every msgid has a Persian msgstr (none fuzzy), and
none uses a variant the glossary (locale/GLOSSARY.md) rejects."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
GLOSSARY = ROOT / "locale" / "GLOSSARY.md"
CATALOGUES = [
    ROOT / "locale/fa/LC_MESSAGES/django.po",
    *sorted(ROOT.glob("templates/games/*/locale/fa/LC_MESSAGES/django.po")),
]


def _entries(po: Path) -> list[dict[str, Any]]:
    """The catalogue's live entries: ``msgid``, ``msgstrs`` (every plural form), ``fuzzy``."""
    entries = []
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.strip().splitlines() if not line.startswith("#~")]
        fields: dict[str, list[str]] = {}
        current: list[str] | None = None
        for line in lines:
            match = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$', line)
            if match:
                current = fields.setdefault(match[1], [])
                current.append(match[2])
            elif line.startswith('"') and current is not None:
                current[-1] += line[1:-1]
        if not fields.get("msgid", [""])[0]:
            continue  # the header, or an obsolete entry
        msgstrs = [v[0] for k, v in fields.items() if k.startswith("msgstr")]
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        entries.append({"msgid": fields["msgid"][0], "msgstrs": msgstrs, "fuzzy": fuzzy})
    return entries


def _glossary() -> list[tuple[str, re.Pattern[str], str]]:
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if len(cells) == 5 and cells[3].startswith("`"):
            rejected = cells[3].strip("`").replace("\\|", "|")
            rows.append((cells[0], re.compile(rejected), cells[4]))
    return rows


def _scope_of(po: Path) -> str:
    parts = po.relative_to(ROOT).parts
    return parts[2] if parts[0] == "templates" else "site"


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: _scope_of(p))
def test_every_msgid_of_every_persian_catalogue_has_a_msgstr_and_none_is_fuzzy(po):
    entries = _entries(po)
    assert len(entries) > 10
    missing = [e["msgid"] for e in entries if not e["msgstrs"] or "" in e["msgstrs"]]
    fuzzy = [e["msgid"] for e in entries if e["fuzzy"]]
    assert not missing, f"untranslated in {po.relative_to(ROOT)}: {missing[:10]}"
    assert not fuzzy, f"fuzzy in {po.relative_to(ROOT)}: {fuzzy[:10]}"


def test_the_glossary_names_the_terms_the_issue_asked_for():
    terms = {term for term, _, _ in _glossary()}
    assert {"vote", "password", "doctor", "wolf", "villager"} <= terms


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: _scope_of(p))
def test_no_persian_text_uses_a_variant_the_glossary_rejects(po):
    scope = _scope_of(po)
    texts = [text for e in _entries(po) for text in e["msgstrs"]]
    rules = po.parent.parent.parent.parent / "_rules_fa.html"
    if rules.exists():
        texts.append(rules.read_text(encoding="utf-8"))
    found = [
        (term, text[:60])
        for term, rejected, where in _glossary()
        if where in ("all", scope)
        for text in texts
        if rejected.search(text)
    ]
    assert not found, found


def test_the_glossary_check_catches_a_rejected_variant():
    vote = next(rejected for term, rejected, _ in _glossary() if term == "vote")
    assert vote.search("به او رای دادید") and not vote.search("به او رأی دادید") and not vote.search("رایج برای")


def test_the_glossary_rejects_the_ezafe_written_with_a_joiner_but_not_the_indefinite():
    ezafe = next(rejected for term, rejected, _ in _glossary() if term == "ezafe after a silent h")
    assert ezafe.search("خانه\u200cی ۱") and ezafe.search("همه\u200cی")
    assert not ezafe.search("خانهٔ ۱") and not ezafe.search("خانه\u200cای") and not ezafe.search("نقره\u200cیی")


def test_monsters_persian_card_names_use_no_variant_the_glossary_rejects():
    from games.monster.cards import VICTIM_LIST

    found = [
        (term, victim["name_fa"])
        for term, rejected, where in _glossary()
        if where in ("all", "monster")
        for victim in VICTIM_LIST
        if rejected.search(victim["name_fa"])
    ]
    assert not found, found


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: _scope_of(p))
def test_a_signed_number_in_persian_keeps_its_sign_on_its_left(po):
    """Dracula's «−۱ جان»: a sign before Persian digits is turned to the digits' right by
    right-to-left text unless a left-to-right isolate (U+2066 … U+2069) or mark (U+200E) holds the
    two together; and the minus is the minus sign U+2212, not the hyphen."""
    signed = re.compile("(?<![\u2066\u200e])[+\u2212][\u06f0-\u06f9]|-[\u06f0-\u06f9]")
    found = [text for e in _entries(po) for text in e["msgstrs"] if signed.search(text)]
    assert not found, found
