"""The catalogue's labels for people: the rule families and the risk categories, translated. Shared by the catalogue
pages, the finding filters and the templates' `risk_label` filter."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scanner.model import Risk

FAMILIES = {
    "warp": _("Warp size"),
    "ptx": _("PTX, NVVM, runtime compilation"),
    "libraries": _("Libraries"),
    "api": _("CUDA APIs"),
    "kernel": _("Kernel features"),
    "cmake": _("CMake"),
    "build": _("Makefiles and build scripts"),
    "container": _("Containers and orchestration"),
    "shell": _("Shell scripts and CI"),
    "python": _("Python and packaging"),
    "serving": _("Serving configuration"),
    "host": _("Host setup"),
    "compile": _("Compile check for AMD"),
}
RISKS = {
    Risk.SILENT_WRONG_RESULT.value: _("silent wrong result"),
    Risk.BUILD_BREAK.value: _("build break"),
    Risk.RUNTIME_FAILURE.value: _("runtime failure"),
    Risk.PERFORMANCE.value: _("performance"),
    Risk.DEPRECATION.value: _("deprecation"),
}
