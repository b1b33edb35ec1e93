#!/usr/bin/env python
"""Django's command-line utility; puts platform/ on sys.path first (ARCHITECTURE §1)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def main() -> None:
    root = Path(__file__).resolve().parent
    sys.path[:0] = [str(root / "platform"), str(root)]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shabneshin.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
