"""The code table: the only place rule codes are assigned. Code -> module under scanner/rules/.

ROC1xx are C++/CUDA rules: 10x warp size, 12x PTX and NVVM, 13x-14x libraries, 15x-16x CUDA APIs and
kernel features. Codes are never reused: a retired rule keeps its number.
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
}
