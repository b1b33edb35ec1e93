"""Verifiable deals (ARCHITECTURE §10), scheme ``hmac-sha256-v1``.

At the start the server draws a 32-byte secret and derives the match's seed from it::

    seating = "0:p17,1:bot,2:p5"          # each seat: a player's id or a practice bot
    message = "hmac-sha256-v1\\n" + table_token + "\\n" + seating
    seed    = int.from_bytes(HMAC-SHA256(key=secret, msg=message)[:8], "big") >> 1   # 63 bits

It publishes ``sha256(secret)`` (the commitment) at once, on the table page's log, and reveals the
secret when the match is over. Every move also stores the sha256 of the state it led to
(canonical JSON: sorted keys, no spaces), so a check replays the moves from the derived seed and
names the first move whose state differs, whichever chance event (deal, shuffle, draw) it was.
A match started with a fixed seed (tests, puzzles) has no scheme and cannot be verified.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.base import IllegalAction
from shabneshin.localize import digits
from tables.models import Match, Move, Seat

SCHEME = "hmac-sha256-v1"


def seating_of(seats: Iterable[Seat]) -> str:
    return ",".join(
        f"{s.number}:{'bot' if s.is_bot else f'p{s.user_id}'}" for s in sorted(seats, key=lambda s: s.number)
    )


def derive_seed(secret_hex: str, token: str, seating: str) -> int:
    message = f"{SCHEME}\n{token}\n{seating}".encode()
    digest = hmac.new(bytes.fromhex(secret_hex), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def commitment(secret_hex: str) -> str:
    return hashlib.sha256(bytes.fromhex(secret_hex)).hexdigest()


def state_hash(state: Any) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def new_deal(token: str, seats: Iterable[Seat], seed: int | None = None, secret: str | None = None) -> dict[str, Any]:
    """The Match fields of a new deal: a drawn secret (or the caller's, chosen openly, as a club
    night's fair roles do) and its seed, or a fixed ``seed`` (no scheme)."""
    if seed is not None:
        return {"seed": seed}
    secret = secret or secrets.token_bytes(32).hex()
    seating = seating_of(seats)
    return {
        "seed": derive_seed(secret, token, seating),
        "deal_scheme": SCHEME,
        "deal_secret": secret,
        "deal_commitment": commitment(secret),
        "deal_seating": seating,
    }


def stamp_move(sender: type[Move], instance: Move, **kwargs: Any) -> None:
    """pre_save of a Move: the hash of the state the move led to (the moderator has just set it)."""
    if not instance.state_hash and instance.pk is None:
        instance.state_hash = state_hash(instance.match.state)


def revealed_secret(match: Match) -> str:
    """The secret, once the match is over; an aborted match never reached its reveal."""
    return match.deal_secret if match.status == Match.Status.FINISHED else ""


@dataclass
class Check:
    ok: bool
    text: str
    seq: int | None = None  # the move this check is about (0: the deal)


@dataclass
class Verdict:
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    @property
    def first_failure(self) -> Check | None:
        return next((c for c in self.checks if not c.ok), None)

    def add(self, ok: bool, text: str, seq: int | None = None) -> bool:
        self.checks.append(Check(ok, text, seq))
        return ok


def verify(match: Match, secret: str | None = None) -> Verdict:
    """Recompute the seed from the secret and the public inputs, replay every move and compare each
    state with the hash stored when it was played. ``secret`` overrides the stored one (to check a
    secret someone else holds)."""
    verdict = Verdict()
    if match.status != Match.Status.FINISHED:
        verdict.add(False, _("Only a finished match reveals its secret."))
        return verdict
    if match.deal_scheme != SCHEME:
        verdict.add(False, _("This match was dealt with a fixed seed, not a verifiable deal."))
        return verdict
    secret = match.deal_secret if secret is None else secret
    try:
        committed = commitment(secret)
        seed = derive_seed(secret, match.table.token, match.deal_seating)
    except ValueError:
        verdict.add(False, _("The secret is not a hexadecimal string."))
        return verdict
    if not verdict.add(committed == match.deal_commitment, _("The secret matches the published commitment.")):
        verdict.checks[-1].text = _("The secret does not match the published commitment.")
        return verdict
    if not verdict.add(
        seed == match.seed, _("The seed is the one derived from the secret, the table and its seating.")
    ):
        verdict.checks[-1].text = _("The match's seed is not the one derived from the secret.")
        return verdict
    engine = match.engine
    state = engine.setup(match.n_players, dict(match.options), seed)
    verdict.add(True, _("The deal was recomputed."), 0)
    for move in match.moves.order_by("seq"):
        try:
            state = engine.apply(state, move.seat, move.action)
        except IllegalAction:
            verdict.add(
                False, digits(_("Move %(n)d cannot be played from the replayed state.") % {"n": move.seq}), move.seq
            )
            return verdict
        if move.state_hash and state_hash(state) != move.state_hash:
            verdict.add(
                False,
                digits(_("Move %(n)d leads to a different state than the one played.") % {"n": move.seq}),
                move.seq,
            )
            return verdict
        verdict.add(True, digits(_("Move %(n)d: the same state as when it was played.") % {"n": move.seq}), move.seq)
    same = state_hash(state) == state_hash(match.state)
    verdict.add(
        same,
        digits(
            _("Every move (%(n)d) replays to the states that were played, and to the final state.")
            % {"n": match.moves.count()}
        )
        if same
        else _("The replay ends in a different state than the match."),
    )
    return verdict
