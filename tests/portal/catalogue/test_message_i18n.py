"""Finding messages in Simplified Chinese (portal.catalogue.messages): every message of the rule fixtures' snapshots
and of a scan of the demo project translates, with no English word left (the page walk's detector, code spans taken
out as the pages show them in <code>); a message with no template stays English whole; the templates are sound."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from portal.catalogue import messages
from tests.portal.languages import english_in

ROOT = Path(__file__).resolve().parents[3]
SNAPSHOTS = ROOT / "tests/scanner/fixtures/rules/snapshots"
_SNAPSHOT_LINE = re.compile(r"^\d+:\d+ (ROC\d+) \w+ (.*)$")
_CODE_SPAN = re.compile(r"`[^`]*`")
ZH = "zh-hans"


def snapshot_messages() -> set[tuple[str, str]]:
    found = set()
    for snap in sorted(SNAPSHOTS.glob("*.snap")):
        for line in snap.read_text(encoding="utf-8").splitlines():
            if match := _SNAPSHOT_LINE.match(line):
                found.add((match.group(1), match.group(2)))
    return found


def demo_messages() -> set[tuple[str, str]]:
    scan = subprocess.run(
        [sys.executable, "-m", "scanner", "scan", "demo/cuda-demo", "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    report = json.loads(scan.stdout)
    return {(f["rule"], f["message"]) for file in report["files"] for f in file["findings"]}


def untranslated(pairs: set[tuple[str, str]]) -> list[str]:
    """The messages with no complete translation, or whose translation still has English outside its code spans."""
    problems = []
    for code, message in sorted(pairs):
        chinese = messages.translate(code, message, ZH)
        if chinese is None:
            problems.append(f"{code} no template: {message}")
        elif words := english_in(_CODE_SPAN.sub(" ", chinese), []):
            problems.append(f"{code} English {words}: {chinese}")
    return problems


def test_every_snapshot_and_demo_message_translates():
    corpus = snapshot_messages() | demo_messages()
    assert len(corpus) > 300  # both sources were read
    problems = untranslated(corpus)
    assert not problems, f"{len(problems)} of {len(corpus)} messages untranslated:\n" + "\n".join(problems)


def test_a_message_shape_without_a_template_is_reported_and_shown_in_english_whole():
    known = "`tid & 31` assumes a 32-lane warp; use warpSize."
    unknown = "`tid & 31` assumes a 48-lane warp, which no GPU has."
    assert untranslated({("ROC101", known)}) == []
    assert untranslated({("ROC101", unknown)}) == [f"ROC101 no template: {unknown}"]
    # a known sentence followed by an unknown one: English whole, never half translated
    assert messages.translate("ROC101", f"{known} {unknown}", ZH) is None
    assert messages.translate("ROC999", known, ZH) is None  # templates are per rule
    with translation.override(ZH):
        assert messages.display("ROC101", unknown) == unknown


def test_placeholders_carry_code_spans_and_names_unchanged():
    message = "`threadIdx.x % WARP` (`WARP` is 32) assumes a 32-lane warp; use warpSize."
    chinese = messages.translate("ROC101", message, ZH)
    assert "`threadIdx.x % WARP`" in chinese and "`WARP`" in chinese and "假定" in chinese
    target = "`tid >> 5` assumes a 32-lane warp; use warpSize. On gfx90a (MI200, wave64), gfx942 (MI300X, wave64) a "
    chinese = messages.translate("ROC101", target + "wavefront has 64 lanes, not 32.", ZH)
    assert "gfx90a (MI200, wave64), gfx942 (MI300X, wave64)" in chinese


def test_the_filter_translates_under_zh_hans_only_and_before_truncation():
    page = Template(
        "{% load catalogue_i18n findings_text %}{{ code|finding_message:message|truncate_code:20|inline_code }}"
    )
    context = Context({"code": "ROC101", "message": "`tid & 31` assumes a 32-lane warp; use warpSize."})
    with translation.override(ZH):
        assert page.render(context) == "<code>tid &amp; 31</code> 假定 warp …"  # the translation, cut
    with translation.override("en"):
        assert page.render(context) == "<code>tid &amp; 31</code> assumes …"


@pytest.mark.parametrize("language", [ZH])
def test_every_template_compiles_and_keeps_its_placeholders(language):
    table = messages.templates(language)  # compile_template raises on an unknown or dropped placeholder
    assert sum(len(group) for group in table.values()) > 250
    with pytest.raises(ValueError, match="same placeholders"):
        messages.compile_template("{code} is 32.", "是 32。")
    with pytest.raises(ValueError, match="unknown placeholder"):
        messages.compile_template("{thing} is 32.", "{thing} 为 32。")
