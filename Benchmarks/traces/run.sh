#!/usr/bin/env bash
# What tracing costs on the product-read figure (GET /v1/products?limit=20, SQLite): the release
# bazaar-server of an earlier revision (no tracing code at all), the current one with tracing off
# (the default), the current one exporting every request's span to a collector, and the bare
# Hummingbird route, all in one run, in alternating rounds so drift spreads over every target.
#
#   Benchmarks/traces/run.sh REVISION [--rounds 3] [--duration 10] [--warmup 3] [--connections 64] [--no-build]
#
# REVISION is the commit before tracing (1e6e82a). It is built in a git worktree under /tmp
# (BEFORE_BINARY names a built one instead); BAZAAR_SERVER_BINARY and BARE_ROUTE_BINARY name the
# current server and the bare route as in Benchmarks/load/run.sh (BARE_ROUTE_BINARY=none leaves the
# bare route out: CI's smoke form, on debug binaries, runs the script so that it cannot rot). Server and wrk are pinned as
# there (server on CPU 0 with one event loop; wrk, and the collector, on CPU 1). The collector is a
# small Python server that answers every OTLP/HTTP export 200 and discards it: what is measured is
# the server's side of tracing (spans made, batched, encoded and sent), not a collector's; a fifth
# target samples one trace in ten (OTEL_TRACES_SAMPLER=parentbased_traceidratio, ARG 0.1).
# Prints a table of medians and the ratios; every target must answer only 2xx.
set -euo pipefail

REVISION="${1:?usage: Benchmarks/traces/run.sh REVISION [--rounds N] [--duration S] [--warmup S] [--connections N] [--no-build]}"
shift
ROUNDS=3
DURATION=10
WARMUP=3
CONNECTIONS=64
BUILD=1
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) ROUNDS="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --warmup) WARMUP="$2"; shift 2 ;;
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown option $1 (try --help)" >&2; exit 64 ;;
    esac
done

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BENCH="$(dirname "$HERE")"
ROOT="$(dirname "$BENCH")"
LOAD="$BENCH/load"
for tool in wrk python3 swift git; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing (wrk: apt-get install -y wrk)" >&2; exit 69; }
done

if [ -z "${BEFORE_BINARY:-}" ]; then
    WORKTREE="/tmp/bazaar-before-$(cd "$ROOT" && git rev-parse --short "$REVISION")"
    [ -d "$WORKTREE" ] || (cd "$ROOT" && git worktree add -f "$WORKTREE" "$REVISION" >/dev/null)
    [ "$BUILD" = 0 ] || (cd "$WORKTREE" && swift build -c release --product bazaar-server >&2)
    BEFORE_BINARY="$WORKTREE/.build/release/bazaar-server"
fi
if [ "$BUILD" = 1 ]; then
    (cd "$ROOT" && swift build -c release --product bazaar-server >&2)
    (cd "$BENCH" && swift build -c release --product bare-route >&2)
fi
AFTER_BINARY="${BAZAAR_SERVER_BINARY:-$(cd "$ROOT" && swift build -c release --show-bin-path)/bazaar-server}"
BARE_BINARY="${BARE_ROUTE_BINARY:-$(cd "$BENCH" && swift build -c release --show-bin-path)/bare-route}"
BINARIES=("$BEFORE_BINARY" "$AFTER_BINARY")
[ "$BARE_BINARY" = none ] || BINARIES+=("$BARE_BINARY")
for binary in "${BINARIES[@]}"; do
    [ -x "$binary" ] || { echo "run.sh: $binary is not built (drop --no-build)" >&2; exit 69; }
done

SERVER_CPU=()
WRK_CPU=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
    SERVER_CPU=(env NIO_SINGLETON_GROUP_LOOP_COUNT=1 taskset -c 0)
    WRK_CPU=(taskset -c 1)
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/bazaar-traces.XXXXXX")"
CHILD=""
COLLECTOR=""
cleanup() {
    for pid in $CHILD $COLLECTOR; do
        if kill -0 "$pid" 2>/dev/null; then kill "$pid"; wait "$pid" 2>/dev/null || true; fi
    done
    rm -rf "$WORK"
}
trap cleanup EXIT
source "$ROOT/scripts/start-server.sh"

# The collector: 200 with an empty JSON answer to every POST, bodies read and dropped, spans counted.
cat >"$WORK/collector.py" <<'PY'
import http.server, sys, threading
received = {"exports": 0, "bytes": 0}
class Sink(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        self.rfile.read(length)
        received["exports"] += 1
        received["bytes"] += length
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")
        with open(sys.argv[1], "w") as counts:
            counts.write(f"{received['exports']} {received['bytes']}\n")
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sink)
print(f"collector listening on http://127.0.0.1:{server.server_port}", flush=True)
server.serve_forever()
PY
"${WRK_CPU[@]}" python3 "$WORK/collector.py" "$WORK/collector.counts" >"$WORK/collector.out" 2>&1 &
COLLECTOR=$!
for _ in $(seq 1 100); do grep -q listening "$WORK/collector.out" 2>/dev/null && break; sleep 0.05; done
COLLECTOR_URL="$(grep -o 'http://[^ ]*' "$WORK/collector.out")"

