"""The role cards as data (§9): base roles and our rulings for the eight special roles.

``side`` is the side a role starts on (``AGENTS`` or ``INSIDER``), or ``None`` for a role whose
winning is decided at the end from another player (S3 Rival, S4 Shadow, S7 Scapegoat, §9.2).
``is_insider`` marks "the Insider": the one the vote hunts, the only one whose tokens can win.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import OptionsRefused, gettext_noop

AGENTS = "AGENTS"
INSIDER_SIDE = "INSIDER"


@dataclass(frozen=True)
class Role:
    id: str
    name: str
    side: str | None
    is_insider: bool = False
    follows_suit: bool = True
    vote_weight: int = 1
    intel_goal_delta: int = 0
    house: bool = False  # S5-S8: offered only behind the "house roles" flag (§9.2)
    confirmed: bool = False


ROLES: dict[str, Role] = {
    r.id: r
    for r in (
        Role("AGENT", gettext_noop("Agent"), AGENTS, confirmed=True),
        Role("INSIDER", gettext_noop("Insider"), INSIDER_SIDE, is_insider=True, follows_suit=False, confirmed=True),
        Role("S1", gettext_noop("Chief"), AGENTS, vote_weight=2),
        Role("S2", gettext_noop("Turncoat"), AGENTS),
        Role("S3", gettext_noop("Rival"), None),
        Role("S4", gettext_noop("Shadow"), None),
        Role("S5", gettext_noop("Informant"), AGENTS, house=True),
        Role("S6", gettext_noop("Sleeper"), INSIDER_SIDE, is_insider=True, intel_goal_delta=-1, house=True),
        Role("S7", gettext_noop("Scapegoat"), None, house=True),
        Role("S8", gettext_noop("Accomplice"), INSIDER_SIDE, house=True),
    )
}
SPECIAL_IDS: tuple[str, ...] = ("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8")
BASIC_SPECIALS: tuple[str, ...] = tuple(r for r in SPECIAL_IDS if not ROLES[r].house)
INSIDER_CARDS: frozenset[str] = frozenset(r.id for r in ROLES.values() if r.is_insider)


# §9.3 reasons, marked for translation (the platform shows them when a table is created).
NOT_SPECIAL_ROLES = gettext_noop(
    'Special roles are a list of distinct roles among S1 to S8 (one card per role), or {"random": k} with k at least 1.'
)
TOO_MANY_SPECIALS = gettext_noop("%(count)s special roles do not fit %(players)s players: at most %(most)s.")
TURNCOAT_WITH_ACCOMPLICE = gettext_noop(
    "The Turncoat and the Accomplice cannot both play at three players: the Insider would face a single real Agent."
)
NO_RANDOM_DECK = gettext_noop(
    "%(players)s players cannot draw %(count)s special roles at random from the roles offered."
)


def check_special_roles(value: Any) -> None:
    """§9.3 shape of ``special_roles``, whatever the player count: raises ``OptionsRefused``."""
    if isinstance(value, dict):
        k = value.get("random")
        if set(value) != {"random"} or not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise OptionsRefused(NOT_SPECIAL_ROLES)
        return
    if not isinstance(value, list) or not all(isinstance(r, str) and r in SPECIAL_IDS for r in value):
        raise OptionsRefused(NOT_SPECIAL_ROLES)
    if len(set(value)) != len(value):
        raise OptionsRefused(NOT_SPECIAL_ROLES)


def role_deck(n_players: int, specials: list[str]) -> list[str]:
    """§9.3: one insider card (Insider, or S6) plus ``n - 1`` others, specials replacing Agents.

    Raises ``OptionsRefused`` (a ``ValueError``) for an impossible list: unknown or repeated role,
    more roles than the ``n - 1`` Agent cards they replace, S2 with S8 at three players.
    """
    check_special_roles(list(specials))
    others = [s for s in specials if s != "S6"]
    if len(others) > n_players - 1:
        raise OptionsRefused(TOO_MANY_SPECIALS, count=len(others), players=n_players, most=n_players - 1)
    if n_players == 3 and "S2" in specials and "S8" in specials:
        raise OptionsRefused(TURNCOAT_WITH_ACCOMPLICE)
    insider = "S6" if "S6" in specials else "INSIDER"
    return [insider, *others, *["AGENT"] * (n_players - 1 - len(others))]
