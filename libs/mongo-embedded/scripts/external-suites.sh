#!/usr/bin/env bash
# Re-runs mongoose's and the MongoDB Node.js driver's own test suites against mongo-embedded.
#
# The npm tarballs do not ship those tests, so each project is cloned (`git clone --depth 1
# --branch <tag>`, without the paths in CLONE_EXCLUDE) from a URL you can point at a mirror, and
# its dependencies installed without install scripts (the tests run from source; scripts would
# fetch binaries such as mongodb-memory-server's mongod). Everything is written under
# MONGO_EMBEDDED_SUITES_DIR, which must lie outside this repository; nothing in the repository
# changes. Each suite's output goes to $MONGO_EMBEDDED_SUITES_DIR/results/<suite>.log and the
# script ends with one line per suite and its exit code (a failing suite does not stop the next;
# the script exits 1 when any suite failed or could not be fetched).
#
# Environment (defaults in brackets):
#   MONGO_EMBEDDED_SUITES_DIR  where clones, their node_modules and logs go (required)
#   MONGOOSE_REPO   [https://github.com/Automattic/mongoose.git]
#   MONGOOSE_TAG    [8.24.10]            mongoose tags carry no "v"
#   DRIVER_REPO     [https://github.com/mongodb/node-mongodb-native.git]
#   DRIVER_TAG      [v6.20.0]
#   MONGOOSE_TEST_CMD  [npx mocha --exit ./test/*.test.js]
#   DRIVER_TEST_CMD    [npx mocha --exit --config test/mocha_mongodb.js test/integration]
#   CLONE_EXCLUDE   [/docs/images/ /test/benchmarks/]  not checked out: large files no test reads,
#                   which a partial mirror may not hold
#   SUITES          [mongoose driver]    which suites to run
#   PORT            [27999]              the embedded server's port
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../../.." && pwd)"
work="${MONGO_EMBEDDED_SUITES_DIR:?set MONGO_EMBEDDED_SUITES_DIR to a directory outside the repository}"
mkdir -p "$work/results"
work="$(cd "$work" && pwd)"
case "$work/" in
  "$repo_root"/*) echo "MONGO_EMBEDDED_SUITES_DIR must be outside $repo_root" >&2; exit 2 ;;
esac

MONGOOSE_REPO="${MONGOOSE_REPO:-https://github.com/Automattic/mongoose.git}"
MONGOOSE_TAG="${MONGOOSE_TAG:-8.24.10}"
DRIVER_REPO="${DRIVER_REPO:-https://github.com/mongodb/node-mongodb-native.git}"
DRIVER_TAG="${DRIVER_TAG:-v6.20.0}"
MONGOOSE_TEST_CMD="${MONGOOSE_TEST_CMD:-npx mocha --exit ./test/*.test.js}"
DRIVER_TEST_CMD="${DRIVER_TEST_CMD:-npx mocha --exit --config test/mocha_mongodb.js test/integration}"
CLONE_EXCLUDE="${CLONE_EXCLUDE:-/docs/images/ /test/benchmarks/}"
SUITES="${SUITES:-mongoose driver}"
PORT="${PORT:-27999}"
url="mongodb://127.0.0.1:$PORT"

# The server, in memory, in its own process; stopped however this script ends.
server_log="$work/results/server.log"
(cd "$repo_root" && exec node --conditions=development --import tsx \
  libs/mongo-embedded/src/cli/main.ts --port "$PORT") >"$server_log" 2>&1 &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do
  grep -q 'mongo-embedded ready' "$server_log" && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$server_log" >&2; exit 1; }
  sleep 0.1
done
grep -q 'mongo-embedded ready' "$server_log" || { echo "server did not start" >&2; exit 1; }

summary=()
failed=0
checkout() { # repo tag dir
  local patterns=('/*') p
  for p in $CLONE_EXCLUDE; do patterns+=("!$p"); done
  git clone --quiet --depth 1 --no-checkout --branch "$2" "$1" "$3" &&
    git -C "$3" sparse-checkout set --no-cone "${patterns[@]}" &&
    git -C "$3" checkout --quiet "$2"
}

run_suite() { # name repo tag command
  local name=$1 dir="$work/$1-$3" status=0
  if [ ! -d "$dir/.git" ]; then
    if ! checkout "$2" "$3" "$dir" 2>"$work/results/$name-clone.log" ||
      ! (cd "$dir" && npm install --no-audit --no-fund --ignore-scripts \
        >"$work/results/$name-install.log" 2>&1); then
      rm -rf "$dir"
      failed=1
      summary+=("$name: not run, clone or install of $2 at $3 failed (see $work/results/$name-*.log)")
      return
    fi
  fi
  (cd "$dir" && env MONGOOSE_TEST_URI="$url/mongoose_test" MONGODB_URI="$url" bash -c "$4") \
    >"$work/results/$name.log" 2>&1 || { status=$?; failed=1; }
  summary+=("$name: exit $status (log: $work/results/$name.log)")
}

for suite in $SUITES; do
  case "$suite" in
    mongoose) run_suite mongoose "$MONGOOSE_REPO" "$MONGOOSE_TAG" "$MONGOOSE_TEST_CMD" ;;
    driver) run_suite driver "$DRIVER_REPO" "$DRIVER_TAG" "$DRIVER_TEST_CMD" ;;
    *) echo "unknown suite $suite (mongoose, driver)" >&2; exit 2 ;;
  esac
done
printf '%s\n' "${summary[@]}"
exit "$failed"
