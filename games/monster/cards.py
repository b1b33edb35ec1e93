"""The cards of Monster as data (spec §3.4): the nine monsters every player holds and the 30
victims, filtered by their dots (minimum player count) at setup (§4.3).

Nothing here has behaviour beyond lookups; the rules live in ``engine.py`` and ``scoring.py``.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Final, TypedDict


class Monster(IntEnum):
    """A monster card, valued by its printed strength (§3.1)."""

    BLOB = 0
    SWAMP_CREATURE = 1
    INVISIBLE_MAN = 2
    MUMMY = 3
    INVADER = 4
    WEREWOLF = 5
    VAMPIRE = 6
    BEAST = 7
    KAIJU = 8


ALL_MONSTERS: Final[list[int]] = [int(m) for m in Monster]

MONSTER_KEYS: Final[dict[int, str]] = {
    0: "blob",
    1: "swamp_creature",
    2: "invisible_man",
    3: "mummy",
    4: "invader",
    5: "werewolf",
    6: "vampire",
    7: "beast",
    8: "kaiju",
}

# One red dot: the ability works in the reveal step (§5.4); two dots: on the hunting turn (§5.6).
REVEAL_STEP: Final[frozenset[int]] = frozenset({Monster.VAMPIRE, Monster.WEREWOLF, Monster.MUMMY, Monster.BLOB})
HUNT_STEP: Final[frozenset[int]] = frozenset({Monster.SWAMP_CREATURE, Monster.INVISIBLE_MAN, Monster.INVADER})


class Kind(StrEnum):
    PLAIN = "plain"
    TEEN = "teen"
    ENGINEER = "engineer"


class Victim(TypedDict):
    id: str
    min_players: int  # the dots at the bottom of the card
    name: str
    name_fa: str
    kind: str
    points: int  # plain cards only (0 otherwise)
    teens: int  # teen cards only: 1 or 2 icons (0 otherwise)


def _v(vid: str, dots: int, name: str, name_fa: str, kind: Kind, points: int = 0, teens: int = 0) -> Victim:
    return {
        "id": vid,
        "min_players": dots,
        "name": name,
        "name_fa": name_fa,
        "kind": str(kind),
        "points": points,
        "teens": teens,
    }


P, T, E = Kind.PLAIN, Kind.TEEN, Kind.ENGINEER

# §3.2, in table order.
VICTIM_LIST: Final[list[Victim]] = [
    _v("V01", 2, "Mayor", "شهردار", P, 6),
    _v("V02", 2, "Professor", "استاد دانشگاه", P, 4),
    _v("V03", 2, "Nurse", "پرستار", P, 3),
    _v("V04", 2, "Farmer", "کشاورز", P, 2),
    _v("V05", 2, "Milkman", "شیرفروش", P, 1),
    _v("V06", 2, "Tourist", "گردشگر", P, 1),
    _v("V07", 2, "Monster Hunter", "شکارچی هیولا", P, -3),
    _v("V08", 2, "Teenager", "نوجوان", T, teens=1),
    _v("V09", 2, "Teenager", "نوجوان", T, teens=1),
    _v("V10", 2, "Teenage Couple", "زوج نوجوان", T, teens=2),
    _v("V11", 2, "Engineer", "مهندس", E),
    _v("V12", 2, "Engineer", "مهندس", E),
    _v("V13", 3, "Heiress", "وارث ثروتمند", P, 5),
    _v("V14", 3, "Postman", "نامه‌رسان", P, 2),
    _v("V15", 3, "Sheriff", "کلانتر", P, -2),
    _v("V16", 3, "Teenager", "نوجوان", T, teens=1),
    _v("V17", 3, "Teenage Couple", "زوج نوجوان", T, teens=2),
    _v("V18", 3, "Engineer", "مهندس", E),
    _v("V19", 4, "Librarian", "کتابدار", P, 3),
    _v("V20", 4, "Boy Scout", "پیشاهنگ", P, 2),
    _v("V21", 4, "Priest", "کشیش", P, -1),
    _v("V22", 4, "Teenager", "نوجوان", T, teens=1),
    _v("V23", 4, "Engineer", "مهندس", E),
    _v("V24", 4, "Engineer", "مهندس", E),
    _v("V25", 5, "Movie Star", "ستارهٔ سینما", P, 4),
    _v("V26", 5, "Lumberjack", "هیزم‌شکن", P, 3),
    _v("V27", 5, "Vampire Hunter", "شکارچی خون‌آشام", P, -3),
    _v("V28", 5, "Teenager", "نوجوان", T, teens=1),
    _v("V29", 5, "Teenage Couple", "زوج نوجوان", T, teens=2),
    _v("V30", 5, "Engineer", "مهندس", E),
]

VICTIMS: Final[dict[str, Victim]] = {v["id"]: v for v in VICTIM_LIST}

# §3.4 scoring constants.
ENGINEER_PAIR: Final = 6
ENGINEER_UNPAIRED: Final = -2
TEEN_FIRST: Final = 7
TEEN_SECOND: Final = 3
BEAST_IN_HAND: Final = 3


def victims_in_play(n_players: int) -> list[str]:
    """The victim ids used with ``n_players`` (§4.3: drop cards with more dots than players)."""
    return [v["id"] for v in VICTIM_LIST if v["min_players"] <= n_players]
