"""The night's verifiable seed (issue 12 §4), scheme ``shabneshin-night-v1``.

When a night is published the server draws a 32-byte secret and shows only its commitment::

    secret     = 32 random bytes, written as 64 hexadecimal digits
    commitment = sha256(secret bytes), hexadecimal

Each round's seating draws its randomness from the secret and the round's public inputs, the
round number and the checked-in people (their stable ids, such as ``u12`` or ``w3``)::

    message = "shabneshin-night-v1\\nround:" + round_no + "\\n" + ",".join(sorted(people))
    digest  = HMAC-SHA256(key=secret bytes, msg=message as UTF-8)
    rng     = random.Random(int.from_bytes(digest, "big"))

With fair roles (§6) each table's deal gets its own secret, tried in order ``attempt = 0, 1, …``::

    message = "shabneshin-night-v1\\ndeal:round:" + round_no + ":table:" + table_index
              + ":attempt:" + attempt
    deal secret = HMAC-SHA256(key=secret bytes, msg=message as UTF-8), hexadecimal

The two messages cannot collide: one has ``round:`` after the scheme line, the other ``deal:``.
Once the night is over the secret is revealed: anyone can check it against the commitment and
recompute every round's seating and every table's deal secret.

Only ``random.Random(int)`` seeding and its ``.random()`` stream are promised stable across Python
versions, so the seating reads nothing from ``rng`` but ``.random()`` (see ``games.base``).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Sequence

SCHEME = "shabneshin-night-v1"


def new_secret() -> str:
    """A fresh night secret: 32 random bytes, hexadecimal."""
    return secrets.token_bytes(32).hex()


def commitment(secret_hex: str) -> str:
    """sha256 of the secret's bytes, hexadecimal. Raises ValueError for a non-hex secret."""
    return hashlib.sha256(bytes.fromhex(secret_hex)).hexdigest()


def verify(secret_hex: str, commitment_hex: str) -> bool:
    """Whether ``secret_hex`` is the secret behind ``commitment_hex`` (False for malformed input)."""
    try:
        mine = commitment(secret_hex)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(mine, str(commitment_hex).strip().lower())


def _hmac(secret_hex: str, message: str) -> bytes:
    return hmac.new(bytes.fromhex(secret_hex), message.encode(), hashlib.sha256).digest()


def round_message(round_no: int, people: Sequence[str]) -> str:
    """The public inputs of a round, as the HMAC reads them (shown on the verify page)."""
    return f"{SCHEME}\nround:{int(round_no)}\n" + ",".join(sorted(str(p) for p in people))


def round_rng(secret_hex: str, round_no: int, people: Sequence[str]) -> random.Random:
    """The round's source of chance: seeded from HMAC-SHA256(secret, round_message(...))."""
    digest = _hmac(secret_hex, round_message(round_no, people))
    return random.Random(int.from_bytes(digest, "big"))


def deal_message(round_no: int, table_index: int, attempt: int) -> str:
    return f"{SCHEME}\ndeal:round:{int(round_no)}:table:{int(table_index)}:attempt:{int(attempt)}"


def table_deal_secret(secret_hex: str, round_no: int, table_index: int, attempt: int) -> str:
    """The deal secret of one table's ``attempt`` (fair roles, ``clubs.fair_roles``), hexadecimal."""
    return _hmac(secret_hex, deal_message(round_no, table_index, attempt)).hex()
