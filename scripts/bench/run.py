"""`make bench`: the site beside a bare Channels echo, same machine, same generator, same load.

    .venv/bin/python scripts/bench/run.py            # the short set (8 s a run), about 3½ minutes
    .venv/bin/python scripts/bench/run.py --full     # every mode in every configuration
    .venv/bin/python scripts/bench/run.py --smoke    # two tables, a few moves (make test)
    .venv/bin/python scripts/bench/run.py --run b:staggered --repeat 5   # one run five times, its spread

Configurations: (a) the embedded default (SQLite, in-memory layer, one daphne); (b) PostgreSQL
and Redis, one daphne; (c) PostgreSQL and Redis, two daphne processes with each table's clients
split between them. Modes: waves, staggered, saturation (see load.py). Printed as a markdown table:
applied and offered moves/s, p50/p95/p99, server CPU ms per applied move (from /proc), the ratio
to the echo's, RSS per idle socket, bytes per frame, SQL queries and template renders per move
(from the site's counting hook, on only here: BENCH_COUNTERS=1).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import secrets
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from scripts.bench import load  # noqa: E402
from tests.servers import Daphne  # noqa: E402

PG = "postgres://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379/5"
SEATS = 6
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Plan:
    tables: int
    rate: float
    seconds: float
    runs: list[tuple[str, str]]  # (configuration, mode)


SHORT = Plan(100, 100.0, 8.0, [("a", "staggered"), ("b", "staggered"), ("b", "saturation"), ("c", "saturation")])
FULL = Plan(
    100,
    100.0,
    30.0,
    [(c, m) for c in ("a", "b") for m in ("waves", "staggered", "slow", "saturation")] + [("c", "saturation")],
)
SMOKE = Plan(2, 4.0, 3.0, [("a", "staggered"), ("a", "saturation")])  # two runs: one database and its guests, reused


def _cpu_seconds(pid: int, thread: int | None = None) -> float:
    """A process's CPU seconds (user and system), or with ``thread`` that thread's alone."""
    path = f"/proc/{pid}/task/{thread}/stat" if thread is not None else f"/proc/{pid}/stat"
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _psql(sql: str) -> None:
    with psycopg.connect(f"{PG}/test", autocommit=True) as db:
        db.execute(sql.encode())


class Database:
    """One database and its guests, shared by the runs of a family: (a) has its own SQLite file;
    (b) and (c) share one PostgreSQL database. Migrated once and its guests made once (two thirds
    of a table's setup), each run still gets fresh tables; the tables of a run are paused after it
    (load.pause_table), so a later run's server does not play them."""

    def __init__(self, configuration: str, workdir: Path) -> None:
        self.name = ""
        self.env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
            "DJANGO_SETTINGS_MODULE": "shabneshin.settings",
            "BENCH_COUNTERS": "1",
            "LOG_LEVEL": "ERROR",
            # Night turns wait a minimum length (so timing does not tell roles): shortened so a
            # table can be offered a move about every second.
            "TIMER_SCALE": "0.2",
            "DATABASE_URL": "",
            "REDIS_URL": "",
            # Setup makes hundreds of guests and tables from one address.
            **{
                f"RATE_{name}": "1000000"
                for name in ("GUESTS_PER_HOUR", "SIGNUPS_PER_HOUR", "TABLES_PER_HOUR", "FRAMES_PER_ADDRESS_10S")
            },
        }
        if configuration == "a":
            self.env["SQLITE_PATH"] = str(workdir / f"bench-{secrets.token_hex(3)}.sqlite3")
        else:
            self.name = f"shabneshin_bench_{secrets.token_hex(4)}"
            _psql(f'CREATE DATABASE "{self.name}"')
            self.env["DATABASE_URL"] = f"{PG}/{self.name}"
            self.env["REDIS_URL"] = REDIS
        subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=self.env, check=True)
        self.guests: list[list[load.Browser]] = []  # each table's seats, table i's at [i]

    def tables(self, servers: Servers, n: int) -> list[load.Table]:
        """``n`` new started tables through ``servers``' HTTP flows, seated by this database's guests."""
        with ThreadPoolExecutor(8) as pool:
            base = servers.urls[0]
            self.guests += pool.map(lambda i: load.set_up_guests(base, i, SEATS), range(len(self.guests), n))
            made = list(pool.map(lambda i: load.set_up_table(servers.urls, self.guests[i]), range(n)))
        return [
            load.Table(_sockets_for(servers.urls, f"/ws/tables/{token}/", cookies), random.Random(i), token)
            for i, (token, cookies) in enumerate(made)
        ]

    def pause(self, tables: list[load.Table]) -> None:
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda i: load.pause_table(self.guests[i][0], tables[i].token), range(len(tables))))

    def _count(self, where: str, *params: Any) -> int:
        """``SELECT count(*)`` of the matches ``where`` says, from the bench's side of the database."""
        sql = f"SELECT count(*) FROM tables_match WHERE {where}"
        if not self.name:
            with closing(sqlite3.connect(self.env["SQLITE_PATH"])) as db:
                return int(db.execute(sql.replace("%s", "?"), params).fetchone()[0])
        with psycopg.connect(f"{PG}/{self.name}") as db:
            row = db.execute(sql.encode(), params).fetchone()
            return int(row[0]) if row else 0

    def overdue(self) -> int:
        """Unpaused matches whose next deadline passed more than a quarter second ago."""
        cutoff = datetime.now(UTC) - timedelta(seconds=0.25)
        if not self.name:  # Django keeps SQLite's datetimes as UTC text
            cutoff = cutoff.strftime("%Y-%m-%d %H:%M:%S.%f")  # type: ignore[assignment]
        return self._count("status = 'playing' AND paused_at IS NULL AND next_deadline < %s", cutoff)

    def playing(self) -> int:
        """Matches still playing unpaused: before a run's tables are made, none may be left."""
        return self._count("status = 'playing' AND paused_at IS NULL")

    def drop(self) -> None:
        if self.name:
            _psql(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


class Servers:
    """The site's (or the echo's) server processes for one run: two for (c), else one."""

    def __init__(self, database: Database, configuration: str, app: str, workdir: Path) -> None:
        count = 2 if configuration == "c" else 1
        self.processes = [
            Daphne(database.env, workdir / f"{configuration}-{i}-{app.split('.')[0]}.log", app) for i in range(count)
        ]

    @property
    def urls(self) -> list[str]:
        return [p.url for p in self.processes]

    def cpu_each(self) -> list[float]:
        return [_cpu_seconds(p.pid) for p in self.processes]

    def loop_cpu_each(self) -> list[float]:
        """Each process's main thread, where daphne runs the event loop (the other threads are
        Channels' database worker, the clock's and small helpers)."""
        return [_cpu_seconds(p.pid, p.pid) for p in self.processes]

    def rss(self) -> int:
        return sum(_rss_kib(p.pid) for p in self.processes)

    def counters(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for url in self.urls:
            with urllib.request.urlopen(url + "/__counters__", timeout=10) as response:
                for key, value in json.loads(response.read()).items():
                    total[key] = (
                        max(total.get(key, 0), value)
                        if key.endswith("max_us") or key.endswith("max_ms")
                        else total.get(key, 0) + value
                    )
        return total

    def stop(self) -> None:
        for process in self.processes:
            process.stop()


def _sockets_for(urls: list[str], path: str, cookies: list[str]) -> list[load.Socket]:
    out = []
    for i, cookie in enumerate(cookies):
        base = urls[i % len(urls)]
        out.append(load.Socket(url=base.replace("http", "ws", 1) + path, origin=base, cookie=cookie))
    return out


async def _drive(tables: list[load.Table], mode: str, plan: Plan, rng: random.Random) -> list[load.Outcome]:
    if mode == "waves":
        return await load.waves(tables, plan.rate, plan.seconds)
    if mode == "staggered":
        return await load.staggered(tables, plan.rate, plan.seconds, rng)
    if mode == "slow":  # ~10 moves/s offered, staggered
        return await load.staggered(tables, plan.rate / 10, plan.seconds, rng)
    return await load.saturation(tables, plan.seconds)


def _profilers(servers: Servers, plan: Plan) -> list[subprocess.Popen[bytes]]:
    """With BENCH_PYSPY=<folder>, py-spy records each site process during the timed run (raw
    folded stacks, idle included, one file a process). py-spy is not a dependency: point
    BENCH_PYSPY_BIN at it. BENCH_PYSPY_GIL=1 samples only the thread holding the GIL (the Python
    CPU, without the time a thread spends waiting for the GIL after a system call). Samples are
    taken without pausing the process (``--nonblocking``), so a profiled run reads close to a plain one."""
    folder = os.environ.get("BENCH_PYSPY")
    if not folder:
        return []
    binary = os.environ.get("BENCH_PYSPY_BIN", "py-spy")
    return [
        subprocess.Popen(
            [
                binary,
                "record",
                "-p",
                str(p.pid),
                "-d",
                str(int(plan.seconds)),
                "-r",
                "100",
                "-f",
                "raw",
                "--nonblocking",  # sampling without pausing the process, so the figures stay its own
                *(["--gil"] if os.environ.get("BENCH_PYSPY_GIL") else ["--idle"]),
                "--threads",
                "-o",
                f"{folder}/site-{i}.txt",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for i, p in enumerate(servers.processes)
    ]


class _Phases:
    """With BENCH_PHASES=1, how long each part of a run took, on stderr (where the bench's own
    minutes go)."""

    def __init__(self, label: str) -> None:
        self.label, self.last = label, time.perf_counter()
        self.on = bool(os.environ.get("BENCH_PHASES"))

    def __call__(self, name: str) -> None:
        now = time.perf_counter()
        if self.on:
            print(f"  [{self.label}] {name}: {now - self.last:.1f} s", file=sys.stderr, flush=True)
        self.last = now


def _measure(
    servers: Servers, tables: list[load.Table], mode: str, plan: Plan, overdue: Callable[[], int] | None = None
) -> dict[str, float]:
    """One timed run. ``overdue`` (the site's): how many matches the clock has yet to catch up
    with; the run starts once it is none."""
    rng = random.Random(7)
    site = overdue is not None

    async def go() -> dict[str, float]:
        phase = _Phases("site" if site else "echo")
        rss_before = servers.rss()
        # A few tables' handshakes at a time (600 at once overflow the listen backlog), a new one
        # as soon as one is done, so the slowest handshake of a batch holds up nobody.
        opening = asyncio.Semaphore(10)

        async def open_table(table: load.Table) -> None:
            async with opening:
                await table.open()

        await asyncio.gather(*(open_table(t) for t in tables))
        if site:  # every first render has arrived, then the sockets idle
            first = asyncio.gather(*(t.until(lambda t=t: all(s.version >= 0 for s in t.sockets), 30) for t in tables))
            if not all(await first):
                raise RuntimeError("a socket had no first render in 30 s")
        phase("sockets opened")
        # The tables' first night turns came due during the setup, while the server was busy with
        # it: the run starts once the clock has caught up (its lateness is then the load's).
        settle_by = time.perf_counter() + 30
        while overdue is not None and overdue() and time.perf_counter() < settle_by:
            await asyncio.sleep(0.2)
        phase("clock caught up")
        await asyncio.sleep(0.5)
        sockets = sum(len(t.sockets) for t in tables)
        rss_per_socket = (servers.rss() - rss_before) / sockets
        for t in tables:
            for s in t.sockets:
                s.frames = s.bytes = 0
        versions = sum(max(s.version for s in t.sockets) for t in tables)
        counted = servers.counters() if site else {}
        profilers = _profilers(servers, plan) if site else []
        cpu_each, loop_each, began = servers.cpu_each(), servers.loop_cpu_each(), time.perf_counter()
        outcomes = await _drive(tables, mode, plan, rng)
        for profiler in profilers:
            profiler.wait()
        elapsed = time.perf_counter() - began
        # The loop's thread read inside the processes' readings (process, loop ... loop, process), so
        # its window lies within theirs. /proc floors user and system times to whole clock ticks
        # each, so a reading is up to two ticks low and the loop's share can still read up to three
        # ticks ("tick_share") above its process's.
        loop_each = [after - before for before, after in zip(loop_each, servers.loop_cpu_each(), strict=True)]
        cpu_each = [after - before for before, after in zip(cpu_each, servers.cpu_each(), strict=True)]
        cpu = sum(cpu_each)
        await asyncio.sleep(0.5)
        applied_all = sum(max(s.version for s in t.sockets) for t in tables) - versions if site else 0
        after = servers.counters() if site else {}
        phase("timed run")
        await asyncio.gather(*(t.close() for t in tables))
        phase("sockets closed")
        latencies = [o.latency for o in outcomes if o.latency is not None]
        if os.environ.get("BENCH_LATENCIES"):  # each move's send (s into the run), latency (ms), type
            with open(os.environ["BENCH_LATENCIES"], "a") as out:
                for o in outcomes:
                    if o.offered:
                        lat = -1.0 if o.latency is None else o.latency * 1000
                        out.write(f"{'site' if site else 'echo'} {o.started - began:.3f} {lat:.1f} {o.kind}\n")
        offered = [o for o in outcomes if o.offered]
        moves = max(applied_all, len(latencies)) or 1
        frames = sum(s.frames for t in tables for s in t.sockets) or 1
        return {
            "offered": len(offered) / elapsed,
            "applied": len(latencies) / elapsed,
            "applied_share": len(latencies) / (len(offered) or 1),
            "p50": load.percentile(latencies, 0.5) * 1000,
            "p95": load.percentile(latencies, 0.95) * 1000,
            "p99": load.percentile(latencies, 0.99) * 1000,
            "cpu_ms": cpu * 1000 / moves,
            # Each server process's CPU over the run, as a share of one core: one Python process
            # with the GIL runs out at about one core, so near 100% its ceiling is its CPU a move.
            "busy": [seconds / elapsed for seconds in cpu_each],
            "loop_busy": [seconds / elapsed for seconds in loop_each],  # the event loop's thread's share
            "tick_share": 1 / TICKS / elapsed,  # one clock tick of /proc's CPU times, as a share over the run
            "rss_kib": rss_per_socket,
            "bytes": sum(s.bytes for t in tables for s in t.sockets) / frames,
            "queries": (after["queries"] - counted["queries"]) / moves if site else float("nan"),
            "renders": (after["renders"] - counted["renders"]) / moves if site else float("nan"),
            "gc_ms": (after["gc_us"] - counted["gc_us"]) / 1000 / moves if site else float("nan"),
            "gc_full": after["gc_full"] - counted["gc_full"] if site else 0,
            # The longest pause since the process started (its setup included), not only this run's.
            "gc_longest_since_start_ms": after["gc_max_us"] / 1000 if site else float("nan"),
            # Every move applied at the run's tables a second, the clock's (night minimums, timeouts) too.
            "all_moves": applied_all / elapsed,
            # The clock's moves and how late it applied them (after it was due), this run only.
            "clock_moves": (after["clock_moves"] - counted["clock_moves"]) / elapsed if site else float("nan"),
            "clock_late_mean_ms": (
                (after["clock_late_ms"] - counted["clock_late_ms"])
                / max(1, after["clock_moves"] - counted["clock_moves"])
                if site
                else float("nan")
            ),
            "clock_late_max_ms": after["clock_late_max_ms"] if site else float("nan"),
        }

    return asyncio.run(go())


def _echo_tables(servers: Servers, n: int) -> list[load.Table]:
    return [
        load.EchoTable(_sockets_for(servers.urls, f"/ws/echo/t{i}/", [""] * SEATS), random.Random(i)) for i in range(n)
    ]


def run(plan: Plan) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    databases: dict[str, Database] = {}  # "a", or "pg" for (b) and (c)
    with tempfile.TemporaryDirectory(prefix="shabneshin-bench-") as tmp:
        workdir = Path(tmp)
        try:
            for configuration, mode in plan.runs:
                family = "a" if configuration == "a" else "pg"
                if family not in databases:
                    databases[family] = Database(configuration, workdir)
                database = databases[family]
                figures = {}
                for kind in ("site", "echo"):
                    phase = _Phases(f"({configuration}) {mode} {kind}")
                    app = "shabneshin.asgi:application" if kind == "site" else "scripts.bench.echo:application"
                    servers = Servers(database, configuration, app, workdir)
                    phase("server started")
                    try:
                        if kind == "site":
                            earlier = database.playing()  # an earlier run's table left playing would skew this one
                            tables = database.tables(servers, plan.tables)
                            phase("tables made")
                            measured = _measure(servers, tables, mode, plan, database.overdue)
                            figures[kind] = {**measured, "earlier_playing": earlier}
                            phase.last = time.perf_counter()
                            database.pause(tables)
                            phase("tables paused")
                        else:
                            figures[kind] = _measure(servers, _echo_tables(servers, plan.tables), mode, plan)
                    except Exception:
                        for process in servers.processes:  # what the server said, before its folder goes
                            tail = process.log_path.read_text(errors="replace").splitlines()[-40:]
                            print(f"--- {process.log_path.name}, last lines:", *tail, sep="\n", file=sys.stderr)
                        raise
                    finally:
                        servers.stop()
                rows.append({"configuration": configuration, "mode": mode, **figures})
                print(table_row(rows[-1]), flush=True)
        finally:
            for database in databases.values():
                database.drop()
    return rows


HEADER = (
    "| config | mode | offered/s | applied/s (share) | p50 · p95 · p99 ms | CPU ms/move | × echo | "
    "busy % of a core | RSS KiB/socket | bytes/frame | SQL/move | renders/move | "
    "clock moves/s · late mean · max ms |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def _counted(per_move: float) -> str:
    """A counter's figure a move; the echo counts nothing (NaN), shown as a dash."""
    return "—" if math.isnan(per_move) else f"{per_move:.1f}"


def _clock(f: dict[str, float]) -> str:
    """The clock's moves a second and how late they came (the echo has no clock: a dash)."""
    if math.isnan(f.get("clock_moves", math.nan)):
        return "—"
    return f"{f['clock_moves']:.1f} · {f['clock_late_mean_ms']:.0f} · {f['clock_late_max_ms']:.0f}"


def _busy(f: dict[str, Any]) -> str:
    """Each server process's share of a core over the run, and its event loop's thread's: ``92
    (loop 58)`` for one, ``71 (loop 45) + 68 (loop 44)`` for two."""
    shares = zip(f["busy"], f["loop_busy"], strict=True)
    return " + ".join(f"{share * 100:.0f} (loop {loop * 100:.0f})" for share, loop in shares)


def table_row(row: dict[str, object]) -> str:
    site, echo = row["site"], row["echo"]
    assert isinstance(site, dict) and isinstance(echo, dict)
    lines = []
    for label, f in (("site", site), ("echo", echo)):
        ratio = f"{site['cpu_ms'] / echo['cpu_ms']:.1f}" if label == "site" and echo["cpu_ms"] else "1"
        lines.append(
            f"| ({row['configuration']}) {label} | {row['mode']} | {f['offered']:.1f} | "
            f"{f['applied']:.1f} ({f['applied_share']:.0%}) | {f['p50']:.0f} · {f['p95']:.0f} · {f['p99']:.0f} | "
            f"{f['cpu_ms']:.2f} | {ratio} | {_busy(f)} | {f['rss_kib']:.0f} | {f['bytes']:.0f} | "
            f"{_counted(f['queries'])} | {_counted(f['renders'])} | {_clock(f)} |"
        )
    return "\n".join(lines)


SPREAD_HEADER = (
    "| config | mode | runs | applied (lowest share) | p50 ms: median (range) | p99 ms: median (range) | "
    "CPU × echo: median (range) |\n"
    "|---|---|---|---|---|---|---|"
)


def _median_and_range(values: list[float], digits: int = 0) -> str:
    ordered = sorted(values)
    if not ordered:
        return "—"
    return f"{statistics.median(ordered):.{digits}f} ({ordered[0]:.{digits}f}–{ordered[-1]:.{digits}f})"


def spread(rows: list[dict[str, object]]) -> list[str]:
    """For runs repeated (``--repeat``), one line per configuration and mode: the site's median
    and range over its runs. A run's p99 moves by a factor of four or five within an hour on this
    shared machine (README "Performance"), so one run alone tells little, and two changes are
    compared by their medians over several runs, alternated."""
    groups: dict[tuple[object, object], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["configuration"], row["mode"]), []).append(row)
    lines = []
    for (configuration, mode), runs in groups.items():
        sites = [run["site"] for run in runs]
        ratios = [r["site"]["cpu_ms"] / r["echo"]["cpu_ms"] for r in runs if r["echo"]["cpu_ms"]]
        lines.append(
            f"| ({configuration}) site | {mode} | {len(runs)} | {min(f['applied_share'] for f in sites):.0%} | "
            f"{_median_and_range([f['p50'] for f in sites])} | {_median_and_range([f['p99'] for f in sites])} | "
            f"{_median_and_range(ratios, 1)} |"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--tables", type=int, help="override the plan's number of tables")
    parser.add_argument("--rate", type=float, help="override the moves/s offered")
    parser.add_argument("--seconds", type=float, help="override the length of a run")
    parser.add_argument("--run", action="append", metavar="CONFIG:MODE", help="only these runs, e.g. a:staggered")
    parser.add_argument(
        "--repeat", type=int, default=1, metavar="K", help="each run K times, then each one's median and range"
    )
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat takes a whole number of at least 1")
    plan = SMOKE if args.smoke else FULL if args.full else SHORT
    runs = [tuple(r.split(":", 1)) for r in args.run] if args.run else plan.runs
    plan = Plan(
        args.tables or plan.tables,
        args.rate or plan.rate,
        args.seconds or plan.seconds,
        [run for run in runs for _ in range(args.repeat)],  # type: ignore[misc]
    )
    print(f"{plan.tables} tables × {SEATS} sockets, ~{plan.rate:.0f} moves/s offered, {plan.seconds:.0f} s a run\n")
    print(HEADER, flush=True)
    rows = run(plan)
    if args.repeat > 1:
        print("", SPREAD_HEADER, *spread(rows), sep="\n", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
