"""Translatable texts for the night's pure modules (seating, points, fair roles).

Those modules import nothing of Django, so that they can be property-tested like an engine; yet
what they say (why someone is unseated, a step of the seating's trace, a refused swap) is shown
to people. ``_(msgid, **params)`` returns a :class:`Text`: a ``str`` in the language active at the
call (English when Django is not set up), which keeps its ``msgid`` and ``params`` so that a page
in another language can say it again with :meth:`Text.translated`. ``makemessages`` finds the
msgids because the function is called ``_``.

A parameter that names games, tables or people is kept as data, not as text (:func:`games`,
:func:`tables`, :func:`people`, :func:`game`): the ``str`` shows it plainly, with the games'
slugs and the people's ids, and a page says it in its own words (clubs.wording: the games'
names, the people's names, the language's list separator and digits).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

# --- parameters kept as data (JSON: stored with the text) --------------------------------------


def games(choices: Iterable[tuple[str, int, int]]) -> dict[str, Any]:
    """The games of a round, each with its player limits: (slug, min, max)."""
    return {"games": [[slug, low, high] for slug, low, high in choices]}


def tables(drafts: Iterable[tuple[str, int, int]]) -> dict[str, Any]:
    """Tables by their game and size: (slug, people, bots)."""
    return {"tables": [[slug, seated, bots] for slug, seated, bots in drafts]}


def people(ids: Iterable[str]) -> dict[str, Any]:
    """People by their opaque ids (u17, w3), in the order given."""
    return {"people": list(ids)}


def game(slug: str) -> dict[str, Any]:
    return {"game": slug}


def plain(value: Any) -> Any:
    """A parameter as the ``str`` of a text shows it: data spelled with slugs and ids."""
    if not isinstance(value, dict):
        return value
    if "games" in value:
        return ", ".join(f"{slug} ({low}-{high})" for slug, low, high in value["games"]) or "-"
    if "tables" in value:
        return ", ".join(f"{slug} {n}" + (f"+{bots}" if bots else "") for slug, n, bots in value["tables"]) or "-"
    if "people" in value:
        return ", ".join(value["people"]) or "-"
    if "game" in value:
        return value["game"]
    raise ValueError(f"not a text parameter: {value!r}")



def _gettext(msgid: str) -> str:
    try:
        from django.core.exceptions import AppRegistryNotReady, ImproperlyConfigured
        from django.utils.translation import gettext
    except ImportError:
        return msgid
    try:
        return gettext(msgid)
    except (AppRegistryNotReady, ImproperlyConfigured):
        return msgid


class Text(str):
    """A translated text that remembers its msgid and parameters."""

    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, **params: Any) -> Text:
        text = _gettext(msgid)
        self = super().__new__(cls, text % {k: plain(v) for k, v in params.items()} if params else text)
        self.msgid = msgid
        self.params = params
        return self

    def translated(self, **override: Any) -> Text:
        """The same text in the language active now; ``override`` replaces parameters (a page
        shows a person's name where the module wrote their id)."""
        return Text(self.msgid, **{**self.params, **override})

    def to_dict(self) -> dict[str, Any]:
        return {"msgid": self.msgid, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Text:
        return cls(data["msgid"], **data.get("params", {}))


def _(msgid: str, **params: Any) -> Text:
    return Text(msgid, **params)


class Refused(ValueError):
    """An action on a night's draft that changes nothing; ``text`` is a :class:`Text`."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text
