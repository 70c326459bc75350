#!/usr/bin/env bash
# `npm start`: the whole system on this machine. Works before `npm ci` has ever run.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v node >/dev/null || { echo "Node.js 24 (recommended) or 20.19+ is required." >&2; exit 1; }
bash tools/setup/node-deps.sh
bash tools/setup/system-deps.sh
bash apps/web/scripts/ensure-built.sh
exec node --conditions=development --import tsx tools/dev/src/main.ts "$@"
