"""The reads of a table that every move makes, compiled once per database connection instead of
at each call (shabneshin.precompiled; issue 9: the ORM's compiling cost more than the queries).
Shared by the moderator, which reads the seats under its lock, and the renderer, which loads a
table for a process that did not apply the move."""

from __future__ import annotations

from shabneshin.precompiled import Param, Select
from tables.models import Seat, Table

SEATS_WITH_USERS = Select(
    Seat.objects.filter(table_id=Param("table_id", Seat._meta.get_field("table")))
    .select_related("user")
    .order_by("number")
)
TABLE_WITH_MATCH = Select(
    Table.objects.select_related("match", "next_table").filter(pk=Param("pk", Table._meta.pk)).order_by()
)
