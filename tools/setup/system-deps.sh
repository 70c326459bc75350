#!/usr/bin/env bash
# Makes sure nats-server and redis-server exist (unless NATS_URL / REDIS_URL point at
# running servers). Installs them from Debian as root; otherwise says what to install.
# Used by `npm start` (tools/dev/start.sh) and CI (.ci/run).
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/usr/local/sbin/$1" ]; }

missing=()
if [ -z "${NATS_URL:-}" ] && ! have nats-server; then missing+=(nats-server); fi
if [ -z "${REDIS_URL:-}" ] && ! have redis-server; then missing+=(redis-server); fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} from Debian packages..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # The Debian packages start system services we do not use; our own instances run on their own ports.
  for service in nats-server redis-server; do
    if command -v systemctl >/dev/null 2>&1; then systemctl stop "$service" >/dev/null 2>&1 || true; fi
  done
else
  echo "Missing: ${missing[*]}. Install them, for example: sudo apt-get install -y ${missing[*]}" >&2
  echo "Or point NATS_URL / REDIS_URL at running servers." >&2
  exit 1
fi
