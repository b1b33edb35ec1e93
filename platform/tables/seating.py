"""Before the start: creating tables, taking and leaving seats, practice bots, starting.

Every function raises :class:`SeatingError` with a readable, translated message for anything a
player may not do, and changes nothing then.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import registry
from games.base import OptionsRefused
from moderation.models import Block
from shabneshin.localize import digits
from tables import broadcast, moderator
from tables.models import Match, Seat, Table, TableEvent


class SeatingError(Exception):
    """A seating request that is refused; ``message`` is for the player. ``fix``: the game's own
    remedy for refused options (``games.base.OptionsRefused.fix``), option key -> value."""

    def __init__(self, message: str, fix: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.fix = dict(fix or {})


@transaction.atomic
def create_table(
    host: User,
    game: str,
    seat_count: int,
    visibility: str,
    options: dict[str, Any] | None = None,
    speed: str = "normal",
) -> Table:
    resolved = validated_options(game, seat_count, options)
    table = Table.objects.create(
        game=game, host=host, seat_count=seat_count, visibility=visibility, options=resolved, speed=speed
    )
    Seat.objects.bulk_create([Seat(table=table, number=n) for n in range(seat_count)])
    Seat.objects.filter(table=table, number=0).update(user=host, seated_at=timezone.now())
    broadcast.listing_changed(table)
    return table


def validated_options(game: str, seat_count: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """The game's options resolved for ``seat_count`` players, or ``SeatingError`` saying why not:
    the same checks for a new table and for a host changing an open table's settings."""
    engine = registry.get(game)
    if not engine.min_players <= seat_count <= engine.max_players:
        counts = {"min": engine.min_players, "max": engine.max_players}
        raise SeatingError(digits(_("This game takes %(min)d to %(max)d players.") % counts))
    try:
        resolved = engine.resolve_options(options)
        engine.setup(seat_count, dict(resolved), 0)  # a combination the game cannot deal is refused now
    except ValueError as exc:
        fix: dict[str, Any] = {}
        if isinstance(exc, OptionsRefused):
            reason = _(exc.message) % {key: digits(value) for key, value in exc.params.items()}
            fix = exc.fix
        else:
            reason = str(exc)
        raise SeatingError(_("These options are not valid: %(reason)s") % {"reason": reason}, fix) from None
    return dict(resolved)


def longest_seated(table: Table, exclude_user_id: int | None = None):  # noqa: ANN201
    """The table's human seats, the one seated longest first (then by seat number)."""
    seats = table.seats.filter(user__isnull=False, is_bot=False)
    if exclude_user_id is not None:
        seats = seats.exclude(user_id=exclude_user_id)
    return seats.order_by(F("seated_at").asc(nulls_last=True), "number")


def _locked_open_table(table: Table) -> Table:
    locked = Table.objects.select_for_update().get(pk=table.pk)
    if locked.status != Table.Status.OPEN:
        raise SeatingError(_("The game has already started; seats can no longer change."))
    return locked


def changed(table: Table) -> None:
    """Tell the table's sockets, and the lobby if the table is listed, after the commit."""
    broadcast.table_changed(table.token)
    broadcast.listing_changed(table)


@transaction.atomic
def sit(table: Table, user: User, number: int | None = None) -> Seat:
    table = _locked_open_table(table)
    if table.seats.filter(user=user).exists():
        raise SeatingError(_("You already have a seat at this table."))
    if Block.objects.filter(blocker_id=table.host_id, blocked=user).exists():
        raise SeatingError(_("The host of this table does not want you at their tables."))
    if TableEvent.objects.filter(table=table, kind=TableEvent.Kind.KICK, target=user).exists():
        raise SeatingError(_("The host removed you from this table."))
    free = table.seats.filter(user__isnull=True, is_bot=False)
    seat = free.filter(number=number).first() if number is not None else free.first()
    if seat is None:
        raise SeatingError(_("That seat is taken.") if number is not None else _("This table is full."))
    seat.user, seat.seated_at = user, timezone.now()
    try:
        with transaction.atomic():
            seat.save(update_fields=["user", "seated_at"])
    except IntegrityError:
        raise SeatingError(_("You already have a seat at this table.")) from None
    changed(table)
    return seat


