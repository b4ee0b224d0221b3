"""Rule documentation: the docstring sections, and docs/rules.md generated from them (never edited by hand)."""

from __future__ import annotations

import re
import textwrap

from scanner.rules import severity_policy
from scanner.rules.base import DOC_SECTIONS, Rule
from scanner.target import TargetProfile

_HEADING = re.compile(r"^(What it finds|Why it breaks on ROCm|Example|Use instead|References|Known problems):\s*$")


def parse_sections(doc: str) -> dict[str, str]:
    """{"What it finds": "...", ...}; the first line (the title) is under ""."""
    sections: dict[str, list[str]] = {"": []}
    current = ""
    for line in doc.splitlines():
        match = _HEADING.match(line.strip()) if not line.startswith((" ", "\t")) else None
        if match:
            current = match.group(1)
            sections[current] = []
        else:
            sections[current].append(line)
    return {k: textwrap.dedent("\n".join(v)).strip() for k, v in sections.items()}


def missing_sections(rule: Rule) -> list[str]:
    sections = parse_sections(rule.doc)
    return [name for name in DOC_SECTIONS if not sections.get(name)]


def _severity_text(rule: Rule) -> str:
    """The severity a finding gets for the default targets (what SARIF and the portal show), and the rule's base
    severity beside it when the targets change it (ROC109: medium, high from ROCm 7.0)."""
    severity = rule.severity_for(TargetProfile())[0]
    if severity == rule.severity:
        return severity.value
    return f"{severity.value} for the default targets ({rule.severity.value} otherwise)"


def explain(rule: Rule) -> str:
    sections = parse_sections(rule.doc)
    out = [
        f"{rule.code} {rule.name}: {sections.get('', rule.summary)}",
        f"risk: {rule.risk.value}, default severity: {_severity_text(rule)}",
        *([f"formerly: {', '.join(rule.formerly)}"] if rule.formerly else []),
        "",
    ]
    for name in (*DOC_SECTIONS, "Known problems"):
        if sections.get(name):
            out += [f"{name}:", textwrap.indent(sections[name], "    "), ""]
    return "\n".join(out).rstrip() + "\n"


# The Example's code fence, by the first language a rule reads (C++/CUDA rules: cuda).
_FENCE = {
    "cmake": "cmake",
    "make": "makefile",
    "dockerfile": "dockerfile",
    "shell": "bash",
    "yaml": "yaml",
    "python": "python",
    "requirements": "text",
    "pyproject": "toml",
    "conda": "yaml",
    "sysctl": "ini",
    "ptx": "ptx",
    "repository": "bash",
}
_FENCE_ORDER = (
    "cmake",
    "shell",
    "dockerfile",
    "make",
    "yaml",
    "requirements",
    "pyproject",
    "conda",
    "python",
    "sysctl",
    "repository",
    "ptx",
)


def _fence(rule: Rule) -> str:
    for language in _FENCE_ORDER:
        if language in rule.languages:
            return _FENCE[language]
    return "cuda"


def markdown(rules: list[Rule]) -> str:
    out = [
        "# ROCport rules",
        "",
        "Generated from the rule docstrings by `python -m scanner docs` (`make docs`); do not edit by hand.",
        "A test fails when this file is out of date.",
        "",
        "Codes are stable: a finding is identified by its code (the portal stores it, SARIF exports it as the",
        "rule id), a code is never renumbered, and a retired rule keeps its number. The family is in the name:",
        "`<family>-<module>`, from the rule's package and module under `scanner/rules/` (the family word said",
        "once: `warp.warp_sized_group` is `warp-sized-group`). A renamed rule keeps its former names, listed",
        "under its heading: suppression comments, `.rocport.toml`'s `rules.enable` / `rules.disable` and",
        "`python -m scanner explain` accept them as well as the code and the current name.",
        "",
        *severity_policy.markdown(),
        "",
        "## Rules",
        "",
        "| code | name | risk | severity | summary |",
        "| --- | --- | --- | --- | --- |",
    ]
    for rule in rules:
        out.append(
            f"| [{rule.code}](#{rule.code.lower()}) | `{rule.name}` | {rule.risk.value} | "
            f"{_severity_text(rule)} | {rule.summary} |"
        )
    for rule in rules:
        sections = parse_sections(rule.doc)
        out += [
            "",
            f"## {rule.code}",
            "",
            f"**`{rule.name}`** — {sections.get('', rule.summary)}",
            "",
            f"Risk: {rule.risk.value}. Default severity: {_severity_text(rule)}.",
            "",
        ]
        if rule.formerly:
            out += ["Formerly: " + ", ".join(f"`{name}`" for name in rule.formerly) + ".", ""]
        for name in (*DOC_SECTIONS, "Known problems"):
            body = sections.get(name)
            if not body:
                continue
            out.append(f"### {name}")
            out.append("")
            if name == "Example":
                out += [f"```{_fence(rule)}", body, "```"]
            elif name == "References":
                out += [
                    f"- <{line.strip()}>" if line.strip().startswith("http") else f"- {line.strip()}"
                    for line in body.splitlines()
                    if line.strip()
                ]
            else:
                out.append(body)
            out.append("")
        while out and out[-1] == "":
            out.pop()
    return "\n".join(out) + "\n"
