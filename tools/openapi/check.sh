#!/usr/bin/env bash
# Fails when the typed client's document or types are not what the gateway describes now
# (`npm run openapi` regenerates them).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/openapi/generate.sh
paths=(libs/api-client/openapi.json libs/api-client/src/schema.ts)
if ! git diff --exit-code --stat -- "${paths[@]}" || [ -n "$(git status --porcelain -- "${paths[@]}")" ]; then
  echo "The API client is stale: run 'npm run openapi' and commit the result." >&2
  exit 1
fi
echo "The API client matches the gateway's OpenAPI document."
