"""What a port says about itself: the commit message (what was translated and what was left for a person, with a
trailer naming ROCport) and the merge request's title and description, one function per section: the files, the
findings the port resolves and the progress it brings (its story, portal.ports.story), the findings left for a
person, the files not included, links back to the portal; capped at BODY_LIMIT. Plain text and Markdown built from our own data; paths and rule
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
    """Open findings of the default branch in `files`, per rule: what a request pushed without a story (before
    stories were recorded) lists as left for a person."""
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


BODY_LIMIT = 50_000  # characters: well under the smallest host limit (GitHub and Gitea, 65,536)
RULES_LISTED = 20  # rules listed in a section; the rest are counted


def _more(shown: int, total: int, what: str = "more") -> list[str]:
    return [f"- and {total - shown} {what}"] if total > shown else []


def _rule_lines(repository, rows: list[dict]) -> list[str]:
    """One line per rule: the count, the rule linked to the repository's open findings of that rule, its name."""
    findings_url = site_url(reverse("findings:list")) + f"?repository={repository.pk}"
    lines = [f"- {row['n']} × [{_code(row['rule'])}]({findings_url}&rule={row['rule']}) {row['name']}" for row in rows]
    return lines[:RULES_LISTED] + _more(RULES_LISTED, len(lines), "more rules")


def _intro(base: str) -> list[str]:
    return [
        f"ROCport translated these files from CUDA to HIP; an engineer reviewed each translation (“translation OK” or "
        f"“done”) on the scanned commit `{base[:12]}`.",
    ]


def _translated(repository, files: list[str]) -> list[str]:
    out = ["**Translated**", ""]
    out += [
        f"- [{_code(path)}]({site_url(reverse('files:file', args=[repository.pk, path]))})" for path in files[:LISTED]
    ]
    return out + _more(LISTED, len(files))


def _resolves(repository, story) -> list[str]:
    if story is None or not story.resolved_rules:
        return []
    n = story.resolved
    where = "on the lines the translation or the build commit rewrites"
    out = [f"**Resolves**: {n} open finding{'s' if n != 1 else ''} {where}", ""]
    return out + _rule_lines(repository, story.resolved_rules)


def _progress(repository, story) -> list[str]:
    if story is None or not story.known or story.before.shown is None or story.after.shown is None:
        return []
    before, after = story.before, story.after
    return [
        f"**Migration progress** of `{repository.default_branch}` (estimated): {before.shown}% → {after.shown}%, "
        f"files done {before.files_done} → {after.files_done}, hours of work left {before.left:.1f} → {after.left:.1f}",
        "",
        "Estimated with the portal's own progress figure: the findings above counted as fixed and the ported files "
        "as their reviewed translations. A rule that still applies to a rewritten line reports it again as a new "
        "finding; the scan after the merge measures it.",
    ]


def _left_for_a_person(repository, findings: list[dict]) -> list[str]:
    if not findings:
        return []
    total = sum(row["n"] for row in findings)
    out = [f"**Left for a person**: {total} open finding{'s' if total != 1 else ''} in these files", ""]
    return out + _rule_lines(repository, findings)


def _not_included(left: list[list[str]]) -> list[str]:
    if not left:
        return []
    out = ["**Not included**", ""]
    return out + [f"- {_code(path)}: {why}" for path, why in left[:LISTED]] + _more(LISTED, len(left))


def _footer(repository) -> list[str]:
    dashboard = site_url(reverse("dashboards:repository", args=[repository.pk]))
    return [
        f"When this merges, the next scan of `{repository.default_branch}` closes what it fixed: "
        f"[migration dashboard]({dashboard}).",
        "",
        TRAILER,
    ]


def _capped(sections: list[list[str]], tail: list[str]) -> str:
    """The sections in order, then `tail`; a body longer than BODY_LIMIT loses its last lines first (the tail with
    the trailer always stays)."""
    end = "\n".join(tail)
    room = BODY_LIMIT - len(end) - 200
    lines = [line for section in sections if section for line in [*section, ""]]
    kept, used = [], 0
    for i, line in enumerate(lines):
        if used + len(line) + 1 > room:
            kept.append(f"(and {len(lines) - i} more lines: see the merge request's page in ROCport)")
            kept.append("")
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join(kept) + "\n" + end if kept else end


def description(
    repository,
    base: str,
    files: list[str],
    left: list[list[str]],
    findings: list[dict],
    story=None,
    compiled: list[dict] = (),
    build_left: list[list] = (),
) -> str:
    """The request's body in sections (one function each); `findings`: open findings left for a person, per rule
    (`story.left_rules` when the port's story is known, else `open_findings`); `story`: portal.ports.story.Story;
    `compiled`: the compile check of the ported files on the branch, `build_left`: what the build switch left for a
    person (portal.ports.compiling renders both)."""
    sections = [
        _intro(base),
        _translated(repository, files),
        _resolves(repository, story),
        _progress(repository, story),
        _left_for_a_person(repository, findings),
        _not_included(left),
        build_left_lines(list(build_left)),
        compile_lines(list(compiled)),
    ]
    return _capped(sections, _footer(repository))
