"""`python -m portal.local run`: the portal with embedded defaults (see portal/local/stack.py)."""

import sys

from portal.local import stack

if __name__ == "__main__":
    if sys.argv[1:] != ["run"]:
        sys.exit("usage: python -m portal.local run")
    sys.exit(stack.main())
