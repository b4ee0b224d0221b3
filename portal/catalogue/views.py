"""The rule catalogue (placeholder until the catalogue pages land)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse

from scanner.rules import catalogue


@login_required
def rule_list(request):
    return HttpResponse("\n".join(f"{r.code} {r.name}" for r in catalogue().values()), content_type="text/plain")


@login_required
def rule_detail(request, code: str):
    rule = catalogue().get(code)
    if rule is None:
        raise Http404
    return HttpResponse(rule.doc, content_type="text/plain")
