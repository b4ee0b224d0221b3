"""How a step of a scan says it must stop: the user's problem (a final, explained failure) or a newer owner."""

from __future__ import annotations

from django.conf import settings


class ScanUserError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class Superseded(Exception):
    """The scan was superseded or cancelled while running: stop quietly."""


def timeout_message() -> str:
    """What a scan that ran out of time says (our own deadline and Celery's soft limit alike)."""
    return f"the scan took longer than {settings.SCAN_SOFT_TIME_LIMIT}s (ROCPORT_SCAN_SOFT_TIME_LIMIT)"


def timed_out() -> ScanUserError:
    return ScanUserError("timeout", timeout_message())
