"""The 32 colour cards and the comparison of two cards under a colour ranking (spec §1, §3.5).

A card is a string: colour letter + value, ``"R5"`` = red 5. Colours are ``R`` red, ``G`` green,
``Y`` yellow, ``P`` purple; a ranking is a list of the four colours, trump first.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("R", "G", "Y", "P")
VALUES: tuple[int, ...] = tuple(range(1, 9))
# Canonical order of §10.0: R1..R8, G1..G8, Y1..Y8, P1..P8.
ALL_CARDS: tuple[str, ...] = tuple(f"{c}{v}" for c in COLOURS for v in VALUES)
CARD_SET: frozenset[str] = frozenset(ALL_CARDS)


def colour(card: str) -> str:
    return card[0]


def value(card: str) -> int:
    return int(card[1])


def is_card(card: object) -> bool:
    return isinstance(card, str) and card in CARD_SET


def strength(card: str, ranking: list[str]) -> tuple[bool, int, int]:
    """A sort key: a higher key beats a lower one (§3.5 ``beats``).

    Trump beats non-trump; then the value; equal values are broken by the colour's rank.
    Two distinct cards never share a key.
    """
    rank = ranking.index(colour(card))
    return (rank == 0, value(card), -rank)


def beats(a: str, b: str, ranking: list[str]) -> bool:
    """Whether card ``a`` beats card ``b`` under ``ranking``."""
    return strength(a, ranking) > strength(b, ranking)


def with_trump(ranking: list[str], new_trump: str) -> list[str]:
    """Effect 7: ``new_trump`` becomes trump; the old trump takes its former position."""
    out = list(ranking)
    i = out.index(new_trump)
    out[0], out[i] = out[i], out[0]
    return out
