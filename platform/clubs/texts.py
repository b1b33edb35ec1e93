"""Translatable texts for the night's pure modules (seating, points, fair roles).

Those modules import nothing of Django, so that they can be property-tested like an engine; yet
what they say (why someone is unseated, a step of the seating's trace, a refused swap) is shown
to people. ``_(msgid, **params)`` returns a :class:`Text`: a ``str`` in the language active at the
call (English when Django is not set up), which keeps its ``msgid`` and ``params`` so that a page
in another language can say it again with :meth:`Text.translated`. ``makemessages`` finds the
msgids because the function is called ``_``.
"""

from __future__ import annotations

from typing import Any


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
        self = super().__new__(cls, text % params if params else text)
        self.msgid = msgid
        self.params = params
        return self

    def translated(self) -> Text:
        """The same text in the language active now."""
        return Text(self.msgid, **self.params)

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
