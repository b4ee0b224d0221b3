"""The webhook endpoint: one per repository and registered git host (portal.hosts). Verify, persist, answer; the scan runs later."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from portal.accounts import throttle
from portal.hosts import webhooks as host_webhooks
from portal.repositories.models import Repository
from portal.webhooks.actions import do_receive_delivery, do_record_rejection


@csrf_exempt  # authenticated by the provider's signature or token instead
@require_POST
def receive(request, repository_id: int, provider: str):
    if not host_webhooks.known(provider):
        raise Http404
    # Before any lookup or read: a flood costs a counter, not a query and 25 MB of body.
    wait = throttle.hit(request, throttle.WEBHOOK_IP, throttle.webhook_repository(repository_id))
    if wait:
        return throttle.too_many_requests(request, wait)
    repository = get_object_or_404(Repository, pk=repository_id)
    cap = settings.ROCPORT_WEBHOOK_MAX_BYTES
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > cap:
        return JsonResponse({"error": f"body larger than {cap} bytes"}, status=413)
    # Read the raw stream ourselves: request.body is capped by DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB), far
    # below what GitHub sends (up to 25 MB).
    body = request.read(cap + 1)
    if len(body) > cap:
        return JsonResponse({"error": f"body larger than {cap} bytes"}, status=413)
    try:
        host_webhooks.verify(provider, request.headers, body, repository.webhook_secrets())
    except host_webhooks.VerificationFailed as failed:
        do_record_rejection(repository, provider, failed.reason)
        return JsonResponse({"error": failed.reason}, status=failed.status)
    status, message = do_receive_delivery(repository, provider, request.headers, body)
    return JsonResponse({"result": message}, status=status)
