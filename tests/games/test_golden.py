"""Golden playthroughs: replaying each recorded game gives every view exactly as recorded.

Regenerate after an intended rule change with ``python scripts/golden.py SLUG`` and read the diff.
"""

from __future__ import annotations

import pytest

from games import registry
from scripts.golden import GOLDEN_DIR, SEEDS, encode, path_for, playthrough

CASES = [(engine.slug, seed) for engine in registry.all() for seed in SEEDS]


@pytest.mark.parametrize(("slug", "seed"), CASES)
def test_playthrough_matches_its_golden_file(slug, seed):
    path = path_for(slug, seed)
    assert path.exists(), f"missing {path.relative_to(GOLDEN_DIR.parent.parent.parent)}: run scripts/golden.py {slug}"
    recorded = path.read_text(encoding="utf-8")
    fresh = encode(playthrough(registry.get(slug), seed))
    if fresh != recorded:
        for number, (old, new) in enumerate(zip(recorded.splitlines(), fresh.splitlines(), strict=False)):
            assert old == new, f"{path.name} differs first at line {number + 1}"
        assert len(recorded.splitlines()) == len(fresh.splitlines()), f"{path.name} differs in length"
