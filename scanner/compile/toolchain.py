"""The HIP compiler: finding hipcc, its version, the AMD target it can build for, and running it safely. (The
default toolchain is clang with the bundled ROCm headers, scanner.compile.clang_hip; scanner.compile.compilers
chooses. hipcc stays for a machine with a real ROCm installation: it links the device libraries.)

hipcc is optional, like hipify-clang: a configured path, or `hipcc` on PATH; without it the check says "not
checked" and why. It is always run for the AMD platform: `HIP_PLATFORM=amd` is set and `CUDA_PATH` / `CUDA_HOME`
are cleared in the child's environment, because without them hipcc looks for `nvcc` (and a machine that happens to
have a CUDA toolkit would compile the HIP for NVIDIA instead).

No shell, anywhere. hipcc (ROCm's Perl driver, and the C++ one that replaced it) joins its arguments into one
command line for `system()`, escaping most characters but not all (an argument ending in `.a` or starting with `@`
is passed as is), and the file names and include directories come from the repository being scanned. So hipcc
runs only on a probe file whose name we chose, with `HIPCC_VERBOSE=1`, and prints the compiler command it would
run (`hipcc-cmd: ...`); every check then runs that argument list, with the probe's file swapped for the real one,
directly and without a shell. The probe compiles a tiny kernel with `-c`, so it also proves the target works
(device libraries installed, a target this clang knows).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_ARCH = "gfx90a"  # MI200 (CDNA2, wave64): every HIP release since ROCm 4 builds for it
# The dialect nvcc uses by default since CUDA 12; hipcc's own default is C++11, which rejects much modern CUDA.
DEFAULT_STD = "c++17"
STD_PATTERN = re.compile(r"^(?:c|gnu)\+\+(?:11|14|17|20|2a|2b|23)$")
# Environment variables that would point hipcc at NVIDIA's toolchain or change its flags behind our back.
_CLEARED = (
    "CUDA_PATH",
    "CUDA_HOME",
    "CUDA_ROOT",
    "CUDA_TOOLKIT_ROOT_DIR",
    "HIP_COMPILER",
    "HIP_RUNTIME",
    "HIPCC_COMPILE_FLAGS_APPEND",
    "HIPCC_LINK_FLAGS_APPEND",
    "HIPCC_VERBOSE",
    "HCC_AMDGPU_TARGET",
    "NVCC_PREPEND_FLAGS",
    "NVCC_APPEND_FLAGS",
)
_PROBE_SOURCE = "#include <hip/hip_runtime.h>\n__global__ void rocport_probe(int *p) { p[threadIdx.x] = 1; }\n"
_CLANG = re.compile(r"clang version\s+(\S+)")
_CLANG_LABEL = re.compile(r"clang (\d+)")  # the clang toolchain's version: "clang 19.1.7, HIP 7.2.0 (ROCm 7.2) ..."


class ToolchainError(RuntimeError):
    """hipcc cannot be used on this machine (the message says why, for the "not checked" reason)."""


@dataclass(frozen=True)
class Toolchain:
    """A working hipcc for one target: what it is, and the compiler command it runs."""

    hipcc: str  # the driver: hipcc, or clang++ for the clang toolchain
    version: str  # "HIP 5.2.21153-0, clang 15.0.6"; "clang 19.1.7, HIP 7.2.0 (ROCm 7.2) headers; ..."
    arch: str  # the --offload-arch actually used
    argv: tuple[str, ...]  # the compiler command hipcc runs, with SOURCE and OUTPUT placeholders
    note: str = ""  # why `arch` is not the target that was asked for
    env: dict = field(default_factory=dict, compare=False, hash=False)
    kind: str = "hipcc"  # or "clang" (scanner.compile.clang_hip)
    hip: tuple[int, ...] = ()  # the clang toolchain's HIP headers' version (7, 2, 0): what its ROCm lacks is known

    SOURCE = "\0source"
    OUTPUT = "\0output"

    @property
    def label(self) -> str:
        """Who judged, as a finding names it: "clang 19 with HIP 7.2's headers" for clang with the bundled headers
        (scanner.compile.clang_hip), "hipcc" for a ROCm installation's hipcc (its version is in the check's
        `compiler`)."""
        if self.kind != "clang":
            return "hipcc"
        clang = _CLANG_LABEL.match(self.version)
        compiler = f"clang {clang.group(1)}" if clang else "clang"
        return f"{compiler} with HIP {'.'.join(map(str, self.hip[:2]))}'s headers" if self.hip else compiler

    @property
    def identity(self) -> str:
        """What a cached result depends on: the compiler, its version and every flag (no file name)."""
        return "\0".join((self.version, self.arch, *self.argv))

    def command(self, source: str, output: str, extra: list[str]) -> list[str]:
        """The compiler command for `source`: hipcc's own flags, then `extra`, then the file."""
        out = []
        for arg in self.argv:
            if arg == self.OUTPUT:
                out.append(output)
            elif arg == self.SOURCE:
                out += [*extra, source]
            else:
                out.append(arg)
        return out


def find(configured: str = "") -> str | None:
    """The hipcc to use: the configured path (only if it is an executable file), else `hipcc` on PATH."""
    if configured:
        path = Path(configured)
        return str(path) if path.is_file() and os.access(path, os.X_OK) else None
    return shutil.which("hipcc")


