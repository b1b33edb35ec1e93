"""The verify page's computation (issue 12 §4): after the night, check the revealed seed against
the commitment and recompute every round's seating step by step from the seed and the round's
stored public inputs, comparing the result with what was stored and with the tables played.
The earlier tables the meetings were taken from are recomputed from the rounds too, so an
input that was altered afterwards shows as a mismatch."""

from __future__ import annotations

from typing import Any

from clubs import commitment, rounds
from clubs.models import Night, Round, RoundTable
from clubs.texts import Refused


def _tables(seating) -> list[dict[str, Any]]:  # noqa: ANN001
    return [{"game": t.game, "people": list(t.people), "bots": t.bots} for t in seating.tables]


def check(night: Night) -> dict[str, Any]:
    secret = night.revealed_seed()
    report: dict[str, Any] = {
        "secret": secret,
        "commitment": night.seed_commitment,
        "scheme": commitment.SCHEME,
        "seed_ok": bool(secret) and commitment.verify(secret, night.seed_commitment),
        "rounds": [],
    }
    if not report["seed_ok"]:
        return report
    for round_ in Round.objects.filter(night=night).exclude(status=Round.Status.DRAFT).order_by("number"):
        report["rounds"].append(_check_round(night, round_, secret))
    report["all_ok"] = all(r["ok"] for r in report["rounds"])
    return report


def _check_round(night: Night, round_: Round, secret: str) -> dict[str, Any]:
    from clubs.wording import names, say

    who = names(night)
    inputs = round_.inputs
    earlier = Round.objects.filter(night=night, number__lt=round_.number).exclude(status=Round.Status.DRAFT)
    tonight = [list(t.people) for t in RoundTable.objects.filter(round__in=earlier).order_by("round__number", "index")]
    try:
        stages = rounds.replay(secret, round_.number, inputs, round_.edits)
    except (Refused, rounds.RoundError, KeyError, ValueError) as exc:
        return {"round": round_, "ok": False, "error": str(exc), "stages": [], "message": ""}
    final = _tables(stages[-1][1])
    played = [
        {"game": t.table.game, "people": list(t.people), "bots": t.table.seat_count - len(t.people)}
        for t in RoundTable.objects.filter(round=round_).select_related("table").order_by("index")
    ]
    stored = [{"game": t["game"], "people": t["people"], "bots": t.get("bots", 0)} for t in round_.seating["tables"]]
    checks = {
        "history": tonight == inputs["tonight"],
        "stored": final == stored,
        "played": final == played,
    }
    if inputs.get("fair_roles"):
        checks["deals"] = _deals_check(night, round_)
    return {
        "round": round_,
        "message": commitment.round_message(round_.number, inputs["people"]),
        "inputs": inputs,
        "stages": [
            {
                "edit": edit,
                "tables": _tables(s),
                "quality": s.quality,
                "steps": [say(t, who) for t in s.to_dict()["steps"]],
            }
            for edit, s in stages
        ],
        "checks": checks,
        "ok": all(checks.values()),
    }


def _deals_check(night: Night, round_: Round) -> bool:
    """Fair roles: each table's deal secret is the first fair attempt, recomputed from the
    revealed seed and the earlier rounds' sides (clubs.sides, clubs.fair_roles)."""
    from clubs import sides

    for row in RoundTable.objects.filter(round=round_).select_related("table__match").order_by("index"):
        match = getattr(row.table, "match", None)
        if match is None:
            continue
        secret, attempt = sides.deal_secret_for(night, round_, row)
        if secret != match.deal_secret or attempt != row.deal_attempt:
            return False
    return True
