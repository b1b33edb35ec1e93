"""A server process sets the garbage collector for serving (shabneshin.collector)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from shabneshin import collector

ROOT = Path(__file__).resolve().parent.parent.parent


def test_importing_the_server_application_freezes_what_it_loaded_and_collects_young_garbage_less_often():
    code = "import gc, json, shabneshin.asgi; print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]), "DATABASE_URL": ""}
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    thresholds, frozen = json.loads(out.stdout.strip().splitlines()[-1])
    assert thresholds == [collector.YOUNG_THRESHOLD, collector.MIDDLE_THRESHOLD, collector.OLD_THRESHOLD]
    assert frozen > 10_000, "Django's apps, URLs and templates are out of the collector's sight"


def test_cycles_are_still_collected_by_themselves_after_tuning():
    import gc
    import weakref

    kept = gc.get_threshold()
    try:
        collector.tune_for_serving()

        class Node:
            pass

        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b
        assert gone() is not None, "a cycle waits for the collector"
        alive = [[] for _ in range(collector.YOUNG_THRESHOLD * 2)]  # enough for a young collection
        assert gone() is None, "the collector ran by itself and freed the cycle"
        del alive
    finally:
        gc.unfreeze()
        gc.set_threshold(*kept)
