"""Monster's victim cards for its templates, which receive victim ids only:
``{{ "V01"|victim }}`` is the card (``games.monster.cards.VICTIMS``) with ``label``, its name in
the current language (the Persian name from the card data, else the English one)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import get_language

from games.monster.cards import VICTIMS

register = template.Library()


@register.filter
def victim(victim_id: Any) -> dict[str, Any] | None:
    card = VICTIMS.get(str(victim_id))
    if card is None:
        return None
    persian = (get_language() or "").startswith("fa")
    return {**card, "label": card["name_fa"] if persian else card["name"]}
