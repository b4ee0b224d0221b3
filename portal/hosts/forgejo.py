"""Forgejo, a fork of Gitea with the same API and payloads: its own `X-Forgejo-Signature`, `X-Forgejo-Delivery`
and `X-Forgejo-Event` headers, falling back to the `X-Gitea-*` ones it also sends
(tests/fixtures/webhooks/README.md, "Forgejo"). Codeberg runs it."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from portal.hosts.gitea import Gitea


class Forgejo(Gitea):
    id = "forgejo"
    label = "Forgejo"
    setup_text = gettext_lazy(
        "`Settings → Webhooks → Add webhook → Forgejo`. `Target URL`: the URL above; `Secret`: the "
        "secret; `Trigger on`: `Push events` and `Delete events` (to follow ROCport's merge requests on their "
        "page, add `Pull Request`, `Pull Request Reviewed` and the commit status event)."
    )

    signature_header = "X-Forgejo-Signature"
    delivery_header = "X-Forgejo-Delivery"
    delivery_fallbacks = ("X-Gitea-Delivery",)
    event_header = "X-Forgejo-Event"
    event_fallbacks = ("X-Gitea-Event", "X-Forgejo-Event-Type", "X-Gitea-Event-Type")
    guess_rank = 30  # before Gitea: a host named for both is Forgejo's

    def claims_clone_host(self, hostname: str) -> bool:
        return hostname == "codeberg.org" or "forgejo" in hostname


HOST = Forgejo()
