"""The download formats of a finished scan's findings, registered once each: the format (name, content type and
file extension, from the scanner's list, scanner.report.formats), the label the scan page shows, and the writer
(portal.scans.exports.writers). The export view serves what is registered here, the scan page links to it, and
the scanner's `--format` choices come from the same list; a format the scanner only prints (text) is not
downloadable and has no entry.

Adding a format: docs/contributing.md, "Adding an export format".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from portal.scans.exports import writers
from scanner.report.formats import FORMATS, ReportFormat

Writer = Callable[..., Iterator[str]]  # (scan, user, query parameters, writers.Links) -> chunks of text


@dataclass(frozen=True)
class ExportFormat:
    format: ReportFormat
    label: str  # translated when shown
    write: Writer
    new_ones_label: str | None = None  # also offered for the findings new in the scan (`?new_since=`)

    @property
    def name(self) -> str:
        return self.format.name

    @property
    def content_type(self) -> str:
        return self.format.content_type

    def file_name(self, scan) -> str:
        """ASCII letters, digits, dot, dash and underscore only: safe in any header and on any file system."""
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", scan.repository.name).strip("-.")[:60] or "repository"
        return f"rocport-{name}-scan-{scan.pk}.{self.format.extension}"


@dataclass(frozen=True)
class Download:
    """A link of the scan page."""

    label: str
    url: str


REGISTRY: dict[str, ExportFormat] = {}


def register(entry: ExportFormat) -> ExportFormat:
    if entry.name in REGISTRY:
        raise ValueError(f"export format {entry.name!r} is registered twice")
    if not entry.format.downloadable:
        raise ValueError(f"the {entry.name!r} format is not a download")
    REGISTRY[entry.name] = entry
    return entry


def get(name: str) -> ExportFormat | None:
    return REGISTRY.get(name)


def downloads(scan) -> list[Download]:
    """The scan page's links, in registration order, then the "new ones" variants."""
    links = [Download(entry.label, reverse("scans:export", args=[scan.pk, entry.name])) for entry in REGISTRY.values()]
    for entry in REGISTRY.values():
        if entry.new_ones_label:
            url = reverse("scans:export", args=[scan.pk, entry.name])
            links.append(Download(entry.new_ones_label, f"{url}?new_since={scan.pk}"))
    return links


# In the order the scan page lists them.
register(ExportFormat(FORMATS["sarif"], _("SARIF (code scanning)"), writers.sarif_download))
register(
    ExportFormat(
        FORMATS["csv"],
        _("CSV (spreadsheet)"),
        writers.csv_download,
        new_ones_label=_("CSV of the new ones"),
    )
)
register(ExportFormat(FORMATS["json"], _("JSON"), writers.json_download))
