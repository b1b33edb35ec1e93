"""Write (or check) golden playthroughs: every seat's and a spectator's view at every step.

    python scripts/golden.py SLUG [SLUG ...]      regenerate tests/games/golden/SLUG-seed-N.jsonl
    python scripts/golden.py --all

A playthrough is a seeded random game (legal moves only, no timeouts unless nothing else is
legal). The file's first line is the set-up; then one line a step: the move and every view. A rule
change or a leak then shows up as a diff of these files (test: tests/games/test_golden.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402
from games.base import Engine, State, pick, rng_for  # noqa: E402

GOLDEN_DIR = ROOT / "tests" / "games" / "golden"
SEEDS = (1, 2)


def players_for(engine: Engine) -> int:
    return min(engine.max_players, engine.min_players + 1)


def _views(engine: Engine, state: State) -> dict[str, Any]:
    views = {str(seat): engine.view(state, seat) for seat in range(len(state["seats"]))}
    views["spectator"] = engine.view(state, None)
    return views


def playthrough(engine: Engine, seed: int) -> list[dict[str, Any]]:
    n = players_for(engine)
    state = engine.setup(n, None, seed)
    lines: list[dict[str, Any]] = [{"slug": engine.slug, "players": n, "seed": seed, "views": _views(engine, state)}]
    while engine.awaiting(state):
        rng = rng_for(f"golden:{seed}", state["step"])
        seat = pick(rng, sorted(engine.awaiting(state)))
        legal = engine.legal_actions(state, seat)
        action = pick(rng, legal[:-1]) if len(legal) > 1 else legal[-1]
        state = engine.apply(state, seat, action)
        lines.append({"seat": seat, "action": action, "views": _views(engine, state)})
    return lines


def path_for(slug: str, seed: int) -> Path:
    return GOLDEN_DIR / f"{slug}-seed-{seed}.jsonl"


def encode(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, sort_keys=True, ensure_ascii=False) + "\n" for line in lines)


def main(argv: list[str]) -> int:
    slugs = [e.slug for e in registry.all()] if argv == ["--all"] else argv
    if not slugs:
        print(__doc__)
        return 2
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for slug in slugs:
        engine = registry.get(slug)
        for seed in SEEDS:
            path = path_for(slug, seed)
            path.write_text(encode(playthrough(engine, seed)), encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
