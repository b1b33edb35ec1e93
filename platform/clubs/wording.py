"""A stored text of the night's pure modules (clubs.texts: the seating's steps, why someone sits
out, a refused swap) said in the reader's language: people by their names, games by their
translated names with their player counts, lists with the language's separator.

Rows stored before the texts kept their games, tables and people as data hold them as plain text
("dracula (2-2), monster (3-3)"): those are read back into data where they parse, so an old
round's steps read as well as a new one's.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext, ngettext

from clubs.models import CheckIn, Night
from clubs.texts import Text
from shabneshin.localize import digits, list_separator
from tables.models import game_name

PERSON_IN_TEXT = re.compile(r"\b([uw][0-9]+)\b")
FIRST_STRONG_ISOLATE, POP_ISOLATE = "\u2068", "\u2069"
_NAME = re.compile(f"({FIRST_STRONG_ISOLATE}[^{POP_ISOLATE}]*{POP_ISOLATE})")
_OLD_GAME = re.compile(r"^([a-z]+) \(([0-9]+)-([0-9]+)\)$")  # dracula (2-2)
_OLD_TABLE = re.compile(r"^([a-z]+) ([0-9]+)(?:\+([0-9]+))?$")  # monster 3+1
_OLD_PERSON = re.compile(r"^([uw][0-9]+)$")  # u17
_OLD_LISTS = {"games": _OLD_GAME, "tables": _OLD_TABLE, "order": _OLD_PERSON, "people": _OLD_PERSON}


def names(night: Night) -> dict[str, str]:
    """Who is who at ``night``: each checked-in person's opaque id (clubs.seating's) to their name."""
    return {row.person: str(row.user) for row in CheckIn.objects.filter(night=night).select_related("user")}


def say(value: Any, who: dict[str, str]) -> str:
    """A stored text (msgid and parameters, or plain text) in the active language, people named,
    its numbers in the language's digits: never a name's («P3» stays P3 on a Persian page), so the
    text is not to be put through ``digits`` again."""
    if isinstance(value, dict):
        params = {k: _shown(_as_data(k, v), who) for k, v in value.get("params", {}).items()}
        text = str(Text.from_dict({"msgid": value["msgid"], "params": params}))
    else:
        text = str(value)
    text = PERSON_IN_TEXT.sub(lambda m: _person(m.group(1), who), text)
    return "".join(part if _NAME.fullmatch(part) else digits(part) for part in _NAME.split(text))


def _person(person: str, who: dict[str, str]) -> str:
    """A person's name, isolated: a list of right-to-left names in an English line (or of Latin
    ones in a Persian line) keeps its order, as a ``<bdi>`` keeps it in markup."""
    name = who.get(person)
    return f"{FIRST_STRONG_ISOLATE}{name}{POP_ISOLATE}" if name is not None else person


def _as_data(key: str, value: Any) -> Any:
    """An old row's list of games, tables or people, stored as plain text, as the data a new row
    keeps (a text that does not parse stays as it is)."""
    pattern = _OLD_LISTS.get(key)
    if pattern is None or not isinstance(value, str):
        return value
    kind = "people" if pattern is _OLD_PERSON else key
    if value == "-":
        return {kind: []}
    found = [pattern.match(item) for item in value.split(", ")]
    if not all(found):
        return value
    if kind == "people":
        return {kind: [m.group(1) for m in found if m]}
    return {kind: [[m.group(1), int(m.group(2)), int(m.group(3) or 0)] for m in found if m]}


def _shown(value: Any, who: dict[str, str]) -> Any:
    if isinstance(value, str):
        return _person(value, who)
    if not isinstance(value, dict):
        return value
    if "game" in value:
        return game_name(value["game"])
    if "games" in value:
        items = [_game_with_limits(slug, low, high) for slug, low, high in value["games"]]
    elif "tables" in value:
        items = [_table(slug, seated, bots) for slug, seated, bots in value["tables"]]
    elif "people" in value:
        items = [_person(p, who) for p in value["people"]]
    else:
        return str(value)
    return list_separator().join(items) or "—"


def _game_with_limits(slug: str, low: int, high: int) -> str:
    if low == high:
        return ngettext("%(game)s (%(n)d player)", "%(game)s (%(n)d players)", low) % {
            "game": game_name(slug),
            "n": low,
        }
    return gettext("%(game)s (%(min)d to %(max)d players)") % {"game": game_name(slug), "min": low, "max": high}


def _table(slug: str, seated: int, bots: int) -> str:
    players = ngettext("%(n)d player", "%(n)d players", seated) % {"n": seated}
    if not bots:
        return gettext("%(game)s with %(players)s") % {"game": game_name(slug), "players": players}
    return gettext("%(game)s with %(players)s and %(bots)s") % {
        "game": game_name(slug),
        "players": players,
        "bots": ngettext("%(n)d bot", "%(n)d bots", bots) % {"n": bots},
    }
