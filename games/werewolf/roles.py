"""Werewolf roles, teams and the role table (rules spec §1)."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    WOLF = "WOLF"
    SEER = "SEER"
    DOCTOR = "DOCTOR"
    VILLAGER = "VILLAGER"


class Team(StrEnum):
    VILLAGE = "village"
    WOLVES = "wolves"


class Inquiry(StrEnum):
    """What the seer learns about a player (§8.4: team only)."""

    WOLF = "WOLF"
    NOT_WOLF = "NOT_WOLF"


# §1.1: players -> wolves; every table also has one seer and one doctor, the rest are villagers.
WOLVES_FOR = {5: 1, 6: 1, 7: 2, 8: 2, 9: 2, 10: 2}


def team_of(role: str) -> Team:
    return Team.WOLVES if role == Role.WOLF else Team.VILLAGE


def role_multiset(n_players: int) -> list[str]:
    """The §1.1 roles for ``n_players``, in a fixed order (wolves, seer, doctor, villagers)."""
    wolves = WOLVES_FOR[n_players]
    villagers = n_players - wolves - 2
    return [Role.WOLF.value] * wolves + [Role.SEER.value, Role.DOCTOR.value] + [Role.VILLAGER.value] * villagers
