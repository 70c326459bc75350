#!/usr/bin/env bash
# Fails when libs/contracts/src/gen is not what `npm run proto` produces from proto/.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/proto/generate.sh
if ! git diff --exit-code --stat -- libs/contracts/src/gen || [ -n "$(git status --porcelain -- libs/contracts/src/gen)" ]; then
  echo "Generated contracts are stale: run 'npm run proto' and commit the result." >&2
  git status --porcelain -- libs/contracts/src/gen >&2
  exit 1
fi
echo "Generated contracts are up to date."
