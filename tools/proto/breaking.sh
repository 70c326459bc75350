#!/usr/bin/env bash
# Fails, naming each field or method it breaks, when proto/ is not wire- and source-compatible
# with the last released contracts: proto/released.binpb, a buf image. Releasing contracts is
# `npm run proto:release`, which rewrites that image from the current protos. A change that has
# to break a contract goes into a new major package version beside the old one
# (inventory.<service>.v2), which this check lets through, while the v1 clients still work.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = "--release" ]; then
  bash tools/proto/buf.sh build -o proto/released.binpb
  echo "proto/released.binpb now holds the current contracts; commit it with the release."
  exit 0
fi
bash tools/proto/buf.sh breaking --against proto/released.binpb
echo "No contract of the last release is broken."
