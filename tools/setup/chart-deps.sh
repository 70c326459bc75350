#!/usr/bin/env bash
# Makes sure the Helm render tool can be built: Go and the Sprig/YAML sources from Debian's
# packages (there is no helm package in Debian). Installs them as root; otherwise says what
# to install. Used by deploy/k8s/check.sh.
set -euo pipefail
packages=(golang-go golang-github-masterminds-sprig-dev golang-gopkg-yaml.v3-dev)
if command -v go >/dev/null 2>&1 &&
  [ -d /usr/share/gocode/src/github.com/Masterminds/sprig ] &&
  [ -d /usr/share/gocode/src/gopkg.in/yaml.v3 ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${packages[*]} from Debian packages..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
else
  echo "Missing Go or Sprig sources. Install them: sudo apt-get install -y ${packages[*]}" >&2
  exit 1
fi
