"""A library-named header that is the project's own file (not a rule module).

`#include "../cudnn_frontend_shim.h"` in cuDNN's frontend, `#include "my_cudnn_utils.h"`: a quoted include that
resolves to a file of the repository is the project's header, scanned (and reported) on its own, not the library's.
Unless it is a copy of the library's own declarations (`api` finds them in it) or sits in a vendored third-party
directory: then including it still needs the library.
"""

from __future__ import annotations

import os
import posixpath
import re

from scanner.rules.libraries._judgement import third_party_code
from scanner.sourcetext import read_capped

_CAP = 256 * 1024


def own_header(ctx, header: str, api: re.Pattern | None = None) -> bool:
    """The quoted include `header` resolves to a repository file, found beside the including file, in a directory
    above it or an `include/` directory above it, outside third-party directories, in which `api` (the library's
    own declarations) finds nothing."""
    root = ctx.root
    if not root or header.startswith("/"):
        return False
    directory = posixpath.dirname(ctx.path)
    while True:
        for base in (directory, posixpath.join(directory, "include")):
            rel = posixpath.normpath(posixpath.join(base, header))
            if rel.startswith("../"):
                continue
            path = os.path.join(root, rel)
            if os.path.isfile(path) and not os.path.islink(path):
                if third_party_code(rel):
                    return False
                return api is None or not api.search(read_capped(path, _CAP))
        if not directory:
            return False
        directory = posixpath.dirname(directory)
