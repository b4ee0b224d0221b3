"""The compile check (scanner.compile) as the pages show it: status and kind labels, a file's diagnostics sorted
for the file page, and the "builds for <target>" share of a scan for the dashboard.

A scan's summary carries `compile: {"target": "gfx90a", "files": {status: count}}` (portal.scans.pipeline.runner); a
file's row its status, target and error count; the blob's stored result the diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

STATUS_LABELS = {
    "compiles": _("builds"),
    "compiles-with-stubs": _("builds with stubbed headers"),
    "fails": _("does not build"),
    "not-checked": _("not checked"),
}
KIND_LABELS = {
    "undeclared-cuda-name": _("CUDA name HIP lacks"),
    "type-mismatch": _("type mismatch"),
    "inline-asm": _("inline assembly"),
    "missing-header": _("missing header"),
    "newer-rocm": _("needs a newer ROCm"),
    "toolchain-gap": _("newer than the bundled headers"),
    "other": _("compiler error"),
    "set-aside": _("set aside (stubbed header)"),
}
BUILDS = ("compiles", "compiles-with-stubs")
CHECKED = ("compiles", "compiles-with-stubs", "fails")


@dataclass
class Share:
    """How many checked files of a scan build for the target."""

    target: str
    builds: int
    with_stubs: int
    fails: int
    not_checked: int

    @property
    def checked(self) -> int:
        return self.builds + self.fails

    @property
    def percent(self) -> float | None:
        return 100 * self.builds / self.checked if self.checked else None

    @property
    def floor(self) -> int | None:
        """As shown: floored, so that "100" means every checked file builds."""
        percent = self.percent
        return None if percent is None else (100 if not self.fails else min(99, int(percent)))

    @classmethod
    def of(cls, summary) -> Share | None:
        """From a scan summary's `compile` entry; None when the scan did not run the check."""
        if not isinstance(summary, dict) or not isinstance(summary.get("files"), dict):
            return None
        files = {k: int(v) for k, v in summary["files"].items()}
        return cls(
            str(summary.get("target") or ""),
            sum(files.get(s, 0) for s in BUILDS),
            files.get("compiles-with-stubs", 0),
            files.get("fails", 0),
            files.get("not-checked", 0),
        )


def for_file_page(check: dict | None, path: str) -> dict:
    """What the file page needs: the status and its label, this file's diagnostics by translated line (shown in
    the side-by-side view), the ones located in other files (the unit's), and the counts by kind."""
    if not check:
        return {"check": None}
    diagnostics = [
        dict(d, kind_label=KIND_LABELS.get(d.get("kind"), d.get("kind"))) for d in check.get("diagnostics") or []
    ]
    here: dict[int, list[dict]] = {}
    elsewhere = []
    for d in diagnostics:
        if d.get("path") == path:
            here.setdefault(int(d.get("hip_line") or 0), []).append(d)
        else:
            elsewhere.append(d)
    counts = [(KIND_LABELS.get(kind, kind), n) for kind, n in sorted((check.get("counts") or {}).items())]
    return {
        "check": check,
        "status": check.get("status", ""),
        "status_label": STATUS_LABELS.get(check.get("status"), check.get("status")),
        "here": here,
        "here_count": sum(len(v) for v in here.values()),
        "elsewhere": elsewhere,
        "counts": counts,
    }
