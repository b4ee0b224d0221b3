"""The rule catalogue: loads every rule named in `codes.CODES` and stamps its code and documentation."""

from __future__ import annotations

import functools
import importlib

from scanner.rules.base import AST_EVENTS, Rule
from scanner.rules.codes import CODES


@functools.cache
def catalogue() -> dict[str, Rule]:
    """Code -> Rule, in code order."""
    rules = {}
    for code, module_name in sorted(CODES.items()):
        module = importlib.import_module(f"scanner.rules.{module_name}")
        rule: Rule = module.RULE
        rule.code = code
        rule.doc = (module.__doc__ or "").strip()
        rule.module = module_name
        rules[code] = rule
    return rules


@functools.cache
def _by_word() -> dict[str, Rule]:
    """Every word a user may write for a rule: its code, its name and its former names."""
    words: dict[str, Rule] = {}
    for rule in catalogue().values():
        for word in (rule.code, rule.name, *rule.formerly):
            other = words.setdefault(word, rule)
            if other is not rule:
                raise ValueError(f"{word!r} names both {other.code} and {rule.code}")
    return words


def resolve(word: str) -> Rule | None:
    """The rule a user means by `word`: a code (ROC101), a name, or a name the rule had before (`Rule.formerly`);
    None for anything else."""
    return _by_word().get(word)


def canonical(word: str) -> str:
    """A former name as the rule's current name; a code, a current name or an unknown word as written."""
    rule = resolve(word)
    return rule.name if rule is not None and word in rule.formerly else word


def select(enabled: list[str] | None = None, disabled: list[str] | None = None) -> list[Rule]:
    """The rules `enabled` names (all when empty) less those `disabled` names; codes, names and former names."""
    rules = catalogue()
    wanted = {rule.code for word in enabled or () if (rule := resolve(word)) is not None}
    drop = {rule.code for word in disabled or () if (rule := resolve(word)) is not None}
    chosen = [r for code, r in rules.items() if not enabled or code in wanted]
    return [r for r in chosen if r.code not in drop]


def rules_run(mode: str, language: str, enabled: list[Rule], compiled: bool = False) -> frozenset[str]:
    """Codes of the rules that really looked at a file analysed in `mode` (a ParseMode value): a finding of any
    other rule on that file can be neither confirmed nor declared fixed by this result.

    A rule runs on a file when the file's language is one of the rule's languages, so the C++ rules never count
    for a Dockerfile nor the text rules for a .cu file. Text files are "text", or "tokens" when their parser
    rejected them: their "file" rules still ran, on lines. The repository-level result (language "repository",
    scanner.repository) counts the "repository" rules. The "compile" rules count only when `compiled`: the
    compile check built the file (scanner.compile.CHECKED); "not checked" (no hipcc, a timeout) leaves their
    findings as they were."""
    if mode == "error":
        return frozenset()
    ran = set()
    for rule in enabled:
        if language not in rule.languages:
            continue
        if "compile" in rule.on and not compiled:
            continue
        if mode in ("tokens", "text") and set(rule.on) <= AST_EVENTS:
            continue
        ran.add(rule.code)
    return frozenset(ran)
