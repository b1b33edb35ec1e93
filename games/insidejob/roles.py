"""The role cards as data (§9): base roles and our rulings for the eight special roles.

``side`` is the side a role starts on (``AGENTS`` or ``INSIDER``), or ``None`` for a role whose
winning is decided at the end from another player (S3 Rival, S4 Shadow, S7 Scapegoat, §9.2).
``is_insider`` marks "the Insider": the one the vote hunts, the only one whose tokens can win.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.base import gettext_noop

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


def role_deck(n_players: int, specials: list[str]) -> list[str]:
    """§9.3: one insider card (Insider, or S6) plus ``n - 1`` others, specials replacing Agents.

    Raises ``ValueError`` for an impossible list (unknown or repeated role, too many roles, S2
    with S8 at three players).
    """
    if len(set(specials)) != len(specials) or any(s not in SPECIAL_IDS for s in specials):
        raise ValueError(f"special roles must be distinct ids among {list(SPECIAL_IDS)}, not {specials!r}")
    others = [s for s in specials if s != "S6"]
    if len(others) > n_players - 1:
        raise ValueError(f"{len(others)} special roles do not fit {n_players} players")
    if n_players == 3 and "S2" in specials and "S8" in specials:
        raise ValueError("the Turncoat and the Accomplice cannot both play at three players (§9.3)")
    insider = "S6" if "S6" in specials else "INSIDER"
    return [insider, *others, *["AGENT"] * (n_players - 1 - len(others))]
