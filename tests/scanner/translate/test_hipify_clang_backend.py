"""The hipify-clang backend and `auto` fallback, against a stand-in executable.

hipify-clang cannot be installed here (it needs LLVM and a CUDA toolkit), so each test writes a stand-in
script that behaves as HIPIFY documents it (../shared/hipify/): `--version`, `-o=OUT`, `-o-stats=CSV` with the
`--print-stats-csv` layout, and no output file plus the ERROR line when clang "fails". Markers in the source
make it fail (`STANDIN_COMPILE_ERROR`) or hang (`STANDIN_HANG`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from scanner.translate import TranslateOptions, TranslationError, Translator

STAND_IN = textwrap.dedent('''\
    #!{python}
    """Stand-in for hipify-clang (test double): renames a few names and writes hipify's CSV."""
    import sys, time
    args = sys.argv[1:]
    if args == ["--version"]:
        print("HIPIFY (stand-in) version 18.0.0"); sys.exit(0)
    with open("{log}", "a") as log: log.write(" ".join(args) + "\\n")
    source = args[0]
    out = next(a[3:] for a in args if a.startswith("-o="))
    stats = next(a[len("-o-stats="):] for a in args if a.startswith("-o-stats="))
    text = open(source).read()
    if "STANDIN_HANG" in text:
        time.sleep(600)
    failed = "STANDIN_COMPILE_ERROR" in text
    converted = text.count("cudaMalloc")
    block = ["", "file '%s' statistics:" % source]
    if failed:
        block += ["", "  ERROR: Statistics is invalid due to failed hipification.", ""]
    block += ["CONVERTED refs count;%d" % converted, "UNCONVERTED refs count;0", "CONVERSION %;100.0",
              "REPLACED bytes;%d" % (10 * converted), "TOTAL bytes;%d" % len(text), "CHANGED lines of code;%d" % converted,
              "TOTAL lines of code;%d" % text.count("\\n"), "CODE CHANGED (in bytes) %;1.0",
              "CODE CHANGED (in lines) %;1.0", "TIME ELAPSED s;0.01"]
    if converted:
        block += ["", "CUDA ref type;Count", "memory;%d" % converted, "", "CUDA API;Count", "CUDA RT API;%d" % converted,
                  "", "CUDA ref name;Count", "cudaMalloc;%d" % converted]
    open(stats, "w").write("\\n".join(block) + "\\n")
    if failed:
        print("error: unknown type name 'foo_t'", file=sys.stderr); sys.exit(1)
    open(out, "w").write(text.replace("cudaMalloc", "hipMalloc"))
''')


@pytest.fixture
def stand_in(tmp_path):
    log = tmp_path / "calls.log"
    script = tmp_path / "hipify-clang"
    script.write_text(STAND_IN.format(python=sys.executable, log=log))
    script.chmod(0o755)
    return script, log


def test_hipify_clang_output_statistics_and_version_are_used(stand_in):
    script, log = stand_in
    translator = Translator(
        TranslateOptions(
            backend="hipify-clang",
            hipify_clang=str(script),
            roc=True,
            launch_syntax="hipLaunchKernelGGL",
            cuda_path="/opt/cuda",
        )
    )
    result = translator.translate("k.cu", "void f(float **p) { cudaMalloc(p, 4); }\n")
    assert result.backend == "hipify-clang" and "18.0.0" in result.backend_version
    assert result.text == "void f(float **p) { hipMalloc(p, 4); }\n"
    assert result.stats.converted_by_name == {"cudaMalloc": 1} and result.stats.replaced_bytes == 10
    call = log.read_text()
    assert "--roc" in call and "--hip-kernel-execution-syntax" in call and "--cuda-path=/opt/cuda" in call


def test_auto_falls_back_per_file_and_records_why(stand_in):
    script, _ = stand_in
    translator = Translator(TranslateOptions(backend="auto", hipify_clang=str(script)))
    good = translator.translate("a.cu", "void f(float **p) { cudaMalloc(p, 4); }\n")
    bad = translator.translate("b.cu", "// STANDIN_COMPILE_ERROR\nvoid g() { cudaFree(0); }\n")
    assert good.backend == "hipify-clang" and not good.fallback_reason
    assert bad.backend == "builtin"
    assert "wrote no output" in bad.fallback_reason and "unknown type name" in bad.fallback_reason
    assert "hipFree(0)" in bad.text


def test_a_hanging_hipify_clang_is_killed_and_the_file_falls_back(stand_in):
    script, _ = stand_in
    translator = Translator(TranslateOptions(backend="auto", hipify_clang=str(script), timeout_seconds=2))
    result = translator.translate("h.cu", "// STANDIN_HANG\nvoid g() { cudaFree(0); }\n")
    assert result.backend == "builtin" and "timed out after 2s" in result.fallback_reason
    leftover = subprocess.run(["pgrep", "-f", str(script)], capture_output=True, text=True).stdout.strip()
    assert leftover == "", "the timed-out hipify-clang process group was not killed"


def test_auto_without_hipify_clang_uses_the_builtin_translator(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    translator = Translator(TranslateOptions(backend="auto"))
    assert translator.translate("a.cu", "cudaError_t e;\n").backend == "builtin"


def test_asking_for_a_missing_hipify_clang_is_a_clear_error(tmp_path):
    with pytest.raises(TranslationError, match="hipify-clang not found"):
        Translator(TranslateOptions(backend="hipify-clang", hipify_clang=str(tmp_path / "nope")))


def test_the_cli_accepts_hipify_spellings_and_runs_the_stand_in(stand_in, tmp_path):
    script, log = stand_in
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_text("void f(float **p) { cudaMalloc(p, 4); }\n")
    out = tmp_path / "out"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "scanner",
            "translate",
            str(src),
            "-o",
            str(out),
            "--backend",
            "hipify-clang",
            "--hipify-clang",
            str(script),
            "--hip-kernel-execution-syntax",
            "--roc",
        ],
        capture_output=True,
        text=True,
        env={**os.environ},
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "hipify-clang (HIPIFY (stand-in) version 18.0.0)" in proc.stdout
    assert (out / "k.hip").read_text() == "void f(float **p) { hipMalloc(p, 4); }\n"
    assert "--hip-kernel-execution-syntax" in log.read_text()
