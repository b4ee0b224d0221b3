"""The export registry (portal/scans/exports/formats.py) builds on the scanner's format list: every entry is a
downloadable scanner format, registered once; the scan page links to each."""

from __future__ import annotations

import pytest

from portal.scans.exports import formats
from scanner.report.formats import FORMATS


def test_every_export_is_a_downloadable_format_of_the_scanners_list():
    assert list(formats.REGISTRY) == ["sarif", "csv", "json"]
    for name, entry in formats.REGISTRY.items():
        assert entry.format is FORMATS[name] and entry.format.downloadable
    assert formats.get("text") is None  # for a terminal only


def test_a_format_is_registered_once_and_only_a_download():
    with pytest.raises(ValueError, match="twice"):
        formats.register(formats.REGISTRY["csv"])
    with pytest.raises(ValueError, match="not a download"):
        formats.register(formats.ExportFormat(FORMATS["text"], "text", formats.REGISTRY["csv"].write))
    assert list(formats.REGISTRY) == ["sarif", "csv", "json"]
