"""Coverage-guided fuzz targets (atheris, libFuzzer) of the scanner's per-file analysis and translator, of
`.rocport.toml` loading and of webhook parsing. Run by tests/fuzz/test_atheris.py in a subprocess, or by hand:

    .venv/bin/python -m tests.fuzz.atheris_targets analyze CORPUS_DIR -max_total_time=600
    .venv/bin/python -m tests.fuzz.atheris_targets analyze var/test-artifacts/fuzz/analyze-crash-...  # replay

What is instrumented: every module of the `scanner` package, `portal.hosts` (the hosts' webhook parsing) and the
standard library's `tomllib` (pure Python: the coverage libFuzzer steers by is theirs; tomllib's lets it learn TOML's
grammar and reach the checks behind it), imported eagerly inside `atheris.instrument_imports` so lazily imported
submodules are instrumented too. libclang is native code that atheris does not instrument: it is exercised (a
crash or hang in it is caught, as a deadly signal or libFuzzer's -timeout) but not coverage-guided; nor is
json's C decoder, PyYAML's or the rest of the standard library.

A target fails (an uncaught exception, which atheris reports as a crash and saves the input for) when:
- analyze: `Analyzer.analyze` raises, or returns an "internal error" (a bug the worker pool would have hidden),
  or the built-in translator raises or returns anything but text;
- config: loading a `.rocport.toml` raises anything but ConfigError, or accepts limits the pool cannot use;
- webhook: `providers.parse` raises anything but ValueError, or returns a ref/commit PostgreSQL cannot store.
"""

from __future__ import annotations

import importlib
import math
import pkgutil
import sys
import tempfile
from pathlib import Path

import atheris

LANGUAGES = (
    ("cuda", ".cu"),
    ("cuda", ".cuh"),
    ("c++", ".cpp"),
    ("c++", ".h"),
    ("c", ".c"),
    ("ptx", ".ptx"),
    ("cmake", "CMakeLists.txt"),
    ("dockerfile", "Dockerfile"),
    ("shell", ".sh"),
    ("yaml", ".yml"),
    ("python", ".py"),
    ("requirements", "requirements.txt"),
    ("make", "Makefile"),
    ("pyproject", "pyproject.toml"),
    ("conda", "environment.yml"),
    ("sysctl", "sysctl.conf"),
)
PROVIDERS = ("github", "gitlab", "gitea", "forgejo")
EVENTS = ("push", "Push Hook", "Tag Push Hook", "create", "delete", "ping")


def _instrumented_imports() -> None:
    with atheris.instrument_imports(include=["scanner", "portal.hosts", "tomllib"]):
        import scanner

        for module in pkgutil.walk_packages(scanner.__path__, "scanner."):
            if module.name not in ("scanner.__main__", "scanner.worker"):
                importlib.import_module(module.name)
        importlib.import_module("portal.hosts.webhooks")


class Analyze:
    """One file through the worker's own Analyzer, in process: the first byte picks the language."""

    def __init__(self) -> None:
        from scanner.config import ScanOptions
        from scanner.engine import Analyzer
        from scanner.pool import _parser
        from scanner.rules import select
        from scanner.translate import TranslateOptions, Translator

        options = ScanOptions()
        self.analyzer = Analyzer(_parser(options), select([], []), options.target, options.max_file_bytes)
        self.translator = Translator(TranslateOptions(backend="builtin"))
        self.tmp = Path(tempfile.mkdtemp(prefix="rocport-atheris-"))

    def __call__(self, data: bytes) -> None:
        from scanner.engine import FileJob

        if not data:
            return
        language, suffix = LANGUAGES[data[0] % len(LANGUAGES)]
        path = self.tmp / ("fuzz" + suffix if suffix.startswith(".") else suffix)
        path.write_bytes(data[1:])
        result = self.analyzer.analyze(FileJob(str(path), path.name, language))
        if result.error.startswith("internal error"):
            raise AssertionError(result.error)
        if language in ("cuda", "c++", "c"):
            text = data[1:].decode("utf-8", "replace")
            translated = self.translator.translate(path.name, text)
            if not isinstance(translated.text, str):
                raise AssertionError(f"translation is {type(translated.text)}")


class Config:
    """The bytes as the repository's .rocport.toml."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="rocport-atheris-"))

    def __call__(self, data: bytes) -> None:
        from scanner import ConfigError
        from scanner.config import load

        (self.tmp / ".rocport.toml").write_bytes(data)
        try:
            options = load(self.tmp)
        except ConfigError as exc:
            if not str(exc).startswith(".rocport.toml: "):
                raise AssertionError(f"a ConfigError that names no key: {exc}") from None
            return
        for limit in (options.timeout_seconds, options.compile_timeout_seconds):
            if not (math.isfinite(limit) and 0 < limit <= 86_400):
                raise AssertionError(f"accepted a timeout the pool cannot use: {limit}")


class Webhook:
    """The bytes as a verified delivery's body; the provider, event and encoding come from the first byte."""

    def __call__(self, data: bytes) -> None:
        from portal.hosts import webhooks as providers

        if not data:
            return
        provider = PROVIDERS[data[0] % 4]
        event = EVENTS[(data[0] >> 2) % len(EVENTS)]
        content_type = "application/x-www-form-urlencoded" if data[0] & 0x80 else "application/json"
        try:
            push = providers.parse(provider, event, data[1:], content_type)
        except ValueError:  # includes UnicodeDecodeError: a 400 with the reason
            return
        for value in (push.ref, push.before, push.after, push.branch):
            if not isinstance(value, str) or "\x00" in value or len(value) > providers.MAX_REF:
                raise AssertionError(f"unstorable field {value!r:.100}")
            value.encode("utf-8")  # a lone surrogate raises here


TARGETS = {"analyze": Analyze, "config": Config, "webhook": Webhook}


def main() -> None:
    name = sys.argv.pop(1)
    _instrumented_imports()
    target = TARGETS[name]()
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
