"""TensorRT used.

What it finds:
    Includes of the TensorRT headers (`NvInfer.h`, `NvInferRuntime.h`, `NvInferPlugin.h`, `NvOnnxParser.h`,
    ...) and code that names the `nvinfer1`, `nvonnxparser`, `nvuffparser` or `nvcaffeparser1` namespaces
    (engines, builders, plugins).
    One finding per file, at the first include or use: its message counts the uses and lists their lines
    (porting away from the library is one piece of work per file, not one per line).

Why it breaks on ROCm:
    TensorRT is an NVIDIA-only inference runtime with no ROCm build and no API-compatible replacement.
    Engines, builder configuration, serialized plans and `IPluginV2`/`IPluginV3` plugins must be redone
    for another inference stack; custom plugin kernels need porting to HIP separately.

Example:
    nvinfer1::IBuilder *builder = nvinfer1::createInferBuilder(logger);

Use instead:
    MIGraphX (`migraphx::parse_onnx`, `program::compile` for a GPU target) or ONNX Runtime with the
    MIGraphX (or ROCm) execution provider; for serving, Triton Inference Server with an ONNX Runtime /
    MIGraphX backend. Custom layers become MIGraphX custom ops or ONNX Runtime custom ops in HIP.

References:
    https://rocm.docs.amd.com/projects/AMDMIGraphX/en/latest/
    https://onnxruntime.ai/docs/execution-providers/MIGraphX-ExecutionProvider.html
    https://docs.nvidia.com/deeplearning/tensorrt/latest/index.html
"""

from scanner.model import Risk, Severity
from scanner.rules.libraries._common import Header, Use, library_rule

_USE = (
    "TensorRT (`{name}`) has no ROCm equivalent: rebuild this inference path on MIGraphX or ONNX Runtime "
    "with the MIGraphX execution provider."
)

RULE = library_rule(
    name="libraries-tensorrt-usage",
    formerly=("tensorrt-usage",),
    summary="TensorRT use (no ROCm equivalent: MIGraphX or ONNX Runtime)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.CRITICAL,
    headers=[
        Header(
            r"Nv(Infer\w*|OnnxParser\w*|UffParser|CaffeParser)\.h",
            "<{header}> (TensorRT) has no ROCm equivalent: use MIGraphX or ONNX Runtime with the MIGraphX "
            "execution provider.",
        ),
    ],
    uses=[
        Use("nvinfer1", _USE),
        Use("nvonnxparser", _USE),
        Use("nvuffparser", _USE),
        Use("nvcaffeparser1", _USE),
    ],
    fold=True,
    cuda_only=True,
)
