"""The rule catalogue: every rule with its code, name, risk, severity and summary (filterable by risk and family,
searchable), and a page per rule with its whole documentation and the current team's open findings of it.

The documentation bodies are the rules' English docstrings (scanner.rules.docs.parse_sections); a rule's title,
summary and documentation sections are shown in the reader's language when
portal.catalogue.translations has them (data keyed by rule code), in English otherwise, and the English
sections are marked lang="en". The catalogue is in memory, so filtering is plain Python."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from portal.accounts.context import current_membership
from portal.catalogue import translations
from portal.catalogue.labels import FAMILIES, RISKS
from portal.reporting import rollups
from portal.reporting.metrics import team_default_branch_totals
from scanner.rules import catalogue
from scanner.rules.base import Rule
from scanner.rules.docs import parse_sections

_CODE = re.compile(r"(`[^`\n]+`)")


def family_of(rule: Rule) -> str:
    return rule.module.split(".", 1)[0]


@dataclass
class Entry:
    rule: Rule
    family: str
    family_label: str
    risk_label: str
    summary: str  # in the reader's language when translated, else English
    summary_translated: bool


def _entry(rule: Rule) -> Entry:
    family = family_of(rule)
    return Entry(
        rule,
        family,
        FAMILIES.get(family, family),
        RISKS.get(rule.risk.value, rule.risk.value),
        translations.text(rule.code, "summary", rule.summary),
        translations.translated(rule.code, "summary"),
    )


def _matches(entry: Entry, words: list[str]) -> bool:
    """Words of the query in the code, name, English summary and documentation, or the translated texts."""
    rule = entry.rule
    local = " ".join(translations.text(rule.code, key, "") for key in ("title", "summary", *translations.SECTIONS))
    haystack = f"{rule.code} {rule.name} {rule.summary} {rule.doc} {entry.summary} {local}".lower()
    return all(word in haystack for word in words)


@require_GET
@login_required
@vary_on_headers("HX-Request")
def rule_list(request):
    risk, family, query = request.GET.get("risk", ""), request.GET.get("family", ""), request.GET.get("q", "").strip()
    words = query.lower().split()
    entries = [_entry(rule) for rule in catalogue().values()]
    shown = [
        e
        for e in entries
        if (not risk or e.rule.risk.value == risk) and (not family or e.family == family) and _matches(e, words)
    ]
    present = dict.fromkeys(e.family for e in entries)  # the families in code order
    context = {
        "entries": shown,
        "total": len(entries),
        "risk": risk,
        "family": family,
        "q": query,
        "risks": list(RISKS.items()),
        "families": [(f, FAMILIES.get(f, f)) for f in present],
    }
    template = "catalogue/rules.html#rules-table" if request.htmx else "catalogue/rules.html"
    return render(request, template, context)


def _paragraphs(body: str) -> list[dict]:
    """Paragraphs of a doc section: {"bullets": [...]} for a bullet list, {"block": text} for an indented
    block (code kept as laid out), else
    {"pieces": [(text, is_code)]} where `backticks` become code. The template escapes every piece, so nothing
    of the docstring is marked safe."""
    out: list[dict] = []
    for paragraph in re.split(r"\n\s*\n", body.strip("\n")):
        lines = paragraph.splitlines()
        if lines and lines[0].startswith("- "):  # a bullet list; continuation lines are indented
            items: list[str] = []
            tail: list[str] = []  # an unindented line after the list starts a paragraph of its own
            for line in lines:
                if tail or not line.startswith(("- ", " ", "\t")):
                    tail.append(line.strip())
                elif line.startswith("- "):
                    items.append(line[2:].strip())
                else:
                    items[-1] += " " + line.strip()
            out.append({"bullets": [_pieces(item) for item in items]})
            if tail:
                out.append({"pieces": _pieces(" ".join(tail))})
            continue
        if any(line.startswith((" ", "\t")) for line in lines):
            out.append({"block": textwrap.dedent(paragraph).strip("\n")})
            continue
        text = " ".join(line.strip() for line in lines)
        if text:
            out.append({"pieces": _pieces(text)})
    return out


def _pieces(text: str) -> list[tuple[str, bool]]:
    return [(piece[1:-1], True) if _CODE.fullmatch(piece) else (piece, False) for piece in _CODE.split(text) if piece]


def _references(body: str) -> list[tuple[str, bool]]:
    """(text, is a link): only http(s) URLs become links."""
    return [
        (line.strip(), line.strip().startswith(("https://", "http://"))) for line in body.splitlines() if line.strip()
    ]


def _open_findings(request, code: str) -> int | None:
    """Open findings of the rule on the default branches of the current team's repositories; None without a
    team. Read from each default branch's rollup (portal.reporting.rollups), not counted."""
    membership = current_membership(request)
    if membership is None:
        return None
    return sum(rollups.open_of_rule(totals, code) for totals in team_default_branch_totals(membership.team_id).values())


@require_GET
@login_required
def rule_detail(request, code: str):
    rule = catalogue().get(code.upper())
    if rule is None:
        raise Http404
    sections = parse_sections(rule.doc)
    code = rule.code
    return render(
        request,
        "catalogue/rule.html",
        {
            "entry": _entry(rule),
            "rule": rule,
            "title": translations.text(code, "title", sections.get("") or rule.summary),
            "summary": translations.text(code, "summary", rule.summary),
            "what": _paragraphs(translations.text(code, "what", sections.get("What it finds", ""))),
            "what_translated": translations.translated(code, "what"),
            "why": _paragraphs(translations.text(code, "why", sections.get("Why it breaks on ROCm", ""))),
            "why_translated": translations.translated(code, "why"),
            "example": sections.get("Example", ""),
            "instead": _paragraphs(translations.text(code, "instead", sections.get("Use instead", ""))),
            "instead_translated": translations.translated(code, "instead"),
            "references": _references(sections.get("References", "")),
            "known_problems": _paragraphs(translations.text(code, "known", sections.get("Known problems", ""))),
            "known_translated": translations.translated(code, "known"),
            "open_findings": _open_findings(request, rule.code),
            # a section the docstring has that the reader's language lacks (shown in English, said so)
            "untranslated": any(
                sections.get(heading) and not translations.translated(code, key)
                for key, heading in translations.SECTIONS.items()
            ),
        },
    )
