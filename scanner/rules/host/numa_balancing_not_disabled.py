"""Host setup for MI300X-class GPUs that never disables NUMA auto-balancing (one finding per repository).

What it finds:
    A repository that ships host or deployment setup (sysctl files, Ansible playbooks and roles, cloud-init
    configs, shell scripts that run `sysctl`, `modprobe`, `amdgpu-install`, edit GRUB or `/proc/sys`), where
    no file sets `kernel.numa_balancing=0` (sysctl file or `sysctl -w`, `echo 0 > /proc/sys/kernel/numa_balancing`,
    an Ansible `sysctl` task, or `numa_balancing=disable` on the kernel command line). Reported once for the
    repository, at the setup file that best locates it (a sysctl file first, then cloud-init, Ansible, shell).
    A benchmark or example script that touches host settings (drops caches, runs `sysctl`) is not host setup:
    when it is all the repository has, the finding is low and only a reminder. A storage or network benchmark
    (a script that runs `fio`, `dd if=`, `iperf3`, `ib_write_bw`, `ior`, ... and names no GPU stack) is not
    reported at all: it measures disks and links, not GPU hosts.

Why it breaks on ROCm:
    MI300X is a multi-die GPU with its own NUMA topology; Linux's automatic NUMA balancing periodically unmaps
    and migrates pages, which collides with the GPU's access patterns. AMD's MI300X system-optimisation guide
    requires it to be disabled: left on, it causes performance jitter, and it has been linked to GPU hangs in
    the field. CUDA hosts never needed this, so CUDA-era setup scripts do not do it.

Example:
    # deploy/setup_host.sh
    sudo amdgpu-install -y --usecase=rocm
    sudo usermod -aG render,video "$USER"
    sudo sysctl -w vm.max_map_count=262144

Use instead:
    Disable it persistently and at once: `echo "kernel.numa_balancing=0" | sudo tee /etc/sysctl.d/90-amd-gpu.conf`
    and `sudo sysctl -w kernel.numa_balancing=0` (Ansible: `ansible.posix.sysctl: name=kernel.numa_balancing
    value=0`); check with `cat /proc/sys/kernel/numa_balancing` (0).

References:
    https://rocm.docs.amd.com/en/latest/how-to/system-optimization/mi300x.html#disable-numa-auto-balancing
    https://instinct.docs.amd.com/projects/amdgpu-docs/en/latest/system-optimization/mi300x.html
    https://docs.kernel.org/admin-guide/sysctl/kernel.html#numa-balancing
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from scanner.model import Risk, Severity
from scanner.rules.base import Rule
from scanner.rules.libraries._judgement import judged

if TYPE_CHECKING:
    from scanner.repository import RepositoryContext

# Targets on multi-die MI300-class (and later) Instinct GPUs, where AMD requires NUMA balancing off.
MI300_CLASS = frozenset({"gfx940", "gfx941", "gfx942", "gfx950"})

_DISABLES = [
    re.compile(r"kernel[./]numa_balancing\s*=\s*[\"']?0\b"),
    re.compile(r"\becho\s+[\"']?0[\"']?\s*>+\s*\S*/proc/sys/kernel/numa_balancing"),
    re.compile(r"\bnuma_balancing\s*=\s*[\"']?(?:disable|0)\b"),
    # Ansible sysctl task: `name:` then `value: 0` within three lines; either may carry a trailing comment
    re.compile(r"kernel\.numa_balancing[\"']?[ \t]*(?:#[^\n]*)?(?:\n[^\n]*){0,3}?\n\s*value:\s*[\"']?0\b"),
]
_SHELL_SETUP = re.compile(
    r"(?<![\w-])(?:sysctl\s+-[wp]|modprobe\s|amdgpu-install|amdgpu-dkms|update-grub|grub2?-mkconfig"
    r"|/etc/default/grub|/proc/sys/|/etc/sysctl|usermod\s.*\b(?:render|video)\b"
    r"|nvidia-smi\s+-pm|nvidia-persistenced)"
)
_PRIORITY = {"sysctl": 0, "cloud-init": 1, "ansible": 2, "shell": 3}
# A benchmark, example or test script: it may drop caches or run sysctl, but it does not set up hosts.
_NOT_SETUP = re.compile(
    r"(?:^|/)(?:bench\w*|benchmarks?|examples?|demos?|samples?|tutorials?|tests?)/"
    r"|(?:^|/)[^/]*(?:bench|example|demo)[^/]*$",
    re.I,
)


# The tools of a storage or network benchmark, and words that put a script on a GPU host after all.
_IO_TOOLS = re.compile(
    r"(?<![\w-])(?:fio|iperf3?|netperf|sockperf|qperf|ib_(?:write|read|send|atomic)_(?:bw|lat)|ior|mdtest|elbencho"
    r"|iozone|bonnie\+\+|hdparm|sysbench\s+fileio|dd\s+[^\n]*\bif=)(?![\w-])"
)
_GPU_STACK = re.compile(r"amdgpu|rocm|\bhip\w*|nvidia|cuda|torchrun|\bgpus?\b", re.I)


def check(ctx: RepositoryContext) -> None:
    candidates = []
    for file in ctx.files:
        text = file.text
        if "numa_balancing" in text and any(p.search(text) for p in _DISABLES):
            return  # the repository disables it somewhere: nothing to say
        located = _setup(file)
        if located is not None and not _io_benchmark(file):
            kind, line = located
            candidates.append((bool(_NOT_SETUP.search(file.rel)), _PRIORITY[kind], file.rel, line, kind))
    if not candidates:
        return
    candidates.sort()  # real host setup first, then by kind
    bench, _, rel, line, kind = candidates[0]
    if bench:
        with judged(ctx, Severity.LOW):
            ctx.report_at(
                rel,
                line,
                1,
                f"This benchmark or example script touches host settings ({kind}: {rel}) "
                "but is not host setup; if the hosts it runs on are MI300X-class, their setup should set "
                "`kernel.numa_balancing=0`: AMD's MI300X guide asks for it (left on, it costs performance "
                "jitter).",
            )
        return
    others = len(candidates) - 1
    more = f" (and {others} other setup file{'s' if others != 1 else ''})" if others else ""
    ctx.report_at(
        rel,
        line,
        1,
        f"This repository ships host setup ({kind}: {rel}{more}) but never disables NUMA "
        "auto-balancing: on MI300X-class hosts set `kernel.numa_balancing=0` (sysctl.d drop-in and "
        "`sysctl -w`), as AMD's MI300X guide requires; left on, it causes performance jitter and has been "
        "linked to GPU hangs.",
    )


def _setup(file) -> tuple[str, int] | None:
    """(kind, line) when the file configures a host, else None."""
    lines = file.lines
    first = next((i for i, text in enumerate(lines, start=1) if text.strip() and not text.lstrip().startswith("#")), 1)
    if file.language == "sysctl":
        return "sysctl", first
    if file.language == "yaml":
        if lines and lines[0].strip().startswith("#cloud-config"):
            return "cloud-init", 1
        if _ansible(file, lines):
            return "ansible", first
        return None
    if file.language != "shell":
        return None  # other languages are read only for a setting that disables it
    for number, text in enumerate(lines, start=1):
        code = text.split("#", 1)[0] if not text.lstrip().startswith("#!") else ""
        if _SHELL_SETUP.search(code):
            return "shell", number
    return None


def _io_benchmark(file) -> bool:
    """A shell script that benchmarks storage or the network (it runs fio, dd, iperf3, ...) and names no GPU
    stack: the host settings it touches (dropping caches, socket buffers) are for that measurement."""
    if file.language != "shell":
        return False
    code = "\n".join(text.split("#", 1)[0] for text in file.lines if not text.lstrip().startswith("#"))
    return bool(_IO_TOOLS.search(code)) and not _GPU_STACK.search(code)


def _ansible(file, lines: list[str]) -> bool:
    rel = "/" + file.rel
    if "/roles/" in rel and "/tasks/" in rel:
        return True
    tops = [t for t in lines if t.startswith("- ")]
    return any(re.match(r"-\s+(?:hosts|import_playbook):", t) for t in tops)


def mi300_severity(profile, base: Severity) -> tuple[Severity, str]:
    hit = [t for t in profile.targets if t in MI300_CLASS]
    if hit:
        return base, f"Required on {', '.join(profile.describe(t) for t in hit)}."
    return Severity.LOW, "Your targets are not MI300-class, where this matters most; still advisable on NUMA hosts."


RULE = Rule(
    name="host-numa-balancing-not-disabled",
    summary="host setup that never disables NUMA auto-balancing (MI300X; one finding per repository)",
    risk=Risk.RUNTIME_FAILURE,
    severity=Severity.HIGH,
    on=("repository",),
    check=check,
    languages=frozenset({"repository"}),
    reads=frozenset({"sysctl", "yaml", "shell", "make", "python", "dockerfile"}),
    target_severity=mi300_severity,
    rocm_side=True,  # AMD host setup: a port that already exists does not make it the NVIDIA side
)
