#!/usr/bin/env bash
# What `make test` needs beyond the virtualenv, from Debian's packages, installed the same way on a newcomer's
# machine and in CI (.ci/run only starts services, then runs `make test`):
#   chromium         the browser tests (tests/browser/), driven by Playwright; never a browser Playwright downloads
#   fonts-noto-cjk   Chinese text in those tests' screenshots (without it every character is an empty box)
#   clang-19, lld-19, clang-tools-19   the compile check's default toolchain (scanner/compile/clang_hip.py): HIP for gfx942 with
#                      the ROCm headers the scanner ships, no GPU needed
#   clang-22, lld-22, clang-tools-22   the same for HIP 7.14's headers (a profile of ROCm 7.13 or later), which clang 19
#                      cannot build
#   hipcc, libamdhip64-dev   the compile check's hipcc toolchain (ROCm 5.2 in Debian 12), its own tests
#   gettext          msgfmt, for the translation catalogue tests
# As root with apt, what is missing is installed in one apt-get call; otherwise the script says what to install.
# Tests that need a missing tool are skipped on a developer's machine and fail under CI=true (tests/conftest.py).
set -euo pipefail
CHROMIUM="${ROCPORT_CHROMIUM:-/usr/bin/chromium}"
missing=()
[ -x "$CHROMIUM" ] || missing+=(chromium)
dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q "ok installed" || missing+=(fonts-noto-cjk)
if [ -z "${ROCPORT_HIPCC:-}" ] && ! command -v hipcc >/dev/null 2>&1; then missing+=(hipcc libamdhip64-dev); fi
command -v msgfmt >/dev/null 2>&1 || missing+=(gettext)
# clang-19 with lld-19: the compile check's default toolchain (HIP for gfx942 against the bundled ROCm headers)
if [ -z "${ROCPORT_HIP_CLANG:-}" ]; then
  command -v clang++-19 >/dev/null 2>&1 || missing+=(clang-19)
  [ -x /usr/lib/llvm-19/bin/lld ] || missing+=(lld-19)
  # clang-offload-bundler packs the device code object; clang-19 only recommends its package, and apt here installs
  # without recommends
  [ -x /usr/lib/llvm-19/bin/clang-offload-bundler ] || missing+=(clang-tools-19)
  command -v clang++-22 >/dev/null 2>&1 || missing+=(clang-22)
  [ -x /usr/lib/llvm-22/bin/lld ] || missing+=(lld-22)
  [ -x /usr/lib/llvm-22/bin/clang-offload-bundler ] || missing+=(clang-tools-22)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-test-tools: installing ${missing[*]} with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  exit 0
fi
echo "ensure-test-tools: missing ${missing[*]}; the tests that need them will be skipped (and fail under CI=true)." >&2
echo "  Install them with: sudo apt-get install -y ${missing[*]}" >&2
