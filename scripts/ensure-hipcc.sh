#!/usr/bin/env bash
# The compile check (scanner.compile) and its tests use HIP's compiler driver and headers as Debian packages them:
# hipcc and libamdhip64-dev (ROCm 5.x, clang 15), which compile for an AMD GPU target with no GPU and no ROCm
# install. Install them with apt when hipcc is missing and we are root; otherwise say how. Without hipcc the check
# says "not checked" and its tests are skipped.
set -euo pipefail
HIPCC="${ROCPORT_HIPCC:-$(command -v hipcc || true)}"
if [ -n "$HIPCC" ] && [ -x "$HIPCC" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-hipcc: installing Debian's hipcc and libamdhip64-dev for the compile check" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends hipcc libamdhip64-dev >/dev/null
  command -v hipcc >/dev/null 2>&1 && exit 0
  echo "ensure-hipcc: apt-get finished but hipcc is still not on PATH" >&2
  exit 1
fi
echo "ensure-hipcc: hipcc not found; the compile check will say \"not checked\" and its tests will be skipped." >&2
echo "  Install it with: sudo apt-get install -y hipcc libamdhip64-dev   (or set ROCPORT_HIPCC to a hipcc)" >&2