# One database for every server: seeded once by the current one (the schema is the same).
SERVER_ARGS=(--port 0 --sqlite "$WORK/bazaar.sqlite" --bcrypt-cost 10 --no-quotas --access-token-lifetime 86400
    --log-level error)
start_server "$WORK/seed.out" "$WORK/seed.err" "$AFTER_BINARY" "${SERVER_ARGS[@]}"
CHILD="$SERVER_STARTED_PID"
python3 "$LOAD/seed.py" "$SERVER_STARTED_URL" "$WORK/data" >&2
kill "$CHILD"; wait "$CHILD" 2>/dev/null || true; CHILD=""
BARE_ARGS=(--port 0 --body-file "$WORK/data/products.json" --product-file "$WORK/data/product.json"
    --messages-file "$WORK/data/messages.json" --message-file "$WORK/data/message.json"
    --login-file "$WORK/data/login.json")

# measure TARGET ROUND COMMAND…: starts it, a discarded warm-up, the measured run, stops it.
measure() {
    local target="$1" round="$2"
    shift 2
    start_server "$WORK/server.out" "$WORK/server.err" "${SERVER_CPU[@]}" "$@"
    CHILD="$SERVER_STARTED_PID"
    "${WRK_CPU[@]}" wrk -t1 -c"$CONNECTIONS" -d"${WARMUP}s" --timeout 10s -s "$LOAD/products.lua" \
        "$SERVER_STARTED_URL" >/dev/null
    echo "round $round: $target…" >&2
    "${WRK_CPU[@]}" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s -s "$LOAD/products.lua" \
        "$SERVER_STARTED_URL" >"$WORK/wrk.out"
    kill "$CHILD"; wait "$CHILD" 2>/dev/null || true; CHILD=""
    local line
    line="$(grep '^RESULT ' "$WORK/wrk.out" | sed 's/^RESULT //')" || { cat "$WORK/wrk.out" >&2; exit 70; }
    printf '{"target":"%s","round":%s,"run":%s}\n' "$target" "$round" "$line" >>"$WORK/results.jsonl"
}

for round in $(seq 1 "$ROUNDS"); do
    [ "$BARE_BINARY" = none ] || measure "bare route" "$round" "$BARE_BINARY" "${BARE_ARGS[@]}"
    measure "before ($REVISION)" "$round" "$BEFORE_BINARY" "${SERVER_ARGS[@]}"
    measure "tracing off" "$round" "$AFTER_BINARY" "${SERVER_ARGS[@]}"
    measure "tracing on" "$round" "$AFTER_BINARY" "${SERVER_ARGS[@]}" --otel-endpoint "$COLLECTOR_URL"
    measure "tracing on, 1 in 10 sampled" "$round" env OTEL_TRACES_SAMPLER=parentbased_traceidratio \
        OTEL_TRACES_SAMPLER_ARG=0.1 "$AFTER_BINARY" "${SERVER_ARGS[@]}" --otel-endpoint "$COLLECTOR_URL"
done

python3 - "$WORK/results.jsonl" "$WORK/collector.counts" "$REVISION" "$DURATION" "$CONNECTIONS" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
exports, sent = (open(sys.argv[2]).read().split() + ["0", "0"])[:2]
revision, duration, connections = sys.argv[3:6]
targets = list(dict.fromkeys(row["target"] for row in rows))
median = {t: statistics.median(r["run"]["rps"] for r in rows if r["target"] == t) for t in targets}
p99 = {t: statistics.median(r["run"]["p99_us"] for r in rows if r["target"] == t) / 1000 for t in targets}
bad = sum(r["run"]["non2xx"] + sum(r["run"]["socket_errors"].values()) for r in rows)
print(f"\nGET /v1/products?limit=20 on SQLite, wrk -t1 -c{connections}, {duration} s a run, "
      f"{len(rows) // len(targets)} rounds, medians")
print("| target | req/s per round | median req/s | p99 ms | of the bare route |")
print("| --- | --- | ---: | ---: | ---: |")
bare = median.get("bare route")
for t in targets:
    each = ", ".join(f"{r['run']['rps']:.0f}" for r in rows if r["target"] == t)
    share = f"{median[t] / bare:.3f}" if bare else "(not run)"
    print(f"| {t} | {each} | {median[t]:.0f} | {p99[t]:.2f} | {share} |")
before = median[f"before ({revision})"]
off, on, sampled = median["tracing off"], median["tracing on"], median["tracing on, 1 in 10 sampled"]
print(f"\ntracing off / before: {off / before:.3f}; tracing on / off: {on / off:.3f}; "
      f"1 in 10 sampled / off: {sampled / off:.3f}")
print(f"collector: {exports} exports, {int(sent) / 1e6:.1f} MB received")
if bad:
    sys.exit(f"run.sh: {bad} non-2xx answers or socket errors")
PY
