"""The rule catalogue in Simplified Chinese: every rule code has a translated title and summary (a new rule without
them fails here), the data names no rule that does not exist, translated documentation keeps the code spans, and
the pages show the translation under zh-Hans and the English text otherwise."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from portal.catalogue import translations
from scanner.rules import catalogue
from scanner.rules.docs import parse_sections
from tests.portal.people import client_for

ZH = {"Accept-Language": "zh-CN,zh;q=0.9"}
_CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("language", sorted(translations.LANGUAGES))
def test_every_rule_has_a_translated_title_and_summary(language):
    table = translations.table(language)
    missing = [
        f"{code} {key}"
        for code in catalogue()
        for key in ("title", "summary")
        if not _CJK.search(table.get(code, {}).get(key, ""))
    ]
    assert not missing, (
        f"add these to {translations.DATA / (translations.LANGUAGES[language] + '.json')} (keyed by rule code): {missing}"
    )
    unknown = sorted(set(table) - set(catalogue()))
    assert not unknown, f"translations of rules that do not exist (renumbered?): {unknown}"
    keys = {key for entry in table.values() for key in entry}
    assert keys <= {"title", "summary", *translations.SECTIONS}, keys


@pytest.mark.parametrize("language", sorted(translations.LANGUAGES))
def test_translated_documentation_keeps_the_code_spans_of_the_english(language):
    """A translated section names the same APIs as the rule's docstring: every `span` of the English is in it."""
    for code, entry in translations.table(language).items():
        sections = parse_sections(catalogue()[code].doc)
        for key, heading in translations.SECTIONS.items():
            if key in entry:
                missing = _spans(sections.get(heading, "")) - _spans(entry[key])
                assert not missing, f"{code} {key}: {sorted(missing)}"
                assert entry[key].count("`") % 2 == 0, f"{code} {key}: unbalanced backticks"


def _spans(text: str) -> set[str]:
    """The `code` spans of a text, whitespace collapsed (a docstring's span may wrap)."""
    return {" ".join(span.split()) for span in re.findall(r"`([^`]+)`", text)}


def test_the_active_language_chooses_and_english_is_the_fallback():
    rule = catalogue()["ROC101"]
    with translation.override("zh-hans"):
        assert _CJK.search(translations.text("ROC101", "summary", rule.summary))
        assert translations.text("ROC999", "summary", "English") == "English"
    with translation.override("en"):
        assert translations.text("ROC101", "summary", rule.summary) == rule.summary


@pytest.mark.django_db
def test_the_catalogue_pages_show_the_translation_under_zh_hans(people):
    rule = catalogue()["ROC101"]
    with translation.override("zh-hans"):
        summary = escape(translations.text("ROC101", "summary", ""))
        title = escape(translations.text("ROC101", "title", ""))
    english_summary = escape(rule.summary)
    zh = client_for(people.bob, headers=ZH)
    listing = zh.get(reverse("catalogue:rules")).content.decode()
    assert summary in listing and english_summary not in listing
    page = zh.get(reverse("catalogue:rule", args=["ROC101"])).content.decode()
    assert title in page
    # translated documentation sections are shown; any English section left is marked lang="en"
    with translation.override("zh-hans"):
        why = translations.text("ROC101", "why", "")
    assert escape(why[:20]) in page
    untranslated = [key for key in translations.SECTIONS if not translations.table("zh-hans")["ROC101"].get(key)]
    assert page.count('<div lang="en">') == len([k for k in untranslated if k != "known"])
    # a search in Chinese finds the rule by its translated summary
    found = zh.get(reverse("catalogue:rules"), {"q": "lane"}).content.decode()
    assert 'data-rule="ROC101"' in found
    assert 'data-rule="ROC101"' in zh.get(reverse("catalogue:rules"), {"q": "线程号计算"}).content.decode()
    english = client_for(people.bob, headers={"Accept-Language": "en"})
    assert english_summary in english.get(reverse("catalogue:rules")).content.decode()
    assert summary not in english.get(reverse("catalogue:rules")).content.decode()
