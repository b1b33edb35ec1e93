"""End-of-night scoring (spec §7): plain points, Engineer pairs, Teenager majority, Beast bonus.

Pure functions over victim ids and hands; the engine logs and records what they return.
"""

from __future__ import annotations

from typing import TypedDict

from games.monster.cards import (
    BEAST_IN_HAND,
    ENGINEER_PAIR,
    ENGINEER_UNPAIRED,
    TEEN_FIRST,
    TEEN_SECOND,
    VICTIMS,
    Kind,
    Monster,
)


class NightScore(TypedDict):
    plain: int
    engineers: int
    engineer_points: int
    teen_icons: int
    teen_points: int
    beast: int
    total: int


def engineer_points(count: int) -> int:
    """§7.3: +6 per complete pair, -2 for an unpaired one: 0, -2, 6, 4, 12, 10 for 0..5."""
    return ENGINEER_PAIR * (count // 2) + ENGINEER_UNPAIRED * (count % 2)


def teen_awards(icons: list[int]) -> list[int]:
    """§7.2: every player tied for the most icons scores +7; if exactly one player leads, every
    player tied for the second-highest non-zero count scores +3. Zero icons never score."""
    awards = [0] * len(icons)
    counts = sorted({c for c in icons if c > 0}, reverse=True)
    if not counts:
        return awards
    top = [i for i, c in enumerate(icons) if c == counts[0]]
    for i in top:
        awards[i] = TEEN_FIRST
    if len(top) == 1 and len(counts) > 1:
        for i, c in enumerate(icons):
            if c == counts[1]:
                awards[i] = TEEN_SECOND
    return awards


def score_night(captured: list[list[str]], hands: list[list[int]]) -> list[NightScore]:
    """Each seat's night score, with its parts, from its captured pile and remaining hand."""
    icons = [sum(VICTIMS[v]["teens"] for v in pile if VICTIMS[v]["kind"] == Kind.TEEN) for pile in captured]
    awards = teen_awards(icons)
    scores: list[NightScore] = []
    for seat, pile in enumerate(captured):
        plain = sum(VICTIMS[v]["points"] for v in pile if VICTIMS[v]["kind"] == Kind.PLAIN)
        engineers = sum(1 for v in pile if VICTIMS[v]["kind"] == Kind.ENGINEER)
        beast = BEAST_IN_HAND if Monster.BEAST in hands[seat] else 0
        eng = engineer_points(engineers)
        scores.append(
            {
                "plain": plain,
                "engineers": engineers,
                "engineer_points": eng,
                "teen_icons": icons[seat],
                "teen_points": awards[seat],
                "beast": beast,
                "total": plain + eng + awards[seat] + beast,
            }
        )
    return scores
