"""ROC261 and the scripts that touch host settings without setting up GPU hosts: storage and network benchmarks."""

from __future__ import annotations

from tests.scanner.helpers import analyze_repository, write_tree

_FIO = """\
#!/bin/bash
sync && echo 3 | sudo tee /proc/sys/vm/drop_caches
fio --name=randread --rw=randread --bs=4k --size=4G --direct=1 --filename=/mnt/data/f
"""
_NETWORK = """\
#!/bin/bash
sudo sysctl -w net.ipv4.tcp_rmem="4096 87380 268435456"
iperf3 -c "$PEER" -P 8 -t 30 --json > iperf.json
"""
_GPU_NODE = """\
#!/bin/bash
sudo amdgpu-install -y --usecase=rocm
sync && echo 3 | sudo tee /proc/sys/vm/drop_caches
fio --name=ckpt --rw=write --bs=1m --size=16G --filename=/mnt/ckpt/f
"""


def numa_findings(tmp_path, files):
    root = write_tree(tmp_path, files)
    result = analyze_repository([root / rel for rel in files], root, codes=["ROC261"])
    return [] if result is None else [f for f in result.findings if f.rule == "ROC261"]


def test_a_storage_benchmark_is_not_host_setup(tmp_path):
    assert numa_findings(tmp_path, {"scripts/disk_check.sh": _FIO}) == []


def test_a_network_benchmark_is_not_host_setup(tmp_path):
    assert numa_findings(tmp_path, {"tools/link_speed.sh": _NETWORK}) == []


def test_a_gpu_node_setup_that_also_runs_fio_is_still_host_setup(tmp_path):
    found = numa_findings(tmp_path, {"deploy/node_setup.sh": _GPU_NODE})
    assert [f.path for f in found] == ["deploy/node_setup.sh"]
