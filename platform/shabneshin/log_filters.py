"""Logging filters for the console.

A refused request (403: a forged id, another member's page) is an answer, not a fault: Django logs
it with the exception's whole traceback, and a club night's log filled with them. Its one line
stays (the path and the status); the traceback goes. A 500 keeps its traceback."""

from __future__ import annotations

import logging


class RefusalsWithoutTraceback(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
