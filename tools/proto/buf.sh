#!/usr/bin/env bash
# Runs buf from its platform package. The @bufbuild/buf wrapper package is not used: it lists
# optional binaries for every OS, and the registry this project installs from does not carry
# the macOS/Windows ones, which makes `npm ci` reject the lockfile (docs/decisions/0002).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
case "$(uname -m)" in
  x86_64 | amd64) pkg=buf-linux-x64 ;;
  aarch64 | arm64) pkg=buf-linux-aarch64 ;;
  *) echo "buf: no packaged binary for $(uname -s)/$(uname -m); install buf 1.75 and put it on PATH" >&2; exit 1 ;;
esac
binary="$root/node_modules/@bufbuild/$pkg/bin/buf"
if [ ! -x "$binary" ]; then
  if command -v buf >/dev/null 2>&1; then exec buf "$@"; fi
  echo "buf: $binary is missing; run npm ci" >&2
  exit 1
fi
exec "$binary" "$@"
