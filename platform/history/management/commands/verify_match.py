"""``manage.py verify_match ID``: recompute a finished match's seed from its revealed secret,
replay every move and compare every state; exit 1 naming the first move that differs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from history import deals
from tables.models import Match


class Command(BaseCommand):
    help = "Verify a finished match's deal and every move against its published commitment."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_id", type=int)
        parser.add_argument("--secret", help="check this secret instead of the stored one (hex)")

    def handle(self, *args: Any, match_id: int, secret: str | None = None, **options: Any) -> None:
        match = Match.objects.select_related("table").filter(pk=match_id).first()
        if match is None:
            raise CommandError(f"There is no match {match_id}.")
        verdict = deals.verify(match, secret)
        for check in verdict.checks:
            if not check.ok or check.seq is None or options["verbosity"] > 1:
                self.stdout.write(f"{'ok  ' if check.ok else 'FAIL'} {check.text}")
        if not verdict.ok:
            raise CommandError(verdict.first_failure.text if verdict.first_failure else "not verified")
        self.stdout.write(self.style.SUCCESS(f"match {match.pk}: the deal and every move verify"))
