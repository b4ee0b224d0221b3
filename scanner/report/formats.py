"""The report formats, listed once: each with its name (the `--format` value, and the portal's download URL),
a label, its content type and file extension, whether it is a file to download (text is for a terminal), and the
scanner's writer for it when the scanner writes it.

`python -m scanner scan --format` offers the formats with a writer (CLI_CHOICES). The portal's downloads
(portal/scans/exports/formats.py) take a format's name, content type and extension from here and add their own
writer, which streams a scan's tracked findings from the database: CSV is written only there. This module never
imports the portal (the scanner does not know Django).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from scanner.report.json_report import JsonReport
from scanner.report.sarif import SarifReport
from scanner.report.text import TextReport
from scanner.rules.base import Rule


@dataclass(frozen=True)
class WriterOptions:
    """What a writer may be told besides its stream and the enabled rules."""

    show_suppressed: bool = False  # text: list suppressed findings too
    extra: dict | None = None  # json: top-level keys added (an upload's `tree`)
    slim: bool = False  # json: translations keep their statistics only (an upload)


Writer = Callable[[TextIO, list[Rule], WriterOptions], "TextReport | JsonReport | SarifReport"]


@dataclass(frozen=True)
class ReportFormat:
    name: str
    label: str
    content_type: str
    extension: str
    downloadable: bool = True
    writer: Writer | None = None  # None: the scanner does not write it (the portal does)


def _text(out: TextIO, rules: list[Rule], options: WriterOptions) -> TextReport:
    return TextReport(out, show_suppressed=options.show_suppressed)


def _json(out: TextIO, rules: list[Rule], options: WriterOptions) -> JsonReport:
    return JsonReport(out, rules, options.extra, slim=options.slim)


def _sarif(out: TextIO, rules: list[Rule], options: WriterOptions) -> SarifReport:
    return SarifReport(out, rules)


FORMATS: dict[str, ReportFormat] = {
    f.name: f
    for f in (
        ReportFormat("text", "text for people", "text/plain; charset=utf-8", "txt", downloadable=False, writer=_text),
        ReportFormat("json", "JSON for scripts", "application/json", "json", writer=_json),
        ReportFormat("sarif", "SARIF 2.1.0 for code-scanning tools", "application/sarif+json", "sarif", writer=_sarif),
        ReportFormat("csv", "CSV for spreadsheets", "text/csv; charset=utf-8", "csv"),
    )
}
# `--format` choices, in this order (the first is the default).
CLI_CHOICES = tuple(name for name, f in FORMATS.items() if f.writer is not None)
