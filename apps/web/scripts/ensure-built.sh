#!/usr/bin/env bash
# `npm start` serves the web app from apps/web/dist: build it when it is missing or older
# than its sources (a quick Vite build; nothing happens when it is up to date).
set -euo pipefail
cd "$(dirname "$0")/.."
# The rules it shows are bundled from the libraries' sources: a change there is a change here.
if [ ! -f dist/index.html ] || [ -n "$(find src index.html vite.config.ts ../../libs/rules/src ../../libs/access/src ../../libs/events/src -newer dist/index.html -print -quit)" ]; then
  echo "Building the web app (apps/web)..."
  node ../../node_modules/vite/bin/vite.js build --logLevel warn
fi
