"""Whole-number form fields in the page's digits.

On an English page a number box is the browser's own (``type="number"``, with its arrows and its
limits). A browser's number box shows and takes Latin digits only, so on a Persian page it is a
text box (``inputmode="numeric"``: a phone still opens its number pad) that shows its value in
Persian digits and takes a number typed in Persian, Arabic-Indic or Latin digits. The field reads
any of them back, and says what is wrong in the page's language and digits.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import translation
from django.utils.translation import gettext as _
from persiantools import digits as _digits

from shabneshin.localize import digits, is_persian


def latin_digits(text: str) -> str:
    """Persian and Arabic-Indic digits as Latin ones (persiantools), surrounding spaces removed."""
    return str(_digits.fa_to_en(_digits.ar_to_fa(text))).strip()


class DigitsNumberInput(forms.NumberInput):
    """The browser's number box on an English page, a numeric text box in Persian digits on a
    Persian one (see the module)."""

    def format_value(self, value: Any) -> str | None:
        shown = super().format_value(value)
        if shown is not None and is_persian(translation.get_language()):
            return digits(shown, "fa")
        return shown

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        widget = context["widget"]
        if is_persian(translation.get_language()):
            widget["type"] = "text"
            widget["attrs"].setdefault("inputmode", "numeric")
            widget["attrs"].setdefault("autocomplete", "off")
            for limit in ("min", "max", "step"):  # a text box has no limits: the field checks them
                widget["attrs"].pop(limit, None)
        return context


class DigitsIntegerField(forms.IntegerField):
    """A whole number typed in any digits; a wrong one refused in the page's language and digits.
    ``invalid`` may replace the message for what is not a number at all."""

    widget = DigitsNumberInput

    def __init__(self, *, invalid: str | None = None, **kwargs: Any) -> None:
        self.low, self.high = kwargs.pop("min_value", None), kwargs.pop("max_value", None)
        self.invalid = invalid
        super().__init__(**kwargs)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = super().widget_attrs(widget)
        if self.low is not None:
            attrs["min"] = self.low
        if self.high is not None:
            attrs["max"] = self.high
        return attrs

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        text = latin_digits(str(value))
        if not (text.isascii() and text.lstrip("-").isdigit() and len(text) <= 9):
            raise forms.ValidationError(self.invalid or _("Enter a whole number."), code="invalid")
        return int(text)

    def validate(self, value: int | None) -> None:
        super().validate(value)
        if value is None:
            return
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            if self.low is not None and self.high is not None:
                told = _("Give a number from %(min)s to %(max)s.") % {"min": self.low, "max": self.high}
            elif self.low is not None:
                told = _("Give a number of at least %(min)s.") % {"min": self.low}
            else:
                told = _("Give a number of at most %(max)s.") % {"max": self.high}
            raise forms.ValidationError(digits(told), code="out_of_range")


def read_number(field: DigitsIntegerField, raw: str) -> int | None:
    """``raw`` (a posted value) read by ``field``; ValueError with the field's message if refused."""
    try:
        return field.clean(raw)
    except forms.ValidationError as exc:
        raise ValueError(" ".join(exc.messages)) from None
