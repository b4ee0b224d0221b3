#!/usr/bin/env bash
# The browser tests (tests/browser/) drive Debian's Chromium through Playwright; Playwright's own browser
# downloads are never used. Install Chromium with apt when it is missing and we are root; otherwise say how.
set -euo pipefail
CHROMIUM="${ROCPORT_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: installing Debian's chromium for the browser tests" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  [ -x "$CHROMIUM" ] && exit 0
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "ensure-chromium: $CHROMIUM not found; the browser tests will be skipped." >&2
echo "  Install it with: sudo apt-get install -y chromium   (or set ROCPORT_CHROMIUM to a Chromium binary)" >&2
