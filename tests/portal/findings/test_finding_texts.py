"""The finding page's words: triage labels (in the choices and the history), "commented by X: …", rule text and
messages with `code` as <code> (escaped), and the history swapped in out of band after an htmx triage."""

from __future__ import annotations

import pytest
from django.urls import reverse

from portal.findings.models import Finding
from portal.findings.templatetags.findings_text import inline_code, triage_label, truncate_code
from tests.portal.findings_data import make_findings
from tests.portal.htmx import HTMX
from tests.portal.people import client_for


def test_triage_choices_read_as_words():
    labels = dict(Finding.Triage.choices)
    assert labels["wont_fix"] == "Won't fix" and labels["false_positive"] == "False positive"
    assert triage_label("false_positive") == "False positive" and triage_label("gone_value") == "gone_value"


def test_inline_code_escapes_first_then_marks_code():
    html = inline_code("use `__shfl_sync(mask, v)` not `<script>alert(1)</script>` & co\nnext")
    assert html == (
        "use <code>__shfl_sync(mask, v)</code> not <code>&lt;script&gt;alert(1)&lt;/script&gt;</code> &amp; co<br>next"
    )
    assert inline_code("an odd ` backtick") == "an odd ` backtick"


def test_truncating_a_message_never_leaves_an_unmatched_backtick():
    message = "x" * 120 + " use `__shfl_sync(0xffffffff, v, lane)` instead"  # 140 chars cut inside the span
    short = truncate_code(message, 140)
    assert short == "x" * 120 + " use…" and short.count("`") == 0 and len(short) <= 140
    assert inline_code(short) == "x" * 120 + " use…"  # no stray backtick on the page
    opening = "`" + "a" * 200 + "` is too wide"  # a span opening the text: kept, without its backticks
    assert truncate_code(opening, 20) == "a" * 18 + "…"
    assert truncate_code("use `a` and `b` then " + "y" * 200, 30) == "use `a` and `b` then " + "y" * 8 + "…"
    assert truncate_code("short `code`", 140) == "short `code`"
    for length in range(5, len(message) + 2):  # wherever the cut falls: an even number of backticks
        assert truncate_code(message, length).count("`") % 2 == 0, length


@pytest.mark.django_db
def test_the_findings_list_shows_a_long_message_without_a_stray_backtick(people):
    repository, _scan = make_findings(people.team, 1)
    message = "Lane arithmetic " + "assumes 32 lanes " * 6 + "so use `__shfl_sync(0xffffffff, value, lane)` here"
    Finding.objects.filter(repository=repository).update(message=message)
    html = client_for(people.bob).get(reverse("findings:list")).content.decode()
    cell = html.split("Lane arithmetic", 1)[1].split("</td>", 1)[0]
    assert "`" not in cell and cell.endswith("so use…")


@pytest.mark.django_db
def test_an_htmx_triage_answers_the_section_and_the_history_out_of_band(people):
    repository, _scan = make_findings(people.team, 1)
    finding = Finding.objects.get(repository=repository)
    bob = client_for(people.bob)
    response = bob.post(
        reverse("findings:triage", args=[finding.pk]),
        {"decision": "false_positive", "reason": "generated"},
        headers=HTMX,
    )
    html = response.content.decode()
    assert 'id="triage"' in html
    assert '<ul id="history" hx-swap-oob="true">' in html
    assert "triaged by bob: Untriaged → False positive (generated)" in html
    assert "false_positive</" not in html and "untriaged →" not in html
    bob.post(reverse("findings:comment", args=[finding.pk]), {"text": "looked at it"})
    page = bob.get(reverse("findings:detail", args=[finding.pk])).content.decode()
    assert "commented by bob: looked at it" in page
    assert "hx-swap-oob" not in page  # the full page's history is an ordinary list
