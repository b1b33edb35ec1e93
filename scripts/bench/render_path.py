"""The database thread's part of a move, in one process and without sockets: what ``make bench``
spends most of its server CPU on, measured without the machine's noise from the load generator.

    .venv/bin/python scripts/bench/render_path.py [--tables 100] [--moves 3000] [--profile FILE]
        [--templates] [--database-url postgres://.../scratch]

It makes ``--tables`` started six-seat werewolf tables of guests in a fresh SQLite file (as the
bench's setup does through the site), then plays random legal moves of random tables, each as
the server would: ``moderator.submit`` with the version the seat's forms carry, then, as the
table's sockets hear it (tables.hub), the snapshot and every seat's fragments in Persian. When a
table waits for its clock (a night turn's minimum), the clock applies what is due. It prints the
CPU per move (submit, render and clock), the templates rendered and the queries made per move.
``--profile`` writes a cProfile of the timed part. ``--templates`` also prints,
for each template, its renders a move and its own time a move (without the templates it includes),
the most costly first: which fragment to make cheaper. ``--database-url`` plays on that PostgreSQL
database instead (a scratch one: it is migrated and filled), where the wall time per move shows
the round trips."""

from __future__ import annotations

import argparse
import cProfile
import os
import random
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--warmup", type=int, default=1000)
    parser.add_argument("--profile", type=Path)
    parser.add_argument("--templates", action="store_true", help="time each template (its own time)")
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="shabneshin-render-path-")
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "shabneshin.settings",
            "SQLITE_PATH": f"{folder}/db.sqlite3",
            "DATABASE_URL": args.database_url,
            "REDIS_URL": "",
            "TIMER_SCALE": "0.2",
            "LOG_LEVEL": "ERROR",
        }
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from shabneshin import counters

    counters.install()
    if not os.environ.get("RENDER_PATH_DEFAULT_GC"):
        from shabneshin.collector import tune_for_serving

        tune_for_serving()  # as shabneshin.asgi does for a server process
    run(args)
    return 0


def run(args: argparse.Namespace) -> None:
    from django.utils import timezone

    from accounts.models import User
    from games.base import TIMEOUT
    from shabneshin import counters
    from tables import broadcast, decisions, moderator, renderer, seating
    from tables.models import Match, Table

    heard: list[tuple[str, str]] = []  # (group, event): what the sockets would hear
    broadcast.send = lambda group, message: heard.append((group, message.get("event")))  # type: ignore[assignment]
    tables = []
    for t in range(args.tables):
        players = [User.objects.create_user(username=f"t{t}p{i}") for i in range(6)]
        table = seating.create_table(players[0], "werewolf", 6, Table.Visibility.PRIVATE)
        for player in players[1:]:
            seating.sit(table, player)
        seating.start(table, players[0])
        tables.append((table.pk, table.token, players))
    by_group = {broadcast.group_for(token): (pk, players) for pk, token, players in tables}
    rng = random.Random(7)

    def render_heard() -> None:
        while heard:
            group, event = heard.pop(0)
            if group not in by_group:
                continue
            pk, players = by_group[group]
            snapshot = renderer.snapshot_for_event(pk, event)
            if snapshot is None:
                continue
            for player in players:
                renderer.fragments_for(snapshot, snapshot.audience(player, "fa"))

    picking = [0.0]  # the harness's own reads, left out of the figure

    def one_move() -> int:
        pk, _, players = rng.choice(tables)
        began = time.process_time()
        snapshot = renderer.load(pk)
        assert snapshot is not None and snapshot.match is not None
        match = snapshot.match
        if match.status != Match.Status.PLAYING:
            return 0
        engine = match.engine
        ready = [(s, engine.legal_actions(match.state, s)) for s in range(6)]
        ready = [(s, [a for a in legal if a != TIMEOUT]) for s, legal in ready]
        ready = [(s, legal) for s, legal in ready if legal]
        picking[0] += time.process_time() - began
        if not ready:  # the clock's turn (a night turn's minimum): what is due by its deadline
            moderator.run_due((match.next_deadline or timezone.now()) + timedelta(milliseconds=1))
        else:
            seat, legal = rng.choice(ready)
            version = decisions.opened_at(match, seat)
            moderator.submit(match.pk, seat, rng.choice(legal), version, user_id=players[seat].pk)
        render_heard()
        return 1

    for _ in range(args.warmup):
        one_move()
    versions_before = sum(Match.objects.values_list("version", flat=True))
    counted = counters.snapshot()
    picking[0] = 0.0
    profiler = cProfile.Profile() if args.profile else None
    clock = TemplateClock() if args.templates else None
    began, cpu = time.perf_counter(), time.process_time()
    if profiler:
        profiler.enable()
    if clock:
        clock.start()
    for _ in range(args.moves):
        one_move()
    if clock:
        clock.stop()
    if profiler:
        profiler.disable()
        profiler.dump_stats(str(args.profile))
    cpu, wall = time.process_time() - cpu - picking[0], time.perf_counter() - began - picking[0]
    moves = sum(Match.objects.values_list("version", flat=True)) - versions_before
    after = counters.snapshot()
    print(
        f"{moves} moves at {args.tables} tables: {cpu * 1000 / moves:.2f} ms CPU a move "
        f"({wall * 1000 / moves:.2f} wall), {(after['renders'] - counted['renders']) / moves:.1f} renders, "
        f"{(after['queries'] - counted['queries']) / moves:.1f} queries (with the harness's 2 a move), "
        f"{(after['gc_us'] - counted['gc_us']) / 1000 / moves:.2f} ms of it collecting garbage"
    )
    if clock:
        clock.report(moves)


class TemplateClock:
    """Each template's renders and own time (its time less that of the templates rendered inside
    it), by wrapping ``Template.render`` while it runs. The harness is one thread, so one stack of
    the renders in progress is enough. Timing adds its own cost: compare templates with each other,
    not the total with a run without it."""

    def __init__(self) -> None:
        self.renders: dict[str, int] = {}
        self.own_s: dict[str, float] = {}
        self.inner_s: list[float] = []  # for each render in progress, the time of those inside it
        self.render: Any = None

    def start(self) -> None:
        from django.template import base

        self.render = base.Template.render
        real, clock = self.render, self

        def timed(template: Any, context: Any) -> Any:
            name = template.origin.name if template.origin else "?"
            began = time.perf_counter()
            clock.inner_s.append(0.0)
            try:
                return real(template, context)
            finally:
                spent = time.perf_counter() - began
                inner = clock.inner_s.pop()
                if clock.inner_s:
                    clock.inner_s[-1] += spent
                clock.renders[name] = clock.renders.get(name, 0) + 1
                clock.own_s[name] = clock.own_s.get(name, 0.0) + spent - inner

        base.Template.render = timed  # type: ignore[method-assign]

    def stop(self) -> None:
        from django.template import base

        base.Template.render = self.render  # type: ignore[method-assign]

    def report(self, moves: int, top: int = 15) -> None:
        total = sum(self.own_s.values())
        print(f"templates: {total * 1000 / moves:.2f} ms a move of their own time, the most costly first")
        for name in sorted(self.own_s, key=self.own_s.__getitem__, reverse=True)[:top]:
            print(
                f"  {self.own_s[name] * 1000 / moves:6.3f} ms  {self.renders[name] / moves:5.2f} renders a move  "
                f"{Path(name).relative_to(ROOT) if name.startswith(str(ROOT)) else name}"
            )


if __name__ == "__main__":
    sys.exit(main())
