"""The guest cards of Night of the Mummy (spec §1, §1.1) and the guest-list rules (§2.2, §2.3).

Everything here is static data and pure checks: no state, no chance.
"""

from __future__ import annotations

from collections.abc import Iterable

MUMMY = "MUMMY"
ARCHEOLOGIST = "ARCHEOLOGIST"
CAT_BURGLAR = "CAT_BURGLAR"
SARCOPHAGUS = "SARCOPHAGUS"
SASQUATCH = "SASQUATCH"
GARGOYLE = "GARGOYLE"
ANUBIS = "ANUBIS"
MAGIC_MIRROR = "MAGIC_MIRROR"
PHANTOM = "PHANTOM"
DORIAN = "DORIAN"

BASIC = (MUMMY, ARCHEOLOGIST, CAT_BURGLAR, SARCOPHAGUS, SASQUATCH, GARGOYLE, ANUBIS)
ADVANCED = (MAGIC_MIRROR, PHANTOM, DORIAN)
# §1: canonical order, used for listings and timeout defaults.
CANONICAL = BASIC + ADVANCED

# §1.1 "hider": default dance face is hidden (Sasquatch counts, §9.12).
HIDERS = frozenset({MUMMY, SARCOPHAGUS, SASQUATCH, ANUBIS, PHANTOM, DORIAN})
# §1.1: must accept every dance invitation.
MUST_ACCEPT = frozenset({ARCHEOLOGIST, SARCOPHAGUS})
# §1.1: may not invite to dance.
CANNOT_INVITE = frozenset({MAGIC_MIRROR, DORIAN})
# §2.3 V4: these need at least 3 hiders in the game.
NEEDS_THREE_HIDERS = frozenset({CAT_BURGLAR, MAGIC_MIRROR})

# §2.2: players -> (guests in the game, mystery guests)
SIZES = {4: (6, 2), 5: (7, 2), 6: (7, 1), 7: (8, 1), 8: (9, 1)}

YES = "YES"
NO = "NO"


def canonical(guests: Iterable[str]) -> list[str]:
    """``guests`` in canonical order."""
    chosen = set(guests)
    return [g for g in CANONICAL if g in chosen]


def list_problem(guests: list[str], n_players: int, advanced: bool) -> str | None:
    """Why ``guests`` cannot be this table's guest list (§2.3 V1–V4), or ``None`` when it can."""
    total, _ = SIZES[n_players]
    unknown = [g for g in guests if g not in CANONICAL]
    if unknown:
        return f"unknown guest(s) {unknown}"
    if len(set(guests)) != len(guests):
        return "a guest appears twice"
    if len(guests) != total:
        return f"a {n_players}-player game has {total} guests, not {len(guests)}"
    if MUMMY not in guests:
        return "the Mummy is always in the game"
    if not advanced and any(g in ADVANCED for g in guests):
        return "advanced guests are switched off"
    hiders = sum(1 for g in guests if g in HIDERS)
    if hiders < 2:
        return f"at least 2 hiders are needed, this list has {hiders}"
    needy = [g for g in guests if g in NEEDS_THREE_HIDERS]
    if needy and hiders < 3:
        return f"{' and '.join(needy)} need(s) at least 3 hiders, this list has {hiders}"
    return None


def answer_inquiry(guest: str, asked: str) -> str:
    """§4.5: the whispered answer to "are you ``asked``?"."""
    if guest == MUMMY:
        return NO
    if guest == SARCOPHAGUS:
        return YES
    return YES if guest == asked else NO


def answer_accusation(guest: str, named: str) -> str:
    """§4.5: accusations are answered truthfully by everyone."""
    return YES if guest == named else NO
