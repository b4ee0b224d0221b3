"""Webhook deliveries (every verified request, persisted before anything else) and rejected attempts
(counted, the body never stored)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from portal.hosts import registry
from portal.repositories.models import Repository
from portal.scans.models import Scan


class WebhookDelivery(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", _("pending")  # stored; its scan not yet handed to the broker
        ENQUEUED = "enqueued", _("enqueued")  # the scan task was sent
        IGNORED = "ignored", _("ignored")  # nothing to scan (ping, tag, untracked branch, deletion, duplicate)

    repository = models.ForeignKey(Repository, on_delete=models.CASCADE, related_name="deliveries")
    provider = models.CharField(max_length=20, choices=registry.choices)
    delivery_id = models.CharField(max_length=200)
    event = models.CharField(max_length=100)
    ref = models.CharField(max_length=500, blank=True, default="")
    before = models.CharField(max_length=64, blank=True, default="")
    after = models.CharField(max_length=64, blank=True, default="")
    received = models.DateTimeField(auto_now_add=True)
    state = models.CharField(max_length=20, choices=State.choices, default=State.PENDING)
    outcome = models.CharField(max_length=300, blank=True, default="")
    scan = models.ForeignKey(Scan, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")

    class Meta:
        ordering = ["-received", "-id"]
        constraints = [models.UniqueConstraint(fields=["provider", "delivery_id"], name="one_delivery_per_id")]
        indexes = [
            # the re-enqueue sweep: pending deliveries by age
            models.Index(fields=["state", "received"], name="delivery_state_received"),
        ]


class WebhookRejection(models.Model):
    """A request that failed verification: counted per repository, its body is not kept."""

    repository = models.ForeignKey(Repository, on_delete=models.CASCADE, related_name="webhook_rejections")
    provider = models.CharField(max_length=20, choices=registry.choices)
    reason = models.CharField(max_length=100)
    received = models.DateTimeField(auto_now_add=True)
