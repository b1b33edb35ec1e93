"""A cheap, exact encoding of a value, for the renderer's cache keys (issue 9).

The renderer keys what it keeps by the parts of a view a fragment reads (the view itself, a seat's
badge, a board's part, the log's small view). Encoding those with ``json.dumps(sort_keys=True)``
was a tenth of a move's CPU; ``marshal`` (format 2) writes plain built-in values in C several times
faster. What makes it safe as a key is that it is exact: ``marshal.loads`` gives the value back,
so two values with the same encoding are equal (and of the same types: ``1``, ``1.0`` and ``True``
differ, as do a list and a tuple).

Equal values may still encode differently: a dict's keys in another order, or a string that
Python interned beside one it did not. Such a pair only costs a rendering that a sorted encoding
would have saved, never a wrong one. A value that ``marshal`` cannot write (a datetime, an enum
member, a lazy translation, a ``SafeString``) is encoded as sorted JSON with ``str`` for the rest,
as before; a ``str`` never equals a ``bytes``, so the two encodings cannot meet in one key.
"""

from __future__ import annotations

import json
import marshal
from typing import Any


def fingerprint(value: Any) -> bytes | str:
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return json.dumps(value, sort_keys=True, default=str)
