"""Handing a status post's or an email's task to the broker without ever failing the scan that asked for it:
when the broker is down the row is marked UNPUBLISHED, and `tasks.resend_unpublished` sends it again."""

from __future__ import annotations

import logging

from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)

# The mark on a post or email whose task never reached the broker; `resend_unpublished` looks for it.
UNPUBLISHED = "the broker was unavailable; it will be sent again"


def publish(task, model, pk: int) -> bool:
    """Hand the row's task to the broker; when the broker is down, mark the row for `resend_unpublished` instead of
    losing it (the scan that queued it has committed: nothing must fail there)."""
    try:
        task.delay(pk)
    except OperationalError as exc:
        log.warning(
            "%s %s: the broker is unavailable (%s); it will be sent again", model.__name__, pk, type(exc).__name__
        )
        model.objects.filter(pk=pk).update(detail=UNPUBLISHED)
        return False
    return True
