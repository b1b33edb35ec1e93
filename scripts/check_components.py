"""Say which real components `make test` will use, and exactly what is missing and how to get it.
Exits non-zero under CI=true when anything is missing."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.components import HOW_TO, missing  # noqa: E402


def main() -> int:
    absent = missing()
    for name, how in HOW_TO.items():
        print(f"{'MISSING' if name in absent else 'ok':>8}  {how if name in absent else name}")
    if absent and os.environ.get("CI", "").lower() == "true":
        print("CI needs every component: install what is missing (see .ci/run).", file=sys.stderr)
        return 1
    if absent:
        print("Tests that need a missing component will be skipped and say why.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
