"""The layout invariants of ARCHITECTURE §1."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_platform_folder_has_no_init_file():
    assert not (ROOT / "platform" / "__init__.py").exists()


def test_import_platform_is_the_standard_library():
    module = importlib.import_module("platform")
    assert hasattr(module, "python_version")
    assert Path(module.__file__).parent != ROOT / "platform"


def test_no_platform_package_takes_a_standard_library_name():
    names = {p.name for p in (ROOT / "platform").iterdir() if p.is_dir() and not p.name.startswith("__")}
    assert not names & set(sys.stdlib_module_names)


def test_every_tests_folder_is_a_package():
    for folder in [ROOT / "tests", *[p for p in (ROOT / "tests").rglob("*") if p.is_dir()]]:
        if folder.name in {"__pycache__", "golden"}:
            continue
        assert (folder / "__init__.py").exists(), f"{folder} needs an __init__.py"


def test_games_import_no_django_or_channels():
    for path in (ROOT / "games").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in {"django", "channels", "daphne"}, f"{path} imports {name}"
