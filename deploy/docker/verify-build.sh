#!/usr/bin/env bash
# Builds the production images with Debian's buildah (--isolation chroot, as root) and starts
# each image's entrypoint once. Image registries cannot be reached here, so the Dockerfile's
# BASE (node:24-bookworm-slim) is replaced by a Node.js 24 base assembled locally:
# `debootstrap --variant=minbase bookworm` plus the Node.js 24 binary from the npm registry
# (tools/setup/node24.sh) and this machine's npm. The image thus runs the Node.js it is built
# for, whichever node runs this script. The Dockerfile keeps its public base for real builds.
# Usage: deploy/docker/verify-build.sh [APP ...]   (default: gateway identity)
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo_root"
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=(gateway identity)

if [ "$(id -u)" != "0" ]; then
  echo "verify-build: needs root for buildah --isolation chroot and debootstrap; skipped" >&2
  exit 0
fi
missing=()
command -v buildah >/dev/null 2>&1 || missing+=(buildah)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing ${missing[*]} from Debian packages..."
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

export STORAGE_DRIVER=vfs BUILDAH_ISOLATION=chroot
node_bin="$(bash tools/setup/node24.sh)/node"
node_version="$("$node_bin" --version)"
case "$node_version" in
  v24.*) ;;
  *) echo "verify-build: the image base needs Node.js 24, got $node_version" >&2; exit 1 ;;
esac
base="localhost/inventory-node-base:${node_version#v}"
# The base is a pure function of Debian bookworm and this node binary: kept across runs.
if ! buildah inspect --type image "$base" >/dev/null 2>&1; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  echo "assembling $base (debootstrap minbase + node $node_version)..."
  debootstrap --variant=minbase bookworm "$work/rootfs" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  npm_dir="$(dirname "$(readlink -f "$(command -v npm)")")/.."
  install -D -m 0755 "$node_bin" "$work/rootfs/usr/local/bin/node"
  mkdir -p "$work/rootfs/usr/local/lib/node_modules"
  cp -a "$(cd "$npm_dir" && pwd)" "$work/rootfs/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$work/rootfs/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$work/rootfs/usr/local/bin/npx"
  # node links libstdc++, which minbase lacks: take the host's (same Debian release).
  multiarch="$(uname -m)-linux-gnu"
  for lib in libstdc++.so.6 libgcc_s.so.1; do
    cp -L "/lib/$multiarch/$lib" "$work/rootfs/lib/$multiarch/$lib"
  done
  cp -L /etc/resolv.conf "$work/rootfs/etc/resolv.conf"
  # This machine's trust store (it may include a proxy's CA), so npm reaches the registry
  # from inside the build as it does outside.
  mkdir -p "$work/rootfs/etc/ssl/certs"
  cp -L /etc/ssl/certs/ca-certificates.crt "$work/rootfs/etc/ssl/certs/ca-certificates.crt"
  tar -C "$work/rootfs" -cf "$work/rootfs.tar" .
  {
    echo 'FROM scratch'
    echo 'ADD rootfs.tar /'
    echo 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt npm_config_cafile=/etc/ssl/certs/ca-certificates.crt'
    echo 'CMD ["node"]'
  } >"$work/Containerfile"
  buildah bud --quiet -f "$work/Containerfile" -t "$base" "$work" >/dev/null
fi
# Runs a command in a throwaway container of an image (with vfs storage each container is a full
# copy of the image, so none is left behind).
run_in() {
  local image="$1" container status=0
  shift
  container="$(buildah from --quiet "$image")"
  buildah run --isolation chroot "$container" -- "$@" || status=$?
  buildah rm "$container" >/dev/null
  return "$status"
}
run_in "$base" node --version

for app in "${apps[@]}"; do
  image="localhost/inventory/$app:ci"
  echo "building $image..."
  buildah bud --layers --isolation chroot --build-arg BASE="$base" --build-arg APP="$app" \
    -f deploy/docker/Dockerfile -t "$image" . >"/tmp/verify-build-$app.log" 2>&1 ||
    { tail -40 "/tmp/verify-build-$app.log" >&2; exit 1; }
  # The image's own entrypoint as its own user, without configuration: the compiled code and
  # its production dependencies load, validate the environment and refuse to start, naming
  # the missing variables (what a pod without its Secret would log).
  container="$(buildah from --quiet "$image")"
  user="$(buildah inspect --format '{{.OCIv1.Config.User}}' "$image")"
  cmd="$(buildah inspect --format '{{.OCIv1.Config.Cmd}}' "$image")"
  [ "$user" = "10001:10001" ] || { echo "$image runs as '$user', not 10001:10001" >&2; exit 1; }
  [ "$cmd" = '[node /app/main.js]' ] || { echo "$image CMD is $cmd" >&2; exit 1; }
  output="$(buildah run --isolation chroot --user 10001:10001 "$container" -- node /app/main.js 2>&1 || true)"
  buildah rm "$container" >/dev/null
  if ! grep -q 'Invalid configuration' <<<"$output" || ! grep -q 'NATS_URL' <<<"$output"; then
    echo "$image did not come up as expected:" >&2
    echo "$output" | tail -20 >&2
    exit 1
  fi
  image_node="$(run_in "$image" node --version)"
  [ "$image_node" = "$node_version" ] || { echo "$image runs node $image_node, not $node_version" >&2; exit 1; }
  # `test -e` failing is the expected answer; buildah's report of it is noise.
  if run_in "$image" test -e /app/node_modules/vitest 2>/dev/null; then
    echo "$image contains devDependencies (vitest)" >&2
    exit 1
  fi
  echo "$image: node $image_node; compiled entrypoint starts as 10001 and validates its environment; production dependencies only"
done
