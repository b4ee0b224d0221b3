"""The Celery task beat calls (CELERY_BEAT_SCHEDULE "send-weekly-digests", hourly by default): it sends the
digest of the most recent completed week to whoever has not had it yet, so running it again, or after a beat
restart, or on two workers at once, sends nothing twice (portal.digests.sending)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from portal.digests import sending


@shared_task
def send_weekly_digests() -> int:
    return sending.send_week(sending.covered_week(timezone.localdate()))
