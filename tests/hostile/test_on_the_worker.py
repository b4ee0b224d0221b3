"""Hostile repositories on a real Celery worker (prefork child, the scanner's worker processes under it): each
scan reaches its final state with the same clear outcome as in-process, and the worker survives them all."""

from __future__ import annotations

import pytest

from portal.scans.actions import do_create_scan
from tests.faults.points import FaultPlan
from tests.hostile.harness import FILE, fast_import, files_of, register
from tests.portal.worker import Worker, wait_final

KERNEL = "__global__ void k(float *x) { x[threadIdx.x % 32] = warpSize; }\n"


@pytest.mark.django_db(transaction=True)
def test_a_worker_gives_each_hostile_repository_a_clear_final_state_and_survives(
    people, repo_factory, tmp_path, canary
):
    faults = FaultPlan(tmp_path / "faults")
    faults.add("pool.file", "crash", once=False, path="crash.cu")  # as a libclang segfault on that file would
    worker = Worker(tmp_path / "worker.log", faults=faults)
    try:
        deep = repo_factory("deep")
        deep_commit = fast_import(deep, [("d/" * 1000 + "deep.cu", FILE, KERNEL)])
        devices = repo_factory("devices")
        devices_commit = fast_import(
            devices,
            [
                ("zero.cu", FILE, '#include "/dev/zero"\n' + KERNEL),
                ("crash.cu", FILE, KERNEL),
                (b"bad\xff.cu", FILE, KERNEL),
                ("new\nline.cu", FILE, KERNEL),
            ],
        )
        injected = repo_factory("injected")
        fast_import(injected, [("k.cu", FILE, KERNEL)])
        scans = [
            do_create_scan(register(people, deep.url, name="deep"), commit_sha=deep_commit),
            do_create_scan(register(people, devices.url, name="devices"), commit_sha=devices_commit),
            do_create_scan(
                register(people, injected.url, name="injected", default_branch=f"--upload-pack=touch {canary.marker}")
            ),
        ]
        outcomes = [wait_final(scan.pk, timeout=120) for scan in scans]
        assert [(s.status, s.error_code) for s in outcomes] == [
            ("failed", "scan:user:path-too-long"),
            ("finished", ""),
            ("failed", "scan:user:ref-not-found"),
        ]
        files = files_of(outcomes[1])
        assert files["zero.cu"].error == "" and "died" in files["crash.cu"].error
        assert files["bad\\xff.cu"].error == "file name is not valid UTF-8; not analysed"
        assert files["new\nline.cu"].error == ""
        assert not canary.marker.exists()
        assert worker.process.poll() is None  # still serving
    finally:
        worker.stop()
