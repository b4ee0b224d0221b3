"""Texture and surface references (the legacy template API).

What it finds:
    Texture/surface *reference* declarations (`texture<float, 1, cudaReadModeElementType> tex;`,
    `surface<void, 2> surf;`), every use of such a reference (`tex1Dfetch(texRef, i)`, `tex2D(texRef, u, v)`,
    `texRef.filterMode = ...`), and the reference API: `cudaBindTexture`, `cudaBindTexture2D`,
    `cudaBindTextureToArray`, `cudaUnbindTexture`, `cudaGetTextureReference`, `cudaBindSurfaceToArray`,
    `cuTexRef*`, `cuModuleGetTexRef`. One finding per line. The texture *object* API
    (`cudaTextureObject_t`, `cudaCreateTextureObject`, `tex1Dfetch<float>(texObj, i)`) is not reported.

Why it breaks on ROCm:
    CUDA 12 removed texture and surface references, and HIP keeps them only as deprecated shims
    (`hipBindTexture`, `hipTexRef*`, the `texture<>` template) slated for removal: the code does not build
    with current CUDA and builds on ROCm only through an API AMD no longer develops, with deprecation
    warnings that become errors under `-Werror`. Treating it as a build break makes the port happen once,
    to texture objects, which both platforms support.

Example:
    texture<float, 1, cudaReadModeElementType> texRef;
    cudaBindTexture(0, texRef, d_data, bytes);
    float v = tex1Dfetch(texRef, i);

Use instead:
    Texture objects: fill `cudaResourceDesc`/`cudaTextureDesc`, create with `cudaCreateTextureObject`
    (`hipCreateTextureObject`), pass the `cudaTextureObject_t` to the kernel and fetch with
    `tex1Dfetch<float>(texObj, i)`; surface objects (`cudaCreateSurfaceObject`) for surfaces.

References:
    https://rocm.docs.amd.com/projects/HIP/en/latest/reference/hip_runtime_api/modules/memory_management/texture_management_deprecated.html
    https://rocm.docs.amd.com/projects/HIP/en/latest/how-to/hip_runtime_api/memory_management/texture_fetching.html
    https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#texture-and-surface-memory

Known problems:
    In token-only parses (no AST) `texture<`/`surface<` are matched by name, so a user template of that name
    is reported too. The reference API names are reported here only, never by ROC150/ROC151/ROC152.
"""

import re

from scanner.analysis.context import Context
from scanner.model import Risk, Severity
from scanner.rules.api._common import TEXREF_TEMPLATES, api_rule_check, names_owned_by
from scanner.rules.base import Rule

NAMES = names_owned_by("ROC153")
_REF_TYPE = re.compile(r"^(const\s+|volatile\s+)*(texture|surface)<")
_MESSAGE = (
    "texture/surface references were removed in CUDA 12 and are deprecated in HIP; "
    "use texture/surface objects (cudaTextureObject_t -> hipTextureObject_t)."
)


def check(ctx: Context) -> None:
    if ctx.platform_guarded or ctx.reported_on(ctx.line):
        return
    if ctx.event == "identifier":
        name = ctx.token.text
        if name in TEXREF_TEMPLATES:
            nxt = ctx.view.neighbour(ctx.token, 1)
            if ctx.has_ast or nxt is None or nxt.text != "<":
                return  # with an AST the declaration is seen as a type_ref
            ctx.report(f"`{name}<...>` declares a {name} reference: {_MESSAGE}")
            return
        ctx.report(f"`{name}` belongs to the {'surface' if 'urf' in name else 'texture'} reference API: {_MESSAGE}")
        return
    node = ctx.node
    if ctx.event == "type_ref":
        if node.kind_name != "TEMPLATE_REF" or node.name not in TEXREF_TEMPLATES:
            return
        if node.parent is None or not _REF_TYPE.match(node.parent.type_name):
            return
        ctx.report(f"`{node.parent.type_name}` is a {node.name} reference: {_MESSAGE}")
        return
    # decl_ref: a use of a texture/surface reference variable.
    if _REF_TYPE.match(node.type_name.replace("&", "").strip()):
        ctx.report(f"`{node.name}` is a texture/surface reference: {_MESSAGE}")


RULE = Rule(
    name="api-texture-surface-reference",
    formerly=("texture-surface-reference",),
    summary="Texture/surface references (removed in CUDA 12, deprecated in HIP)",
    risk=Risk.BUILD_BREAK,
    severity=Severity.MEDIUM,
    on=("type_ref", "decl_ref", "identifier"),
    names=NAMES,
    requires=("texture", "surface", *sorted(NAMES)),
    check=api_rule_check(check),
)
