"""``python -m shabneshin.serve [daphne's options] shabneshin.asgi:application``: daphne on uvloop.

Daphne creates its event loop when ``daphne.server`` is imported (Twisted's asyncio reactor runs
on it), so the loop's kind must be chosen before that import: this sets uvloop's policy, then runs
daphne's own command line with the same arguments. Twisted still reads and writes the sockets;
uvloop runs the loop itself, the consumers' tasks and futures and Channels' hand-offs, which were
a large part of a move's CPU beside the renders. Measured as (b)'s saturated ceiling, alternated
runs: about 10% more moves a second (README "Performance").

``SERVER_UVLOOP=0`` runs daphne on asyncio's own loop (to compare, or where uvloop misbehaves).
"""

from __future__ import annotations

import asyncio
import sys

from shabneshin.env import env_bool


def main() -> None:
    if "daphne.server" in sys.modules:  # too late: its loop exists already
        raise RuntimeError("shabneshin.serve must run before daphne.server is imported")
    if env_bool("SERVER_UVLOOP", True):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    import daphne.server  # creates daphne's loop and installs Twisted's reactor on it
    from daphne.cli import CommandLineInterface

    loop = daphne.server.twisted_loop
    print(f"shabneshin.serve: event loop {type(loop).__module__}.{type(loop).__qualname__}", file=sys.stderr)
    sys.argv[0] = "daphne"
    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
