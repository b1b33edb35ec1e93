"""Does the package install on every Python that pyproject.toml allows and this machine has?

For each of python3.11, python3.12 and python3.13 found on PATH (or installed by pyenv): a fresh
virtualenv in a temporary folder, ``pip install .`` (the serving dependencies), and an import of
the main ones.
Prints one line per version, and exits non-zero if any version that is present fails to install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSIONS = ("3.11", "3.12", "3.13")


def _interpreter(version: str) -> str | None:
    """A working ``pythonX.Y``: on PATH, else one of pyenv's (whose shims fail outside its version)."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = [shutil.which(f"python{version}"), *map(str, sorted(pyenv.glob(f"{version}.*/bin/python{version}")))]
    for candidate in filter(None, candidates):
        if subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0:
            return candidate
    return None


def check(version: str) -> bool | None:
    python = _interpreter(version)
    if python is None:
        print(f"python{version}: not on this machine, not checked")
        return None
    with tempfile.TemporaryDirectory() as tmp:
        venv = Path(tmp) / "venv"
        steps = [
            [python, "-m", "venv", str(venv)],
            [str(venv / "bin/pip"), "install", "--quiet", str(ROOT)],
            [str(venv / "bin/python"), "-c", "import django, channels, daphne, jdatetime, persiantools"],
        ]
        for step in steps:
            done = subprocess.run(step, capture_output=True, text=True)
            if done.returncode != 0:
                print(f"python{version}: FAILED at {' '.join(step[1:3])}\n{done.stderr[-2000:]}")
                return False
    print(f"python{version} ({python}): installs and imports")
    return True


if __name__ == "__main__":
    results = [check(v) for v in (sys.argv[1:] or VERSIONS)]  # or only the versions named
    sys.exit(1 if False in results else 0)
