"""Severities the written policy (scanner.rules.severity_policy) gives shapes that real CUDA projects showed rated
as something worse than what happens: a library the project loads itself, a diagnostic that fails gracefully, an
include directory a compiler ignores when absent; and one rated better than it is (nvcc flags set per source)."""

from __future__ import annotations

import pytest

from scanner.model import Risk, Severity
from tests.scanner.helpers import RULE_FIXTURES
from tests.scanner.test_severity_fidelity import findings, write


# -- a) cuDNN through the project's own loader: a run-time failure, not a build break -------------------------
def test_cudnn_opened_with_dlopen_is_a_medium_runtime_failure():
    [finding] = findings(RULE_FIXTURES / "ROC131_cudnn_usage_dlopen.cpp", ["ROC131"])
    assert (finding.severity, finding.risk) == (Severity.MEDIUM, Risk.RUNTIME_FAILURE)
    assert "`libcudnn.so.9` is loaded with `dlopen`" in finding.message and "run-time failure" in finding.message


def test_cudnn_included_directly_stays_a_high_build_break():
    [finding] = findings(RULE_FIXTURES / "ROC131_cudnn_usage.cu", ["ROC131"])
    assert (finding.severity, finding.risk) == (Severity.HIGH, Risk.BUILD_BREAK)


def test_a_loader_that_also_includes_cudnn_h_still_needs_cudnn_to_build(tmp_path):
    text = (
        "#include <dlfcn.h>\n#include <cudnn.h>\n"
        'void* open_it() { return dlopen("libcudnn.so.8", RTLD_LAZY); }\n'
        "cudnnHandle_t handle;\n"
    )
    [finding] = findings(write(tmp_path, "loader.cpp", text), ["ROC131"])
    assert (finding.severity, finding.risk) == (Severity.HIGH, Risk.BUILD_BREAK)


def test_cudnn_called_through_a_table_of_entry_points_is_a_runtime_failure(tmp_path):
    text = (
        '#include "gpu/dnn_table.h"\n'
        "int make(void** out) {\n  const auto* api = dnn_table();\n  return api->cudnnCreate(out);\n}\n"
    )
    [finding] = findings(write(tmp_path, "conv.cpp", text), ["ROC131"])
    assert (finding.severity, finding.risk, finding.line) == (Severity.MEDIUM, Risk.RUNTIME_FAILURE, 4)
