"""The 52 playing cards (§1): four suits B, G, Y, R with values 1..13, written ``"B7"``, ``"R13"``."""

from __future__ import annotations

from collections.abc import Iterable

SUITS: tuple[str, ...] = ("B", "G", "Y", "R")
VALUES: tuple[int, ...] = tuple(range(1, 14))
ALL_CARDS: tuple[str, ...] = tuple(f"{s}{v}" for s in SUITS for v in VALUES)
_CARD_SET = frozenset(ALL_CARDS)


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in _CARD_SET


def suit_of(card: str) -> str:
    return card[0]


def value_of(card: str) -> int:
    return int(card[1:])


def hand_key(card: str) -> tuple[int, int]:
    """Display order of a hand: by suit (B, G, Y, R), then by value."""
    return SUITS.index(card[0]), int(card[1:])


def low_key(card: str) -> tuple[int, int]:
    """§16 "lowest card": lowest value, ties broken by suit order B, G, Y, R."""
    return int(card[1:]), SUITS.index(card[0])


def sorted_hand(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=hand_key)


def lowest(cards: Iterable[str]) -> str:
    return min(cards, key=low_key)
