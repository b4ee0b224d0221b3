"""The hipify-clang backend: AMD's own translator, when it is installed.

hipify-clang needs a CUDA toolkit and compiles each file with clang; when clang reports an error it writes no
output at all. So it runs per file, without a shell, in a temporary directory, with a time limit that kills its
whole process group; its `--print-stats-csv` output is parsed into the common statistics. Any failure raises
`HipifyClangFailed`, and the `auto` backend then translates that file with the built-in translator.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from scanner.translate import stats_csv
from scanner.translate.model import LAUNCH_GGL, TranslateOptions, TranslationResult


class HipifyClangFailed(RuntimeError):
    """hipify-clang could not translate this file (the message says why)."""


def find(options: TranslateOptions) -> str | None:
    if options.hipify_clang:
        path = Path(options.hipify_clang)
        return str(path) if path.is_file() and os.access(path, os.X_OK) else None
    return shutil.which("hipify-clang")


class HipifyClangTranslator:
    name = "hipify-clang"

    def __init__(self, executable: str, options: TranslateOptions):
        self.executable = executable
        self.options = options
        self.version = self._version()

    def _version(self) -> str:
        try:
            proc = subprocess.run(
                [self.executable, "--version"], capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"unknown ({exc})"
        for line in (proc.stdout + proc.stderr).splitlines():
            if "version" in line.lower():
                return line.strip()
        return (proc.stdout.strip().splitlines() or ["unknown"])[0]

    def command(self, source: Path, output: Path, stats: Path) -> list[str]:
        o = self.options
        cmd = [self.executable, str(source), f"-o={output}", "--print-stats-csv", f"-o-stats={stats}"]
        if o.cuda_path:
            cmd.append(f"--cuda-path={o.cuda_path}")
        if o.roc:
            cmd.append("--roc")
        if o.experimental:
            cmd.append("--experimental")
        if o.launch_syntax == LAUNCH_GGL:
            cmd.append("--hip-kernel-execution-syntax")
        cmd += [f"-I{d}" for d in o.include_dirs]
        if o.extra_args:
            cmd += ["--", *o.extra_args]
        return cmd

    def translate(self, path: str, text: str, source: Path | None = None) -> TranslationResult:
        """Translate `text`; with `source` (the file on disk, same text) hipify-clang reads it in place, so its
        relative includes resolve; outputs always go to a temporary directory."""
        with tempfile.TemporaryDirectory(prefix="rocport-hipify-") as tmp:
            work = Path(tmp)
            if source is None or not source.is_file():
                source = work / Path(path).name
                source.write_text(text, encoding="utf-8")
            output, stats_file = work / (source.name + ".hip"), work / (source.name + ".csv")
            proc = self._run(self.command(source, output, stats_file), work)
            if not output.is_file():
                detail = _first_error(proc.stderr) or f"exit code {proc.returncode}"
                raise HipifyClangFailed(f"hipify-clang wrote no output ({detail})")
            translated = output.read_text(encoding="utf-8")
            if not stats_file.is_file():
                raise HipifyClangFailed("hipify-clang wrote no statistics CSV")
            try:
                blocks = stats_csv.parse(stats_file.read_text(encoding="utf-8"))
            except stats_csv.StatsCsvError as exc:
                raise HipifyClangFailed(f"unreadable statistics CSV: {exc}") from None
            if not blocks:
                raise HipifyClangFailed("the statistics CSV has no file block")
            _, stats, failed = blocks[0]
            if failed:
                raise HipifyClangFailed("hipify-clang reported: Statistics is invalid due to failed hipification")
            warnings = [line.strip() for line in proc.stderr.splitlines() if "warning" in line.lower()]
            return TranslationResult(path, translated, stats, self.name, self.version, warnings=warnings)

    def _run(self, cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
        try:
            process = subprocess.Popen(
                cmd,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,
            )
        except OSError as exc:
            raise HipifyClangFailed(f"cannot run hipify-clang: {exc}") from None
        try:
            stdout, stderr = process.communicate(timeout=self.options.timeout_seconds)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # its own session: clang children die with it
            process.communicate()
            raise HipifyClangFailed(f"hipify-clang timed out after {self.options.timeout_seconds:g}s") from None
        return subprocess.CompletedProcess(cmd, process.returncode, stdout, stderr)


def _first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        if "error" in line.lower():
            return line.strip()[:300]
    return ""
