"""How much better than random play is each practice bot? A table of advantages per game.

    python scripts/botduel.py [--games N] [--first I] [SLUG ...]   (default: 500 games a game, all games)

Two measures, each over N seeded games per game (player counts and the measured seat rotate, so
every count and seat is measured alike; the deal depends only on the seed):

- **one bot**: seat s is a practice bot, every other seat plays uniformly random legal moves.
  The advantage is how much more often seat s ends in the winning side than a random player in
  the same seat of the same deal (seats that share a win, as a team does, all count as winning).
- **all bots**: every seat is a bot, compared with the same table where seat s alone plays at
  random among bots: how much more often a bot seat wins than a random one against bots.

The advantage is printed with its standard error (± SE, from the per-deal paired differences):
over 500 deals a werewolf advantage moves by about 2 points either way from seed window to window.

Random players never choose ``timeout`` unless it is their only action (a night close). In
werewolf the bots also talk: their day lines (``games/werewolf/talk.py``) form the public chat that
every bot reads, as at a real table; random players say nothing.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402
from games.base import Engine, State, pick, rng_for  # noqa: E402

MAX_STEPS = 20_000
# Table options of the duel: Night of the Mummy's bots can ask each other forever, so the duel
# plays with its round limit (a draw: nobody wins), and 7-8 players need the advanced guests.
ROUND_LIMIT = 20


def options_for(engine: Engine, n: int) -> dict[str, Any]:
    if engine.slug == "mummy":
        return {"max_rounds": ROUND_LIMIT, "advanced_guests": n >= 7}
    return {}


@dataclass(frozen=True)
class Duel:
    slug: str
    games: int
    one_bot: float  # the bot seat's win rate among random players
    one_random: float  # a random seat's win rate in the same seat and deal
    all_bots: float  # a bot seat's win rate among bots
    all_but_one: float  # a random seat's win rate among bots
    one_se: float = 0.0  # standard error of the one-bot advantage (paired over the same deals)
    all_se: float = 0.0  # standard error of the all-bots advantage

    @property
    def one_bot_advantage(self) -> float:
        return self.one_bot - self.one_random

    @property
    def all_bots_advantage(self) -> float:
        return self.all_bots - self.all_but_one


def _bots(slug: str) -> ModuleType:
    return importlib.import_module(f"games.{slug}.bots")


def _talk(slug: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"games.{slug}.talk")
    except ModuleNotFoundError:
        return None


class _Chat:
    """The public chat of a simulated table: what the talking bots said, in order."""

    def __init__(self, engine: Engine, talk: ModuleType | None, seed: int) -> None:
        self.engine, self.talk, self.seed = engine, talk, seed
        self.messages: list[dict[str, Any]] = []
        self.said: set[tuple[int, int, str]] = set()

    def speak(self, state: State, bots: set[int]) -> None:
        """Every living bot says the lines it would post in this discussion (once each)."""
        if self.talk is None or not self.talk.may_talk(self.engine.view(state, None)):
            return
        for seat in sorted(bots):
            view = self.engine.view(state, seat)
            for line in self.talk.lines(view, list(self.messages), self.talk.rng_for_seat(self.seed, seat)):
                key = (seat, view["round"], line["key"])
                if key not in self.said:
                    self.said.add(key)
                    self.messages.append({"seat": seat, **line})


def play(engine: Engine, n: int, seed: int, bots: set[int]) -> list[int]:
    """One game: the seats in ``bots`` play the practice bot, the rest uniformly random legal
    moves. Returns the winners."""
    module = _bots(engine.slug)
    reads_chat = bool(getattr(module, "READS_CHAT", False))
    chat = _Chat(engine, _talk(engine.slug), seed)
    state = engine.setup(n, options_for(engine, n), seed)
    steps = 0
    while engine.awaiting(state):
        steps += 1
        if steps > MAX_STEPS:
            raise AssertionError(f"{engine.slug} n={n} seed={seed} did not end")
        chat.speak(state, bots)
        rng = rng_for(f"duel:{seed}", state["step"])
        seat = pick(rng, sorted(engine.awaiting(state)))
        legal = engine.legal_actions(state, seat)
        if len(legal) == 1:
            action = legal[0]  # only the clock moves (a night close)
        elif seat in bots:
            view = engine.view(state, seat)
            bot_rng = rng_for(f"bot:{seed}:{seat}", state["step"])
            if reads_chat:
                action = module.choose(view, legal, bot_rng, chat=list(chat.messages))
            else:
                action = module.choose(view, legal, bot_rng)
        else:
            action = pick(rng, legal[:-1])
        state = engine.apply(state, seat, action)
    result = engine.result(state)
    assert result is not None
    return list(result.winners)


def _deal(engine: Engine, i: int) -> tuple[int, int, int]:
    """The i-th game's player count, seed and measured seat."""
    counts = list(range(engine.min_players, engine.max_players + 1))
    n = counts[i % len(counts)]
    seed = 1000 + i
    return n, seed, (i // len(counts)) % n


def short_duel(slug: str, games: int, all_bots: bool = False) -> tuple[float, float]:
    """One measure alone: (bot seat's win rate, random seat's win rate) over the same deals, with
    one bot among random players, or (``all_bots``) among bots."""
    engine = registry.get(slug)
    bot = random_player = 0
    for i in range(games):
        n, seed, seat = _deal(engine, i)
        others = set(range(n)) - {seat} if all_bots else set()
        bot += seat in play(engine, n, seed, others | {seat})
        random_player += seat in play(engine, n, seed, others)
    return bot / games, random_player / games


def _se(diffs: list[int]) -> float:
    """The standard error of the mean of paired differences (each -1, 0 or 1)."""
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    return float((sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) ** 0.5)


def duel(slug: str, games: int, progress: Callable[[str], None] | None = None, first: int = 0) -> Duel:
    engine = registry.get(slug)
    wins = {"one_bot": 0, "one_random": 0, "all_bots": 0, "all_but_one": 0}
    one_diffs: list[int] = []
    all_diffs: list[int] = []
    for i in range(first, first + games):
        n, seed, seat = _deal(engine, i)
        everyone = set(range(n))
        game = {
            "one_bot": seat in play(engine, n, seed, {seat}),
            "one_random": seat in play(engine, n, seed, set()),
            "all_bots": seat in play(engine, n, seed, everyone),
            "all_but_one": seat in play(engine, n, seed, everyone - {seat}),
        }
        for key, won in game.items():
            wins[key] += won
        one_diffs.append(game["one_bot"] - game["one_random"])
        all_diffs.append(game["all_bots"] - game["all_but_one"])
        if progress and (i + 1 - first) % 100 == 0:
            progress(f"{slug}: {i + 1 - first}/{games}")
    rates = (wins[k] / games for k in ("one_bot", "one_random", "all_bots", "all_but_one"))
    return Duel(slug, games, *rates, one_se=_se(one_diffs), all_se=_se(all_diffs))


def table(duels: list[Duel]) -> str:
    def pp(x: float, se: float) -> str:
        return f"{x * 100:+.1f} pp ± {se * 100:.1f}"

    def pc(x: float) -> str:
        return f"{x * 100:.1f}%"

    rows = [
        "| game | games | one bot among random: bot wins | random wins | advantage ± SE "
        "| all bots: bot wins | random among bots wins | advantage ± SE |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for d in duels:
        rows.append(
            f"| {d.slug} | {d.games} | {pc(d.one_bot)} | {pc(d.one_random)} | {pp(d.one_bot_advantage, d.one_se)} "
            f"| {pc(d.all_bots)} | {pc(d.all_but_one)} | {pp(d.all_bots_advantage, d.all_se)} |"
        )
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--first", type=int, default=0, help="the first deal's index (another window of seeds)")
    parser.add_argument("slugs", nargs="*")
    args = parser.parse_args(argv)
    slugs = args.slugs or [e.slug for e in registry.all()]
    duels = []
    for slug in slugs:
        duels.append(duel(slug, args.games, lambda s: print(s, file=sys.stderr), first=args.first))
        print(table(duels[-1:]).splitlines()[-1], file=sys.stderr)
    print(table(duels))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
