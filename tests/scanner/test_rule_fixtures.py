"""Every rule against its fixtures (tests/scanner/fixtures/rules/<CODE>_<module>[_<case>].<ext>), three ways.

1. A snapshot pins exactly what the rule reports on the fixture: `snapshots/<fixture name>.snap`, one line per
   finding of the fixture's rule, sorted by line, column, code and message:

       <line>:<column> <CODE> <severity> <message>[  [suppressed: <reason>]]

   after two header lines starting with `#`. A wrong message, column or severity fails with a diff. When a
   change is meant, regenerate and review the diff before committing:

       ROCPORT_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/scanner/test_rule_fixtures.py

   (only this test reads the variable; it writes the files and passes). A snapshot with no fixture fails too.
2. The `// expect: ROC101` comments (`# expect: ...` in the text languages) say, for a human, which lines must be
   found: their (line, code) set must be exactly the one the snapshot pins, so both can never drift apart.
3. Negative cases are marked line by line: a line ending with the comment `// ok` (C, C++, CUDA, PTX) or `# ok`
   (CMake, Makefiles, Dockerfiles, shell, YAML, Python, requirements, TOML, sysctl) must carry no finding of the
   rule (tests.scanner.helpers.OK_MARK). Every rule has an `expect:` line and a marked line among its fixtures
   (test_catalogue, with the rest of the catalogue's contract). The `OK: why` comments above a group of marked
   lines are prose for the reader; only the markers count. A line that cannot take a trailing comment (a
   continuation line ending in a backslash, a line inside a string or heredoc) stays unmarked, and so does a
   line where a trailing comment would change what the rule sees (the playbook's `name: kernel.numa_balancing`:
   ROC261's Ansible pattern wants the line to end there). Adding a marker must leave the snapshot unchanged.

A repository-level rule (scanner.repository) sees each fixture as a checkout of that one file. A compile-check
rule (ROC9xx, scanner.compile) needs an external tool, hipcc: its fixture is translated and compiled for gfx90a
by the real compiler, alone in a checkout of its own; without hipcc the test is skipped and says how to get it
(CI installs it: scripts/ensure-hipcc.sh)."""

from __future__ import annotations

import difflib
import os
import shutil

import pytest

from scanner.model import Finding
from scanner.rules import catalogue
from tests.scanner.helpers import (
    RULE_FIXTURES,
    analyze_path,
    analyze_repository,
    compile_path,
    expectations,
    fixture_for,
    ok_lines,
)
from tests.tools import require

CODES = sorted(catalogue())
SNAPSHOTS = RULE_FIXTURES / "snapshots"
UPDATE = os.environ.get("ROCPORT_UPDATE_SNAPSHOTS", "") not in ("", "0")
REGENERATE = "ROCPORT_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/scanner/test_rule_fixtures.py"
FIXTURES = [pytest.param(code, fixture, id=fixture.name) for code in CODES for fixture in fixture_for(code)]


@pytest.mark.parametrize("code, fixture", FIXTURES)
def test_rule_reports_exactly_its_snapshot(code, fixture):
    findings = _findings(fixture, code)
    rendered = render(fixture, code, findings)
    snapshot = SNAPSHOTS / f"{fixture.name}.snap"
    if UPDATE:
        SNAPSHOTS.mkdir(exist_ok=True)
        if not snapshot.exists() or snapshot.read_text() != rendered:
            snapshot.write_text(rendered)
    else:
        assert snapshot.exists(), f"{fixture.name}: no snapshot {snapshot.name}; write it with `{REGENERATE}`"
        pinned = snapshot.read_text()
        if pinned != rendered:
            diff = difflib.unified_diff(
                pinned.splitlines(), rendered.splitlines(), f"snapshot {snapshot.name}", "found now", lineterm=""
            )
            pytest.fail(
                f"{fixture.name}: the findings differ from the snapshot; if the change is meant, "
                f"regenerate with `{REGENERATE}` and review the diff\n" + "\n".join(diff),
                pytrace=False,
            )


