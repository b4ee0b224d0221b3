"""The file page (highlighted source with its open findings, the HIP translation side by side with the compile
check's status and errors, parse health, the translation review) and the repository's patch of reviewed
translations. htmx gets the review widget as a named partial; every form also works without JavaScript."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from portal.accounts.access import get_repository_for_user, require_write
from portal.files import patch as patches
from portal.files import queries
from portal.files import render as rendering
from portal.files.actions import check_review_translation
from portal.files.models import TranslationReview
from portal.scans import compile_status


def _review_context(repository, path: str, version, membership, review=None, error: str = "") -> dict:
    if review is None:
        review = TranslationReview.objects.filter(repository=repository, path=path).select_related("reviewer").first()
    current = bool(version and review and review.applies_to(version.scanned.blob_sha, version.translation_sha))
    return {
        "repository": repository,
        "path": path,
        "version": version,
        "review": review,
        "review_current": current,
        "review_outdated": bool(review and not current and review.state != TranslationReview.State.NOT_REVIEWED),
        "review_state": review.state if current else TranslationReview.State.NOT_REVIEWED,
        "review_choices": TranslationReview.State.choices,
        "can_review": membership.can_write and bool(version and version.has_translation),
        "error": error,
    }


@require_GET
@login_required
def file_page(request, pk: int, path: str):
    repository, membership = get_repository_for_user(request, pk)
    version = queries.file_version(repository, path)
    context = _review_context(repository, path, version, membership)
    context["membership"] = membership
    if version is not None:
        findings = queries.open_findings(repository, path)
        by_line = queries.findings_by_line(findings)
        lines = rendering.highlighted_lines(version.source, path) if version.source else []
        translation = version.translation
        unconverted = translation.get("unconverted") or []
        too_big = len(lines) > rendering.DIFF_MAX_LINES
        compiled = compile_status.for_file_page(version.compile, path)
        context.update(
            {
                "compiled": compiled,
                "findings": findings,
                "lines": [(n, html, by_line.get(n, ())) for n, html in enumerate(lines, start=1)],
                "off_lines": [f for f in findings if f.line > len(lines)],  # the file changed since, or no source
                "parse": version.parse,
                "translation": translation,
                "stats": translation.get("stats") or {},
                "converted_names": sorted(
                    ((translation.get("stats") or {}).get("converted_by_name") or {}).items(),
                    key=lambda item: (-item[1], item[0]),
                )[:30],
                "unconverted": unconverted,
                "diff_too_big": too_big,
                "diff": rendering.side_by_side(
                    version.source, version.translated, unconverted, errors=compiled.get("here")
                )
                if version.has_translation and version.source and not too_big
                else [],
            }
        )
    return render(request, "files/file.html", context)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def review(request, pk: int, path: str):
    repository, membership = get_repository_for_user(request, pk)
    require_write(membership)
    version = queries.file_version(repository, path)
    error, saved = "", None
    try:
        saved = check_review_translation(
            repository,
            path,
            version,
            request.POST.get("state", ""),
            request.POST.get("blob", ""),
            request.POST.get("translation", ""),
            acting_user=request.user,
        )
    except ValidationError as exc:
        error = " ".join(exc.messages)
    if request.htmx:
        return render(
            request, "files/file.html#review", _review_context(repository, path, version, membership, saved, error)
        )
    if error:
        messages.error(request, error)
    return redirect("files:file", pk=repository.pk, path=path)


@require_GET
@login_required
def patch(request, pk: int):
    repository, _membership = get_repository_for_user(request, pk)
    result = patches.build(repository)
    header = [
        f"# ROCport: reviewed HIP translations of {repository.name}",
        f"# apply with `git apply` on commit {result.commit or '(no finished scan yet)'}",
        f"# files: {len(result.files)}",
    ]
    header += [f"# left out, review outdated: {path}" for path in result.outdated]
    header += [f"# left out, stored source not exact: {path}" for path in result.unusable]
    # git apply ignores the lines before the first "diff --git"
    body = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in header) + "\n\n" + result.text
    response = HttpResponse(body, content_type="text/x-diff; charset=utf-8")
    name = slugify(repository.name) or f"repository-{repository.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}-hip-{result.commit[:12] or "none"}.patch"'
    return response
