"""scanner.build.python_rocm: the branches of a Python file a ROCm build never takes."""

from __future__ import annotations

import ast

import pytest

from scanner.build.python_rocm import dead_lines, on_rocm, rocm_names


@pytest.mark.parametrize(
    ("test", "value"),
    [
        ("IS_ROCM", True),
        ("not IS_ROCM", False),
        ("not SKIP_CUDA_BUILD and not IS_ROCM", False),
        ("SKIP_CUDA_BUILD and IS_ROCM", None),
        ("torch.version.hip is not None", True),
        ("torch.version.hip is None", False),
        ("torch.version.hip", True),
        ("torch.version.cuda", False),
        ("is_rocm_pytorch()", True),
        ("has_rocm", True),
        ("not has_hip", False),
        ("self.is_rocm_pytorch()", True),
        ('BUILD_TARGET == "rocm"', True),
        ('BUILD_TARGET != "rocm"', False),
        ("torch.cuda.is_available()", None),
        ("IS_ROCM or USE_CUDA", True),
        ("HAS_NVCC", None),
        ("USE_TRITON_ROCM", True),
        ("BUILD_HIP", True),
        ("SKIP_ROCM", None),
        ("NO_HIP", None),
        # An environment variable unset in the default configuration gives way to the rest (AutoAWQ_kernels).
        ('os.getenv("CUDA_VERSION", None) or torch.version.cuda', False),
        ('os.environ.get("ROCM_VERSION") or torch.version.hip', True),
        ('os.getenv("CUDA_VERSION", "12.1") or torch.version.cuda', None),
        ('os.getenv("CUDA_VERSION", None) or HAS_NVCC', None),
    ],
)
def test_a_test_on_the_rocm_build_is_three_valued(test, value):
    assert on_rocm(ast.parse(test, mode="eval").body) is value


def test_the_lines_of_the_branch_rocm_never_takes_are_dead_with_the_test_that_decides():
    text = (
        "import torch\n"  # 1
        "def libs(self):\n"  # 2
        "    if self.is_rocm_pytorch():\n"  # 3
        "        return ['-lrocrand']\n"  # 4
        "    else:\n"  # 5
        "        return ['-lcurand',\n"  # 6
        "                '-lcublas']\n"  # 7
        "if torch.cuda.is_available():\n"  # 8
        "    print('gpu')\n"  # 9
        "if not IS_ROCM:\n"  # 10
        "    os.environ['CUDA_HOME'] = '/usr/local/cuda'\n"  # 11
    )
    dead = dead_lines(text)
    assert sorted(dead) == [6, 7, 11]
    assert dead[6] == "`if self.is_rocm_pytorch()`, line 3" and "line 10" in dead[11]
    assert dead_lines("def broken(:\n") == {}


def test_a_flag_set_on_the_rocm_branch_carries_its_value():
    """flash-attention's hopper/setup.py: `if USE_TRITON_ROCM: SKIP_CUDA_BUILD = True`, then the CUDA
    extension under `if not SKIP_CUDA_BUILD:`."""
    text = (
        'SKIP_CUDA_BUILD = os.getenv("SKIP", "FALSE") == "TRUE"\n'  # 1
        'USE_TRITON_ROCM = os.getenv("TRITON_AMD", "FALSE") == "TRUE"\n'  # 2
        "if USE_TRITON_ROCM:\n"  # 3
        "    SKIP_CUDA_BUILD = True\n"  # 4
        "IS_ROCM = torch.version.hip is not None\n"  # 5
        "if not SKIP_CUDA_BUILD:\n"  # 6
        "    build_cuda()\n"  # 7
        "if not IS_ROCM:\n"  # 8
        "    link_cuda()\n"  # 9
    )
    assert rocm_names(ast.parse(text)) == {"SKIP_CUDA_BUILD": True, "IS_ROCM": True}
    assert sorted(dead_lines(text)) == [7, 9]
