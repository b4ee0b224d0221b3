"""The code table: the only place rule codes are assigned. Code -> module under scanner/rules/.

ROC1xx are C++/CUDA rules: 10x warp size, 12x PTX and NVVM, 13x-14x libraries, 15x-16x CUDA APIs and
kernel features. ROC2xx are the rules on the rest of a repository (text files, scanner.formats): 20x CMake,
21x Makefiles and build scripts, 22x containers, 23x shell and CI, 24x Python and packaging, 25x serving
configuration, 26x host setup. ROC9xx are the compile check's (scanner.compile): the errors hipcc reports when
the translation is built for an AMD target, one rule per kind. Codes are never reused: a retired rule keeps its
number.
"""

CODES: dict[str, str] = {
    # Warp size 32 assumed (wavefronts have 64 lanes on CDNA/Instinct).
    "ROC101": "warp.warp_size_lane_arithmetic",
    "ROC102": "warp.per_warp_array_of_32",
    "ROC103": "warp.reduction_offset_16",
    "ROC104": "warp.hardcoded_warp_size_constant",
    "ROC105": "warp.warpsize_as_constant",
    "ROC106": "warp.lane_mask_32bit",
    "ROC107": "warp.ballot_result_32bit",
    "ROC108": "warp.lane_mask_shift_32bit",
    "ROC109": "warp.amdgcn_wavefront_size_macro",
    "ROC110": "warp.warp_sized_group",
    # PTX, NVVM, runtime compilation.
    "ROC120": "ptx.inline_ptx_asm",
    "ROC121": "ptx.ptx_file",
    "ROC122": "ptx.nvrtc_runtime_compilation",
    "ROC123": "ptx.nvvm_builtin",
    # Libraries.
    "ROC130": "libraries.tensorrt_usage",
    "ROC131": "libraries.cudnn_usage",
    "ROC132": "libraries.cuda_math_library_usage",
    "ROC133": "libraries.nccl_usage",
    "ROC134": "libraries.nvtx_usage",
    "ROC135": "libraries.thrust_cub_usage",
    "ROC136": "libraries.cutlass_usage",
    "ROC137": "libraries.cutensor_usage",
    "ROC138": "libraries.cublaslt_usage",
    "ROC139": "libraries.tensor_core_wmma",
    "ROC140": "libraries.nvml_usage",
    # CUDA APIs.
    "ROC150": "api.cuda_api_without_hip_equivalent",
    "ROC151": "api.cuda_api_deprecated",
    "ROC152": "api.cuda_api_removed",
    "ROC153": "api.texture_surface_reference",
    "ROC159": "api.memory_type_enum_numbering",
    "ROC160": "api.error_code_assumed_equal",
    "ROC161": "api.driver_api_usage",
    "ROC162": "api.cuda_graph_api",
    "ROC163": "api.unified_memory_hint",
    # Kernel features.
    "ROC154": "kernel.dynamic_parallelism",
    "ROC155": "kernel.cooperative_groups_gap",
    "ROC156": "kernel.launch_bounds_second_argument",
    "ROC157": "kernel.static_shared_memory_over_limit",
    "ROC158": "kernel.cuda_arch_numeric_check",
    # CMake.
    "ROC201": "cmake.enable_language_cuda",
    "ROC202": "cmake.find_package_cuda",
    "ROC203": "cmake.cuda_add_target",
    "ROC204": "cmake.cuda_architectures",
    "ROC205": "cmake.nvcc_flags",
    "ROC206": "cmake.cuda_library_targets",
    # Makefiles, build scripts, Python extension builds.
    "ROC211": "build.nvcc_compiler",
    "ROC212": "build.sm_arch_flag",
    "ROC213": "build.cuda_link_flags",
    "ROC214": "build.cuda_toolkit_path",
    "ROC215": "build.torch_cuda_extension",
    # Containers and orchestration.
    "ROC221": "container.nvidia_base_image",
    "ROC222": "container.nvidia_container_env",
    "ROC223": "container.cuda_apt_repository",
    "ROC224": "container.docker_gpus_flag",
    "ROC225": "container.rocm_run_flags_incomplete",
    "ROC226": "container.compose_nvidia_gpu",
    "ROC227": "container.k8s_nvidia_gpu_resource",
    # Shell scripts and CI.
    "ROC231": "shell.nvidia_smi",
    "ROC232": "shell.rocm_smi_deprecated",
    "ROC233": "shell.cuda_visible_devices",
    "ROC234": "shell.nvcc_version_check",
    "ROC235": "shell.ci_nvidia_runner",
    "ROC236": "shell.ci_cuda_image",
    # Python and packaging.
    "ROC241": "python.cuda_only_package",
    "ROC242": "python.torch_cuda_wheel_index",
    "ROC243": "python.cuda_only_import",
    "ROC244": "python.torch_cuda_nvtx",
    "ROC245": "python.cuda_env_variable",
    # Serving configuration.
    "ROC251": "serving.vllm_attention_backend",
    "ROC252": "serving.vllm_launch_hints",
    "ROC253": "serving.nccl_env_tuning",
    # Host setup.
    "ROC261": "host.numa_balancing_not_disabled",
    "ROC262": "host.amdgcn_wavefront_size_define",
    # The compile check: the translation compiled with hipcc for an AMD target.
    "ROC901": "compile.hip_compile_error",
    "ROC902": "compile.cuda_name_undeclared_in_hip",
    "ROC903": "compile.hip_type_mismatch",
    "ROC904": "compile.inline_asm_rejected_by_amdgpu",
    "ROC905": "compile.nvidia_header_missing_on_rocm",
}
