#!/usr/bin/env bash
# Builds helm-render from Debian's Go packages, offline (GOPATH mode): golang-go and
# golang-github-masterminds-sprig-dev (which brings Sprig's dependencies) and
# golang-gopkg-yaml.v3-dev. Debian installs module sources without their /vN import
# suffix, so a scratch GOPATH maps the two /v3 paths Sprig needs onto them.
# Usage: build.sh OUTPUT_BINARY
set -euo pipefail
out="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
debian=/usr/share/gocode/src
gopath="$(mktemp -d)"
trap 'rm -rf "$gopath"' EXIT
mkdir -p "$gopath/src/github.com/Masterminds" "$gopath/src/helm-render"
for entry in "$debian"/*; do
  [ "$(basename "$entry")" = github.com ] || ln -s "$entry" "$gopath/src/$(basename "$entry")"
done
for entry in "$debian"/github.com/*; do
  [ "$(basename "$entry")" = Masterminds ] || ln -s "$entry" "$gopath/src/github.com/$(basename "$entry")"
done
for lib in goutils semver sprig; do
  mkdir -p "$gopath/src/github.com/Masterminds/$lib"
  cp -r "$debian/github.com/Masterminds/$lib/." "$gopath/src/github.com/Masterminds/$lib/"
done
ln -s "$gopath/src/github.com/Masterminds/semver" "$gopath/src/github.com/Masterminds/semver/v3"
ln -s "$gopath/src/github.com/Masterminds/sprig" "$gopath/src/github.com/Masterminds/sprig/v3"
cp "$here/main.go" "$gopath/src/helm-render/"
cd "$gopath/src/helm-render"
GO111MODULE=off GOPATH="$gopath" GOCACHE="${GOCACHE:-$gopath/cache}" GOFLAGS= go build -o "$out" .
