"""The virtual stub tree of a parse: where an empty stand-in for a missing header lives (an unsaved file clang reads
through `-I STUB_DIR`) and which header names may have one, so that no spelling climbs out of it."""

from __future__ import annotations

import os
import re
from pathlib import Path

# clang's message for a header it cannot find, the same from libclang's parse and from the compile check's clang
MISSING_HEADER = re.compile(r"'([^']+)' file not found")

# Deep enough that an include spelled "../../x.h" still lands inside the virtual stub tree (stub_path).
STUB_DIR = "/__rocport_stubs__/a/b/c/d"
STUB_ROOT = "/__rocport_stubs__"


def safe_stub_name(name: str) -> bool:
    """A stub path must stay inside the virtual stub tree: relative, at most four leading "..", none after."""
    if not name or name.startswith("/") or "\0" in name:
        return False
    parts = Path(name).parts
    ups = 0
    while ups < len(parts) and parts[ups] == "..":
        ups += 1
    return ups <= 4 and ".." not in parts[ups:] and ups < len(parts)


def stub_path(name: str) -> str:
    """Where clang finds the stub of `name` through -I STUB_DIR ("../include/x.h" climbs inside the stub tree)."""
    path = os.path.normpath(f"{STUB_DIR}/{name}")
    assert path.startswith(STUB_ROOT + "/"), name
    return path
