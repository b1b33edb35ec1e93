"""Names shared by the engine, its view and its bot: the two sides, the decisions, the sizes."""

from __future__ import annotations

from enum import StrEnum

DRACULA = "dracula"
VAN_HELSING = "van_helsing"
SIDES = (DRACULA, VAN_HELSING)
ROUNDS = 5
DISTRICTS = 5
HOLDER = 5  # slot k faces district k
SLOTS = list(range(1, HOLDER + 1))
MAX_LIVES = 12
VAMPIRES_TO_WIN = 4
CALL_MIN_DISCARDS = 6  # §3.2: call_end needs >= 6 discards; so does discarding an 8 (§8.3).


class Phase(StrEnum):
    """The decision the awaited seat faces (``public.phase``)."""

    TURN_START = "turn_start"
    PLACING = "placing"
    REVEAL_OWN = "reveal_own"
    REVEAL_OPPONENT = "reveal_opponent"
    SWAP_OWN = "swap_own"
    SWAP_DISTRICT = "swap_district"
    TRUMP = "trump"
    OVER = "over"


class RoundEnd(StrEnum):
    """Why a round ended (§3.4)."""

    CALL = "call"
    EIGHT = "eight"
    DECK_EMPTY = "deck_empty"
