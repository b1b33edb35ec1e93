"""A refused request logs one line, not a traceback; a server error keeps its traceback."""

from __future__ import annotations

import logging
import sys

from shabneshin.log_filters import RefusalsWithoutTraceback


def _record(status: int) -> logging.LogRecord:
    try:
        raise PermissionError("nope")
    except PermissionError:
        exc_info = sys.exc_info()
    record = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "Forbidden: /x/", (), exc_info)
    record.status_code = status
    return record


def test_a_refusal_keeps_its_line_and_drops_its_traceback():
    record = _record(403)
    assert RefusalsWithoutTraceback().filter(record) and record.exc_info is None
    assert "Traceback" not in logging.Formatter().format(record)


def test_a_server_error_keeps_its_traceback():
    record = _record(500)
    assert RefusalsWithoutTraceback().filter(record) and record.exc_info is not None
    assert "Traceback" in logging.Formatter().format(record)