def child_env(base: dict | None = None) -> dict:
    """The environment hipcc and the compiler run with: the AMD platform, no CUDA, English diagnostics."""
    env = {k: v for k, v in (os.environ if base is None else base).items() if k not in _CLEARED}
    env["HIP_PLATFORM"] = "amd"
    env["LC_ALL"] = "C"
    env["LANG"] = "C"
    return env


def resolve(configured: str, wanted: tuple[str, ...], std: str = DEFAULT_STD, timeout: float = 60.0) -> Toolchain:
    """A toolchain for the first of `wanted` targets this hipcc builds for, else for gfx90a (with a note saying
    so). Raises ToolchainError when there is no usable hipcc at all."""
    if not STD_PATTERN.match(std):
        raise ToolchainError(f"unknown C++ dialect {std!r} (expected e.g. c++17 or gnu++17)")
    hipcc = find(configured)
    if hipcc is None:
        where = f"{configured} is not an executable file" if configured else "hipcc is not on PATH"
        raise ToolchainError(
            f"{where}; install the Debian packages hipcc and libamdhip64-dev "
            "(scripts/ensure-hipcc.sh) or configure its path"
        )
    env = child_env()
    tried = []
    for arch in dict.fromkeys((*wanted, DEFAULT_ARCH)):
        argv, problem = _probe(hipcc, arch, std, env, timeout)
        if argv is not None:
            version = _version(argv, env, timeout)
            note = ""
            if tried:
                why = tried[0][1].removeprefix("clang: error: ").split(";")[0][:120]
                note = (
                    f"{', '.join(a for a, _ in tried)}: not buildable with this hipcc ({version}: {why}); "
                    f"checked for {arch} instead"
                )
            return Toolchain(hipcc, version, arch, argv, note, env)
        tried.append((arch, problem))
    raise ToolchainError(f"{hipcc} cannot build for {DEFAULT_ARCH}: {tried[-1][1]}")


def _version(argv: tuple[str, ...], env: dict, timeout: float) -> str:
    """ "HIP 5.2.21153, clang 15.0.6": HIP's from the `--hip-version` hipcc passes, clang's from the compiler
    itself (`hipcc --version` would also run rocm_agent_enumerator, slow and noisy on a machine without a GPU)."""
    hip = next((a.split("=", 1)[1] for a in argv if a.startswith("--hip-version=")), "")
    clang = ""
    try:
        proc = subprocess.run(
            [argv[0], "--version"],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        found = _CLANG.search(proc.stdout)
        clang = found.group(1) if found else ""
    except (OSError, subprocess.TimeoutExpired):
        pass
    parts = ([f"HIP {hip}"] if hip else []) + ([f"clang {clang}"] if clang else [])
    return ", ".join(parts) or Path(argv[0]).name


def _probe(hipcc: str, arch: str, std: str, env: dict, timeout: float) -> tuple[tuple[str, ...] | None, str]:
    """hipcc's compiler command for `arch` (placeholders for the file names), or None and the reason."""
    with tempfile.TemporaryDirectory(prefix="rocport-hipcc-probe-") as tmp:
        source, output = os.path.join(tmp, "probe.hip"), os.path.join(tmp, "probe.o")
        Path(source).write_text(_PROBE_SOURCE, encoding="utf-8")
        cmd = [hipcc, "-c", "-o", output, f"--offload-arch={arch}", "-x", "hip", f"-std={std}", source]
        result = run(cmd, tmp, dict(env, HIPCC_VERBOSE="1"), timeout)
        if result.timed_out:
            return None, f"hipcc timed out after {timeout:g}s"
        line = next((ln for ln in result.stdout.splitlines() if ln.startswith("hipcc-cmd:")), "")
        if result.returncode != 0 or not os.path.isfile(output):
            return None, _first_error(result.stderr + result.stdout) or f"exit code {result.returncode}"
        if not line:
            return None, "hipcc did not print its compiler command (HIPCC_VERBOSE)"
        try:
            words = shlex.split(line[len("hipcc-cmd:") :])
        except ValueError as exc:
            return None, f"unreadable hipcc command: {exc}"
        if source not in words or output not in words:
            return None, "hipcc's compiler command does not name the probe file"
        argv = tuple(Toolchain.SOURCE if w == source else Toolchain.OUTPUT if w == output else w for w in words)
        return argv, ""


@dataclass
class Completed:
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False
    elapsed: float = 0.0


def run(cmd: list[str], cwd: str | Path, env: dict, timeout: float) -> Completed:
    """Run without a shell in a session of its own; past `timeout` the whole process group is killed (clang's
    offload bundler and device compilations are children of the driver)."""
    started = time.monotonic()
    try:
        process = subprocess.Popen(
            cmd,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            start_new_session=True,
        )
    except OSError as exc:
        return Completed(127, "", f"cannot run {cmd[0]}: {exc.strerror or exc}", elapsed=0.0)
    try:
        stdout, stderr = process.communicate(timeout=max(timeout, 0.1))
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        stdout, stderr = process.communicate()
        return Completed(-9, stdout, stderr, timed_out=True, elapsed=time.monotonic() - started)
    return Completed(process.returncode, stdout, stderr, elapsed=time.monotonic() - started)


def _first_error(text: str) -> str:
    for line in text.splitlines():
        if "error" in line.lower():
            return line.strip()[:300]
    return ""
