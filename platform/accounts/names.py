"""What a display name may be: no invisible format characters, and nothing a practice bot is called.

Unicode format characters (category Cf: bidi overrides and isolates, zero-width joiners and
spaces, the byte-order mark) let a name reverse or hide the rest of a line, so they are removed.
The zero-width non-joiner is the one exception: Persian spelling needs it (می‌روم), and it has no
effect on direction. A name that reads like a bot's seat label ("Bot 3", «ربات ۳», in any digits
or letter widths) is refused, so a player can always tell the bots from the people.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

ZWNJ = "\u200c"
# The words the seat labels use for a bot, in every language the site speaks.
BOT_WORDS = ("bot", "ربات")
_BOT_LIKE = re.compile(rf"^(?:{'|'.join(BOT_WORDS)})[\s\d]*$")
_SPACES = re.compile(r"\s+")


def without_format_characters(text: str) -> str:
    """``text`` without Cf characters (but the ZWNJ), its runs of spaces made one."""
    kept = "".join(ch for ch in text if ch == ZWNJ or unicodedata.category(ch) != "Cf")
    return _SPACES.sub(" ", kept).strip()


def looks_like_a_bot(name: str) -> bool:
    folded = unicodedata.normalize("NFKC", without_format_characters(name).replace(ZWNJ, "")).casefold()
    # Any script's decimal digits count as digits: \d matches them, and so does int().
    return bool(_BOT_LIKE.match(folded))


def clean_display_name(name: str) -> str:
    """The name as it will be stored, or a translated ``ValidationError``."""
    cleaned = without_format_characters(name)
    if len(cleaned) < 2:
        raise ValidationError(_("A display name needs at least two visible characters."), code="too_short")
    if looks_like_a_bot(cleaned):
        raise ValidationError(_("That name is kept for the practice bots: pick another one."), code="bot_like")
    return cleaned
