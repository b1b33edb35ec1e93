"""What one seat (or a spectator) sees: the table laid out for the templates (spec §6).

Built only from ``public``, the seat's own slot and the log entries it may read.
"""

from __future__ import annotations

from typing import Any

from games.dracula.model import CALL_MIN_DISCARDS, DISTRICTS, DRACULA, SIDES, SLOTS, VAMPIRES_TO_WIN, Phase


def _rack(public: dict[str, Any], slot: dict[str, Any] | None, owner: int, seat: int | None) -> list[dict[str, Any]]:
    """Five slots facing districts 1..5: ``card`` is ``None`` where this viewer sees a back."""
    rack = []
    for k in SLOTS:
        shown = public["revealed"][owner][k - 1]
        card = shown
        remembered = False
        if slot is not None and seat == owner:
            card = slot["holder"][k - 1]
        elif slot is not None and shown is None and slot["known_opponent"][k - 1] is not None:
            card = slot["known_opponent"][k - 1]  # face down, but this seat gave it (effect 6)
            remembered = True
        rack.append(
            {
                "slot": k,
                "card": card,
                "revealed": shown is not None,
                "back": card is None,
                "remembered": remembered,
            }
        )
    return rack


def seat_view(
    public: dict[str, Any], slot: dict[str, Any] | None, log: list[dict[str, Any]], seat: int | None
) -> dict[str, Any]:
    """Keys for the templates (besides ``seat``, ``over``, ``awaiting`` added by base):

    - ``role`` / ``opponent_role`` (``None`` for a spectator), ``roles`` by seat, ``seats`` by side;
    - ``racks[side]``: five ``{slot, card, revealed, back, remembered}`` facing districts 1..5;
    - ``districts``: five ``{district, vampires, humans}``; ``lives``, ``starting_lives``,
      ``round``, ``max_rounds`` (the ship marker), ``ranking`` (trump first) and ``trump``;
    - ``deck_count``, ``deck_top`` (the revealed top or ``None``), ``discard`` (bottom first);
    - ``drawn``: ``{seat, card, public}`` while a drawn card awaits placing (``card`` is ``None``
      for whoever may not see it), else ``None``;
    - ``phase``, ``decision`` (the phase when it is this seat's decision), ``my_turn``, ``turn``,
      ``effect`` (the value whose choice is pending), ``end_called_by``, ``final_turn``,
      ``can_call``, ``eights_allowed``;
    - ``comparisons``: one per finished round ``{round, ended_by, ranking, dracula, van_helsing,
      districts: [{district, dracula, van_helsing, winner, vampires, lives}], vampires, lives}``;
    - ``winner``, ``win_reason``, ``i_won``; ``me`` (the raw slot), ``log``, ``can_chat``.
    """
    phase = public["phase"]
    my_turn = seat is not None and not public["over"] and public["turn"] == seat
    role = public["roles"][seat] if seat is not None else None
    drawn = None
    if phase == Phase.PLACING:
        card = public["drawn"]
        if card is None and my_turn and slot is not None:
            card = slot["drawn"]
        drawn = {"seat": public["turn"], "card": card, "public": public["drawn"] is not None}
    return {
        "phase": phase,
        "decision": phase if my_turn else None,
        "my_turn": my_turn,
        "turn": public["turn"],
        "role": role,
        "opponent": (1 - seat) if seat is not None else None,
        "opponent_role": public["roles"][1 - seat] if seat is not None else None,
        "roles": public["roles"],
        "seats": {side: public[side] for side in SIDES},
        "racks": {side: _rack(public, slot, public[side], seat) for side in SIDES},
        "districts": [
            {
                "district": d,
                "vampires": public["vampires"][d - 1],
                "humans": VAMPIRES_TO_WIN - public["vampires"][d - 1],
            }
            for d in range(1, DISTRICTS + 1)
        ],
        "lives": public["lives"],
        "starting_lives": public["starting_lives"],
        "round": public["round"],
        "max_rounds": public["max_rounds"],
        "ranking": public["ranking"],
        "trump": public["ranking"][0],
        "deck_count": public["deck_count"],
        "deck_top": public["deck_top"],
        "discard": public["discard"],
        "discard_count": len(public["discard"]),
        "eights_allowed": len(public["discard"]) >= CALL_MIN_DISCARDS,
        "drawn": drawn,
        "effect": public["effect"],
        "end_called_by": public["end_called_by"],
        "final_turn": public["final_turn"],
        "can_call": my_turn
        and phase == Phase.TURN_START
        and public["end_called_by"] is None
        and len(public["discard"]) >= CALL_MIN_DISCARDS,
        "comparisons": public["comparisons"],
        "winner": public["winner"],
        "win_reason": public["win_reason"],
        "i_won": None if public["winner"] is None or role is None else role == public["winner"],
        "is_dracula": role == DRACULA,
        "can_chat": seat is not None,
        "me": slot,
        "log": log,
    }
