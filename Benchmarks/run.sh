#!/usr/bin/env bash
# Runs every benchmark suite (this package, then PointFree/ for swift-dependencies) in one go and
# prints each figure beside its yardstick (ratios.py). Builds what it needs in release mode first,
# including bazaar-server in the repository's .build/release.
#
#   Benchmarks/run.sh                  # everything, about 3 minutes once built
#   Benchmarks/run.sh 'Resolve.*'      # only the suites whose target matches the regexp
#
# The full per-benchmark tables (p0…p100 of time, throughput, CPU, allocations) are in the raw output
# saved to $RESULTS (default .benchmarks/last-run.txt under this folder).
set -euo pipefail
cd "$(dirname "$0")"
HERE="$(pwd)"
TARGETS="${1:-.*}"
RESULTS="${RESULTS:-$HERE/.benchmarks/last-run.txt}"
mkdir -p "$(dirname "$RESULTS")"
: >"$RESULTS"

(cd .. && swift build -c release --product bazaar-server)

# One release server for the whole run: every network benchmark (each runs as a process of its own)
# and its yardstick talk to the very same server process, seeded once by the first of them.
WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill -TERM "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
source ../scripts/start-server.sh
start_server "$WORK/stdout" "$WORK/stderr" ../.build/release/bazaar-server --port 0 --sqlite "$WORK/bench.sqlite" \
    --bcrypt-cost 4 --no-quotas --access-token-lifetime 86400 --log-level error
SERVER_PID="$SERVER_STARTED_PID"
export BAZAAR_BENCH_SERVER_URL="$SERVER_STARTED_URL"
echo "== benchmarks against one release bazaar-server at $BAZAAR_BENCH_SERVER_URL"

run() {
    # --format jmh --path stdout prints one JSON line per suite, which ratios.py reads; the text
    # tables come from a second format only if asked, so one run yields every figure.
    swift package benchmark --target "$TARGETS" --format jmh --path stdout --no-progress 2>&1 | tee -a "$RESULTS" |
        grep -v '^\[{' || true
}

run
if echo "Resolve" | grep -qE "$TARGETS" || [ "$TARGETS" = ".*" ]; then
    (cd PointFree && TARGETS=".*" run)
fi
echo
echo "== figures beside their yardsticks (p50 of each benchmark; same run)"
python3 ratios.py "$RESULTS"
