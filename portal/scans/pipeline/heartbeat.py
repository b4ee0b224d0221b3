"""A thread that keeps a claim fresh while its holder works (a long clone, a slow file, a large ingestion).

The sweeper (portal/scans/tasks.py) takes a claim whose heartbeat is older than ROCPORT_SCAN_HEARTBEAT_STALE to
mean its worker died; a live worker must therefore beat even when no result arrives for a while. The beat is a
conditional UPDATE of the claimed row (the caller's queryset), so a claim lost to a newer attempt is not renewed.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

log = logging.getLogger(__name__)


class Heartbeat:
    """`with Heartbeat(lambda: Scan.objects.filter(pk=..., attempts=...)):` beats every STALE/5 seconds."""

    def __init__(self, claimed, interval: float | None = None):
        self.claimed = claimed  # () -> QuerySet of the claimed row, with the claim's conditions
        self.interval = interval or max(1.0, settings.SCAN_HEARTBEAT_STALE / 5)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Heartbeat:
        if connection.in_atomic_block:
            # Inside a transaction (a test's): nobody else sees the claim, and a beat would wait on its row lock
            # forever.
            return self
        self._thread = threading.Thread(target=self._beat, name="rocport-heartbeat", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _beat(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                try:
                    self.claimed().update(heartbeat=timezone.now())
                except DatabaseError as error:  # a missed beat is not worth failing the work for
                    log.warning("heartbeat not written: %s", error)
        finally:
            connection.close()  # this thread's own connection
