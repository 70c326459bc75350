#!/usr/bin/env bash
# Makes sure Chromium exists for the browser tests (test-e2e/test/web-app), which drive
# Debian's `chromium` with playwright-core (no browser download). CHROMIUM_PATH may point
# at another build. Installs it from Debian as root; otherwise says what to install.
# Used by CI (.ci/run).
set -euo pipefail

browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing chromium from Debian packages..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
else
  echo "Missing: chromium (for the browser tests). Install it, for example: sudo apt-get install -y chromium" >&2
  echo "Or set CHROMIUM_PATH to a Chromium or Chrome binary." >&2
  exit 1
fi