@pytest.mark.parametrize("code, fixture", FIXTURES)
def test_expect_comments_agree_with_what_is_found(code, fixture):
    """The closed world: each `expect:` line is found, and nothing else."""
    findings = _findings(fixture, code)
    expected = {(line, c) for line, c in expectations(fixture) if c == code}
    found = {(f.line, f.rule) for f in findings}
    missing, unexpected = sorted(expected - found), sorted(found - expected)
    assert not missing and not unexpected, f"{fixture.name}: missing {missing}, unexpected {unexpected}\n" + render(
        fixture, code, findings
    )
    snapshot = SNAPSHOTS / f"{fixture.name}.snap"
    if snapshot.exists() and not UPDATE:
        pinned = {_pinned(line) for line in snapshot.read_text().splitlines() if not line.startswith("#")}
        assert pinned == expected, f"{fixture.name}: the `expect:` comments and {snapshot.name} disagree"


@pytest.mark.parametrize("code, fixture", FIXTURES)
def test_no_finding_on_a_line_marked_ok(code, fixture):
    marked = ok_lines(fixture)
    both = sorted(marked & {line for line, c in expectations(fixture) if c == code})
    assert not both, f"{fixture.name}: lines {both} are marked both `expect: {code}` and `ok`"
    on_marked = [f for f in _findings(fixture, code) if f.line in marked]
    assert not on_marked, f"{fixture.name}: findings on lines marked ok:\n" + "\n".join(map(_line, on_marked))


def test_every_snapshot_belongs_to_a_fixture():
    names = {fixture.name for code in CODES for fixture in fixture_for(code)}
    orphans = sorted(p.name for p in SNAPSHOTS.glob("*.snap") if p.name.removesuffix(".snap") not in names)
    if UPDATE:
        for name in orphans:
            (SNAPSHOTS / name).unlink()
    else:
        assert not orphans, f"snapshots without a fixture (delete them, or run `{REGENERATE}`): {orphans}"


def render(fixture, code: str, findings: list[Finding]) -> str:
    """The snapshot's text: a header, then one line per finding, sorted."""
    header = [
        f"# {code} ({catalogue()[code].name}) on {fixture.name}: <line>:<column> <code> <severity> <message>",
        f"# generated by `{REGENERATE}`; review a change before committing it",
    ]
    ordered = sorted(findings, key=lambda f: (f.line, f.column, f.rule, f.message))
    return "\n".join(header + [_line(f) for f in ordered]) + "\n"


def _line(finding: Finding) -> str:
    text = f"{finding.line}:{finding.column} {finding.rule} {finding.severity.value} {finding.message}"
    if finding.suppressed:
        text += f"  [suppressed: {finding.suppression_reason}]"
    return text.replace("\n", "\\n")


def _pinned(line: str) -> tuple[int, str]:
    """(line, code) of a snapshot line."""
    position, code = line.split(" ", 2)[:2]
    return int(position.split(":")[0]), code


_CACHE: dict[tuple[str, str], list[Finding]] = {}


def _findings(fixture, code: str) -> list[Finding]:
    """The rule's findings on its fixture (once per session: three tests read them)."""
    key = (code, fixture.name)
    if key not in _CACHE:
        rule = catalogue()[code]
        if "compile" in rule.on:
            result = _compiled(fixture, code)
        else:
            result = analyze_path(fixture, fixture.parent, codes=[code])
        assert result.error == "", result.error
        findings = list(result.findings)
        if "repository" in rule.on:
            extra = analyze_repository([fixture], fixture.parent, codes=[code])
            findings += extra.findings if extra is not None else []
        _CACHE[key] = findings
    return _CACHE[key]


def _compiled(fixture, code):
    require("hipcc")
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:  # a checkout of that one file: the other fixtures stay out of it
        copy = Path(tmp) / fixture.name
        shutil.copyfile(fixture, copy)
        result = compile_path(copy, Path(tmp), codes=[code])
    assert result.compile["status"] != "not-checked", result.compile["reason"]
    return result
