"""File page and translation patch (placeholder until the file pages land)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse

from portal.accounts.access import get_repository_for_user


@login_required
def file_page(request, pk: int, path: str):
    get_repository_for_user(request, pk)
    return HttpResponse(path, content_type="text/plain")


@login_required
def patch(request, pk: int):
    get_repository_for_user(request, pk)
    return HttpResponse("", content_type="text/x-diff")
