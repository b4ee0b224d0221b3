"""The file page (highlighted source with its open findings, the HIP translation side by side with the compile
check's status and errors, parse health, the translation review) and the repository's patch of reviewed
translations. htmx gets the review widget as a named partial; every form also works without JavaScript."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from portal.accounts.access import get_repository_for_user, require_write
from portal.files import patch as patches
from portal.files import queries, windows
from portal.files import render as rendering
from portal.files.actions import check_review_translation
from portal.files.models import TranslationReview
from portal.ports.queries import active_with
from portal.scans import compile_status


def _review_context(repository, path: str, version, membership, review=None, error: str = "") -> dict:
    if review is None:
        review = TranslationReview.objects.filter(repository=repository, path=path).select_related("reviewer").first()
    current = bool(version and review and review.applies_to(*version.review_key))
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
        # the active merge request that carries this file (its badge), else the button that opens one
        "merge_request": active_with(repository, path) if version else None,
        "can_open_merge_request": membership.can_write and current and review.state in TranslationReview.PATCHABLE,
    }


def _source_context(version, path: str, findings: list, unconverted: list) -> dict:
    """The source table: every line of a file whose source and diff fit the first paint's budget
    (windows.fits_inline), else its head and the lines that matter (findings, unconverted references) with their
    context, as many as fit, and gaps that load the rest."""
    by_line = queries.findings_by_line(findings)
    total = len(rendering.split_lines(version.source)) if version.source else 0
    with_diff = version.has_translation and total <= rendering.DIFF_MAX_LINES
    lines = windows.fits_inline(version, path, by_line, with_diff) if version.source else []
    if lines is not None:
        rows = [(n, html, by_line.get(n, ())) for n, html in enumerate(lines, start=1)]
    else:
        interesting = set(by_line) | {int(u.get("line", 0) or 0) for u in unconverted}
        sizes = windows.line_sizes(version, path, by_line)
        ranges = windows.shown_ranges(total, interesting, set(by_line), sizes, windows.WINDOWED_BYTES)
        rows = windows.source_rows(version, path, ranges, by_line, total)
    return {"source_rows": rows, "total_lines": total, "big_file": lines is None}


def _diff_context(request, repository, path: str, version, compiled: dict, offset: int | None = None) -> dict:
    """The translation's rows in the view the request asks for: all of them, or with an `offset` one page."""
    unconverted = version.translation.get("unconverted") or []
    if offset is None:
        shown = rows = rendering.side_by_side(
            version.source, version.translated, unconverted, errors=compiled.get("here")
        )
        total, more, offset = len(rows), None, 0
    else:
        shown, total = windows.diff_page(version, unconverted, compiled.get("here"), offset)
        offset -= offset % windows.DIFF_PAGE
        more = offset + len(shown) if offset + len(shown) < total else None
    return {
        "repository": repository,
        "path": path,
        "diff": shown,
        "diff_view": "unified" if request.GET.get("view") == "unified" else "split",
        "diff_more": more,
        "diff_offset": offset,
        "diff_rows_total": total,
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
        translation = version.translation
        unconverted = translation.get("unconverted") or []
        compiled = compile_status.for_file_page(version.compile, path)
        source = _source_context(version, path, findings, unconverted)
        too_big = source["total_lines"] > rendering.DIFF_MAX_LINES
        context.update(source)
        context.update(
            {
                "compiled": compiled,
                "findings": findings,
                "off_lines": [f for f in findings if f.line > source["total_lines"]],  # changed since, or no text
                "parse": version.parse,
                "translation": translation,
                # an upload without a worker's twin has only the counts it sent
                "stats": translation.get("stats") or (version.scanned.stats or {}).get("translation") or {},
                "converted_names": sorted(
                    ((translation.get("stats") or {}).get("converted_by_name") or {}).items(),
                    key=lambda item: (-item[1], item[0]),
                )[:30],
                "unconverted": unconverted,
                # a big file's list is long (2,000 rows for 10,000 lines): the first ones, the diff marks the others
                "unconverted_shown": unconverted[: windows.UNCONVERTED_SHOWN],
                "unconverted_more": max(0, len(unconverted) - windows.UNCONVERTED_SHOWN),
                "diff_too_big": too_big,
                # a big file's translation is loaded when the reader gets to it (translation view below)
                "diff_lazy": source["big_file"] and not too_big,
                "diff_view": "split",
            }
        )
        if version.has_translation and version.source and not too_big and not source["big_file"]:
            context.update(_diff_context(request, repository, path, version, compiled))
    return render(request, "files/file.html", context)


def _nothing_to_show(request, repository, path: str, message: str):
    """The on-demand views' empty state: the same answer a file page gives, a message where the rows would be."""
    context = {"repository": repository, "path": path, "message": message}
    if request.htmx:
        return render(request, "files/_nothing.html", context)
    return render(request, "files/nothing.html", context)


def _int_param(request, name: str, default: int) -> int | None:
    """A non-negative whole number from the query string; None when it is something else."""
    value = request.GET.get(name, "")
    if value == "":
        return default
    return int(value) if value.isdigit() else None


@require_GET
@login_required
@vary_on_headers("HX-Request")
def source_lines(request, pk: int, path: str):
    """The source lines a gap of a big file's page stands for (htmx swaps them in for the gap row)."""
    repository, _membership = get_repository_for_user(request, pk)
    version = queries.file_version(repository, path)
    if version is None or not version.source:
        return _nothing_to_show(request, repository, path, _("No finished scan stored the text of this file."))
    start, end = _int_param(request, "start", 1), _int_param(request, "end", 1)
    gap_from = _int_param(request, "before", 0)
    if start is None or end is None or gap_from is None or start < 1 or end < start:
        return HttpResponseBadRequest("start, end and before must be line numbers, with start ≤ end.")
    by_line = queries.findings_by_line(queries.open_findings(repository, path))
    rows = windows.chunk_rows(version, path, start, end, by_line, gap_from or None)
    context = {"repository": repository, "path": path, "version": version, "source_rows": rows}
    if request.htmx:
        return render(request, "files/file.html#source-rows", context)
    return render(request, "files/lines.html", {**context, "start": start, "end": end})


@require_GET
@login_required
@vary_on_headers("HX-Request")
def translation(request, pk: int, path: str):
    """The side-by-side (or unified) view of a file's translation, a page of rows at a time: a big file's page
    loads it on demand, and the view switch and "more" rows of every file page come here."""
    repository, _membership = get_repository_for_user(request, pk)
    version = queries.file_version(repository, path)
    if version is None or not (version.has_translation and version.source):
        return _nothing_to_show(request, repository, path, _("No finished scan stored a translation of this file."))
    if len(rendering.split_lines(version.source)) > rendering.DIFF_MAX_LINES:
        return _nothing_to_show(
            request,
            repository,
            path,
            _("This file is too large to show side by side; download the patch to see its translation."),
        )
    compiled = compile_status.for_file_page(version.compile, path)
    offset = _int_param(request, "offset", 0)
    if offset is None:
        return HttpResponseBadRequest("offset must be a row number.")
    context = _diff_context(request, repository, path, version, compiled, offset)
    context["version"] = version
    if request.htmx:
        template = "files/_diff.html#diff-rows" if context["diff_offset"] else "files/_diff.html"
        return render(request, template, context)
    return render(request, "files/translation.html", context)


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
