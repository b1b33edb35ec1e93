"""``manage.py recompute_ratings``: recompute every rating from the stored results and move logs,
print where the stored table differs, and with ``--write`` store the recomputed one."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from history import ratings


class Command(BaseCommand):
    help = "Recompute every rating from the results and move logs and print any difference."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", action="append", choices=sorted(ratings.RATED_GAMES), help="only this game")
        parser.add_argument("--write", action="store_true", help="store the recomputed ratings")

    def handle(self, *args: Any, game: list[str] | None = None, write: bool = False, **options: Any) -> None:
        differences = ratings.recompute(game or ratings.RATED_GAMES, write=write)
        for difference in differences:
            self.stdout.write(str(difference))
        if differences:
            self.stdout.write(
                f"{len(differences)} difference(s)" + ("; the recomputed ratings are stored" if write else "")
            )
        else:
            self.stdout.write(self.style.SUCCESS("the stored ratings equal the recomputed ones"))