def leaving_closes(table: Table, user: User) -> bool:
    """Whether ``user`` leaving this open table would close it: they host it and no other person
    is seated to take it over (bots do not host)."""
    if table.status != Table.Status.OPEN or table.host_id != user.pk:
        return False
    return not table.seats.filter(user__isnull=False).exclude(user=user).exists()


@transaction.atomic
def leave(table: Table, user: User) -> None:
    table = _locked_open_table(table)
    seat = table.seats.filter(user=user).first()
    if seat is None:
        raise SeatingError(_("You have no seat at this table."))
    seat.user, seat.seated_at, seat.seen_at = None, None, None
    seat.save(update_fields=["user", "seated_at", "seen_at"])
    if table.host_id == user.pk:
        successor = longest_seated(table, user.pk).first()
        if successor is None:
            table.status = Table.Status.ABORTED
            table.save(update_fields=["status", "updated_at"])
        else:
            table.host = successor.user
            table.save(update_fields=["host", "updated_at"])
    changed(table)


def _host_only(table: Table, user: User) -> None:
    if table.host_id != user.pk:
        raise SeatingError(_("Only the host can do that."))


@transaction.atomic
def add_bot(table: Table, user: User, number: int | None = None) -> Seat:
    table = _locked_open_table(table)
    _host_only(table, user)
    free = table.seats.filter(user__isnull=True, is_bot=False)
    seat = free.filter(number=number).first() if number is not None else free.first()
    if seat is None:
        raise SeatingError(_("There is no empty seat for a bot."))
    seat.is_bot = True
    seat.save(update_fields=["is_bot"])
    changed(table)
    return seat


@transaction.atomic
def fill_with_bots(table: Table, user: User) -> int:
    table = _locked_open_table(table)
    _host_only(table, user)
    count = table.seats.filter(user__isnull=True, is_bot=False).update(is_bot=True)
    changed(table)
    return count


@transaction.atomic
def remove_bot(table: Table, user: User, number: int) -> None:
    table = _locked_open_table(table)
    _host_only(table, user)
    seat = table.seats.filter(number=number, is_bot=True).first()
    if seat is None:
        raise SeatingError(_("There is no bot in that seat."))
    seat.is_bot = False
    seat.save(update_fields=["is_bot"])
    changed(table)


def start(table: Table, user: User, seed: int | None = None) -> Match:
    with transaction.atomic():
        locked = _locked_open_table(table)
        _host_only(locked, user)
        if locked.seats.filter(user__isnull=True, is_bot=False).exists():
            raise SeatingError(_("Every seat must be taken by a player or a bot before the start."))
        try:
            return moderator.start(locked, seed)
        except ValueError as exc:  # a deal the game refuses for this seed
            raise SeatingError(_("These options are not valid: %(reason)s") % {"reason": exc}) from None


@transaction.atomic
def play_again(table: Table, user: User) -> Table:
    """After a match: a new table with the same game and settings, the asker at seat 0 and bots
    where bots sat. Everyone at the old table is shown the way to it; asking twice gives the same."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.status not in (Table.Status.FINISHED, Table.Status.ABORTED) or not table.seats.filter(user=user).exists():
        raise SeatingError(_("Only a player of a finished game can start the next one."))
    if table.next_table_id is not None:
        return Table.objects.get(pk=table.next_table_id)
    options = {k: v for k, v in table.options.items() if k != "deal"}
    new = create_table(user, table.game, table.seat_count, table.visibility, options, table.speed)
    bot_seats = list(table.seats.filter(is_bot=True).exclude(number=0).values_list("number", flat=True))
    new.seats.filter(number__in=bot_seats).update(is_bot=True)
    table.next_table = new
    table.save(update_fields=["next_table", "updated_at"])
    changed(table)
    return new
