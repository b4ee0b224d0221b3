"""The report formats are listed once (scanner/report/formats.py): the CLI offers those the scanner writes."""

from __future__ import annotations

import io

import pytest

from scanner.cli import build_parser
from scanner.report.formats import CLI_CHOICES, FORMATS, WriterOptions


def test_the_cli_offers_exactly_the_formats_the_scanner_writes(capsys):
    parser = build_parser()
    assert CLI_CHOICES == ("text", "json", "sarif")
    assert parser.parse_args(["scan", "."]).format == "text"
    for name in CLI_CHOICES:
        assert parser.parse_args(["scan", ".", "--format", name]).format == name
    with pytest.raises(SystemExit):
        parser.parse_args(["scan", ".", "--format", "csv"])  # the portal writes CSV, the scanner does not
    assert "(choose from 'text', 'json', 'sarif')" in capsys.readouterr().err


def test_each_format_with_a_writer_makes_a_report():
    for name in CLI_CHOICES:
        report = FORMATS[name].writer(io.StringIO(), [], WriterOptions())
        assert callable(report.begin) and callable(report.add) and callable(report.end), name


def test_only_text_is_for_a_terminal():
    assert [name for name, f in FORMATS.items() if not f.downloadable] == ["text"]
