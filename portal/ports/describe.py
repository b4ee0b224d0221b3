"""What a port says about itself: the commit message (what was translated and what was left for a person, with a
trailer naming ROCport) and the merge request's title and description (the same, with the open findings of the
files it touches and links back to the portal). Plain text and Markdown built from our own data; paths and rule
names are put in code spans so that the host renders them literally."""

from __future__ import annotations

import re

from django.db.models import Count
from django.urls import reverse

from portal.findings.models import Finding
from portal.links import site_url
from portal.ports.compiling import body_lines as compile_lines
from portal.ports.compiling import build_left_lines

TRAILER = "Generated-by: ROCport"
LISTED = 50  # files listed one per line; the rest are counted


def _code(text: str) -> str:
    """A Markdown code span that holds any text (a backtick in a path takes a longer fence)."""
    if "`" not in text:
        return f"`{text}`"
    fence = "`" * (max(len(run) for run in re.findall(r"`+", text)) + 1)
    return f"{fence} {text} {fence}"


def title(files: list[str]) -> str:
    return f"Port {len(files)} file{'s' if len(files) != 1 else ''} from CUDA to HIP (ROCport)"


def open_findings(repository, files: list[str]) -> list[dict]:
    """Open findings of the default branch in `files`, per rule: they stay for a person after the port."""
    return list(
        Finding.objects.filter(
            repository=repository, branch=repository.default_branch, state=Finding.State.OPEN, path__in=files
        )
        .exclude(triage__in=("false_positive", "wont_fix"))
        .values("rule", "name", "risk")
        .annotate(n=Count("id"))
        .order_by("-n", "rule")
    )


def commit_message(base: str, files: list[str], left: list[list[str]], findings: list[dict]) -> str:
    lines = [title(files).replace(" (ROCport)", ""), "", f"Reviewed HIP translations of {base[:12]}, made by ROCport:"]
    lines += [f"- {path}" for path in files[:LISTED]]
    if len(files) > LISTED:
        lines.append(f"- and {len(files) - LISTED} more")
    rest = sum(row["n"] for row in findings)
    if left or rest:
        lines += ["", "Left for a person:"]
        lines += [f"- {path}: {why}" for path, why in left[:LISTED]]
        if rest:
            lines.append(f"- {rest} open finding{'s' if rest != 1 else ''} in these files (see the merge request)")
    return "\n".join(lines) + f"\n\n{TRAILER}\n"


def description(
    repository,
    base: str,
    files: list[str],
    left: list[list[str]],
    findings: list[dict],
    compiled: list[dict] = (),
    build_left: list[list] = (),
) -> str:
    """`compiled`: the compile check of the ported files on the branch, `build_left`: what the build switch left
    for a person (portal.ports.compiling renders both, a section each)."""
    dashboard = site_url(reverse("dashboards:repository", args=[repository.pk]))
    out = [
        f"ROCport translated these files from CUDA to HIP; an engineer reviewed each translation (“translation OK” or "
        f"“done”) on the scanned commit `{base[:12]}`.",
        "",
        "**Translated**",
        "",
    ]
    for path in files[:LISTED]:
        out.append(f"- [{_code(path)}]({site_url(reverse('files:file', args=[repository.pk, path]))})")
    if len(files) > LISTED:
        out.append(f"- and {len(files) - LISTED} more")
    if findings:
        total = sum(row["n"] for row in findings)
        out += ["", f"**Left for a person**: {total} open finding{'s' if total != 1 else ''} in these files", ""]
        findings_url = site_url(reverse("findings:list")) + f"?repository={repository.pk}"
        for row in findings[:20]:
            out.append(f"- {row['n']} × [{_code(row['rule'])}]({findings_url}&rule={row['rule']}) {row['name']}")
    if left:
        out += ["", "**Not included**", ""]
        out += [f"- {_code(path)}: {why}" for path, why in left[:LISTED]]
    out += build_left_lines(list(build_left))
    out += compile_lines(list(compiled))
    out += [
        "",
        f"When this merges, the next scan of `{repository.default_branch}` closes what it fixed: "
        f"[migration dashboard]({dashboard}).",
        "",
        TRAILER,
    ]
    return "\n".join(out)
