"""Finding identity survives the edits users make between scans, and identical findings pair one-to-one."""

from __future__ import annotations

from scanner.fingerprint import identity
from tests.scanner.helpers import analyze_text

BASE = """\
__device__ float helper(float v) { return v * 2.f; }

__global__ void reduce(float *out) {
  int lane = threadIdx.x % 32;
  out[lane] = 0.f;
}

__global__ void other(float *out) {
  out[threadIdx.x] = 1.f;
}
"""


def ids(tmp_path, text, name="k.cu"):
    result = analyze_text(tmp_path, text, name=name, codes=["ROC101"])
    return [identity(f) for f in result.findings], result.findings


def test_identity_survives_a_line_shift(tmp_path):
    before, _ = ids(tmp_path, BASE)
    after, findings = ids(tmp_path, "// licence header\n// added\n\n" + BASE)
    assert before == after and len(before) == 1
    assert findings[0].line == 7  # the location moved, the identity did not


def test_identity_survives_edits_elsewhere_in_the_file(tmp_path):
    before, _ = ids(tmp_path, BASE)
    after, _ = ids(tmp_path, BASE.replace("out[threadIdx.x] = 1.f;", "out[threadIdx.x] = 2.f * out[0];"))
    assert before == after


def test_identity_survives_edits_to_the_lines_right_after_the_finding(tmp_path):
    before, _ = ids(tmp_path, BASE)
    after, _ = ids(tmp_path, BASE.replace("  out[lane] = 0.f;\n", "  float tmp = 1.f;\n  out[lane] = tmp;\n"))
    assert before == after


def test_identity_survives_moving_the_function_within_the_file(tmp_path):
    reduce_fn = BASE[BASE.index("__global__ void reduce") : BASE.index("__global__ void other")]
    moved = BASE.replace(reduce_fn, "") + "\n" + reduce_fn
    before, _ = ids(tmp_path, BASE)
    after, findings = ids(tmp_path, moved)
    assert before == after
    assert findings[0].line > 4  # it now sits below other()


def test_identity_leaves_the_path_out_so_renames_can_carry_findings(tmp_path):
    before, _ = ids(tmp_path, BASE, name="old_name.cu")
    after, _ = ids(tmp_path, BASE, name="new_name.cu")
    assert before == after


def test_identity_changes_when_the_flagged_code_changes(tmp_path):
    before, _ = ids(tmp_path, BASE)
    after, _ = ids(tmp_path, BASE.replace("threadIdx.x % 32", "(threadIdx.x + 1) % 32"))
    assert before != after


def test_identical_findings_stay_distinct_and_pair_one_to_one(tmp_path):
    line = "  out[threadIdx.x % 32] += 1.f;\n"
    text = BASE.replace("  out[lane] = 0.f;\n", "  out[lane] = 0.f;\n" + line + "  out[0] = 1.f;\n" + line)
    first, findings = ids(tmp_path, text)
    assert len(first) == 3 and len(set(first)) == 3
    twins = [f for f in findings if "+=" in f.snippet]
    assert twins[0].fingerprint == twins[1].fingerprint
    assert [f.occurrence for f in twins] == [0, 1]
    # A third identical line: the old identities are all still there, exactly one new one appears.
    second, _ = ids(tmp_path, text.replace("  out[0] = 1.f;\n", "  out[0] = 1.f;\n" + line))
    assert len(second) == 4 and set(first) < set(second)
