"""The Simplified Chinese catalogue is complete, compiled from its current .po, and chosen by the browser."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.tools import needs

ROOT = Path(__file__).resolve().parents[3]
PO = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
needs_gettext = needs("msgfmt")


@needs_gettext
def test_every_message_is_translated_and_none_is_fuzzy():
    for flag in ("--untranslated", "--only-fuzzy"):
        out = subprocess.run(
            ["msgattrib", flag, "--no-obsolete", str(PO)], capture_output=True, text=True, check=True
        ).stdout
        entries = [line for line in out.splitlines() if line.startswith("msgid ") and line != 'msgid ""']
        assert entries == [], f"{flag}: {entries[:5]} (fill them in {PO.relative_to(ROOT)})"


@needs_gettext
def test_the_committed_mo_is_compiled_from_the_committed_po(tmp_path):
    compiled = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(compiled), str(PO)], check=True)
    assert compiled.read_bytes() == MO.read_bytes(), f"run: msgfmt --check -o {MO} {PO}"


@pytest.mark.django_db
def test_the_browser_language_picks_simplified_chinese(people):
    client = Client(headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"})
    client.force_login(people.bob)
    page = client.get(reverse("findings:list"))
    assert page.status_code == 200
    assert '<html lang="zh-hans">' in page.content.decode()
    assert "问题" in page.content.decode()
    english = Client(headers={"Accept-Language": "en-US"})
    english.force_login(people.bob)
    assert "问题" not in english.get(reverse("findings:list")).content.decode()
