"""A whole-number field reads any digits and refuses in the page's language and digits."""

from __future__ import annotations

import pytest
from django import forms
from django.utils import translation

from shabneshin.number_inputs import DigitsIntegerField


def _refusal(field: DigitsIntegerField, typed: str) -> str:
    with pytest.raises(forms.ValidationError) as refused:
        field.clean(typed)
    return " ".join(refused.value.messages)


@pytest.mark.parametrize(("typed", "read"), [("۱۲", 12), ("١٢", 12), ("12", 12), (" ۷ ", 7), ("-۳", -3)])
def test_it_reads_persian_arabic_indic_and_latin_digits(typed, read):
    assert DigitsIntegerField().clean(typed) == read


def test_it_refuses_in_the_pages_language_and_digits():
    field = DigitsIntegerField(min_value=1, max_value=10)
    with translation.override("fa"):
        assert _refusal(field, "۱۱") == "عددی از ۱ تا ۱۰ بنویسید."
        assert _refusal(field, "یازده") == "یک عدد صحیح بنویسید."
        assert _refusal(DigitsIntegerField(min_value=2), "۱") == "عددی دست‌کم ۲ بنویسید."
    with translation.override("en"):
        assert _refusal(field, "0") == "Give a number from 1 to 10."
        assert _refusal(DigitsIntegerField(max_value=5), "9") == "Give a number of at most 5."
        assert _refusal(field, "1.5") == "Enter a whole number."


def test_a_persian_box_is_numeric_text_in_persian_digits_and_an_english_one_the_browsers():
    field = DigitsIntegerField(min_value=1, max_value=10)
    attrs = field.widget_attrs(field.widget)
    with translation.override("fa"):
        persian = field.widget.render("n", 7, attrs)
    with translation.override("en"):
        english = field.widget.render("n", 7, attrs)
    assert 'type="text"' in persian and 'inputmode="numeric"' in persian and 'value="۷"' in persian
    assert "min=" not in persian
    assert 'type="number"' in english and 'min="1"' in english and 'max="10"' in english and 'value="7"' in english
