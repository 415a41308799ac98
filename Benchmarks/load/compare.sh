#!/usr/bin/env bash
# Two (or more) bazaar-server builds on SQLite under the same wrk workload, in alternating rounds:
# the A/B form of run.sh for a change that a ratio to the bare route would hide in the VM's drift.
# With --postgres URL the last binary also runs on that PostgreSQL, as one more server (its
# processes moved to CPU 1, beside wrk, as run.sh does): the engines side by side.
#
#   Benchmarks/load/compare.sh [--mix SPEC] [--rounds 5] [--duration 5] [--connections 64]
#                              [--postgres URL] BINARY...
#
# Every server runs at once on its own seeded SQLite file (seed.py), pinned to CPU 0 with one NIO
# event loop, wrk on CPU 1, bcrypt cost 10, as in run.sh. Each round runs the workload once on each
# server, the order turned by one place per round, after writing dirty pages out (`sync`). Per
# round it prints each server's req/s and server CPU per request; at the end, each server's median
# req/s and the median of its per-round ratio to the first binary. --mix takes run.sh's spec
# (default: run.sh's mix; `send:1` is sends alone). Every answer must be 2xx, else exit 1.
#
# Example (the durability fix of 2026-11-27, BENCHMARKS.md):
#   git worktree add /tmp/before HEAD~1 && (cd /tmp/before && swift build -c release --product bazaar-server)
#   swift build -c release --product bazaar-server
#   Benchmarks/load/compare.sh --mix send:1 /tmp/before/.build/release/bazaar-server .build/release/bazaar-server
# Cached product reads on the two engines (2026-11-27, closing; a throwaway cluster, fsync on):
#   PG_DURABLE=1 scripts/with-postgres.sh bash -c \
#     'Benchmarks/load/compare.sh --mix list:1 --postgres "$BAZAAR_TEST_POSTGRES_URL" .build/release/bazaar-server'
#
# Needs: wrk, python3, taskset (util-linux), two or more CPUs.
set -euo pipefail

MIX="list:300,search:150,product:250,history:150,send:149,login:1"
ROUNDS=5
DURATION=5
CONNECTIONS=64
POSTGRES=""
while [ $# -gt 0 ]; do
    case "$1" in
        --mix) MIX="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --postgres) POSTGRES="$2"; shift 2 ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        -*) echo "compare.sh: unknown option $1 (try --help)" >&2; exit 64 ;;
        *) break ;;
    esac
done
[ $# -ge 2 ] || { [ $# -ge 1 ] && [ -n "$POSTGRES" ]; } ||
    { echo "compare.sh: give two or more server binaries, or one and --postgres (try --help)" >&2; exit 64; }
for tool in wrk python3 taskset; do
    command -v "$tool" >/dev/null || { echo "compare.sh: $tool is missing" >&2; exit 69; }
done
[ "$(nproc)" -ge 2 ] || { echo "compare.sh: needs two CPUs (server on 0, wrk on 1)" >&2; exit 69; }
BINS=("$@")
for bin in "${BINS[@]}"; do
    [ -x "$bin" ] || { echo "compare.sh: $bin is not an executable" >&2; exit 66; }
done

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$(dirname "$HERE")")"
# shellcheck source=../../scripts/start-server.sh
source "$ROOT/scripts/start-server.sh"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/bazaar-compare.XXXXXX")"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

URLS=()
NAMES=()
SERVER_FLAGS=(--port 0 --bcrypt-cost 10 --no-quotas --access-token-lifetime 86400 --log-level error)
for i in "${!BINS[@]}"; do
    start_server "$WORK/$i.out" "$WORK/$i.err" env NIO_SINGLETON_GROUP_LOOP_COUNT=1 taskset -c 0 "${BINS[$i]}" \
        --sqlite "$WORK/$i.sqlite" "${SERVER_FLAGS[@]}"
    PIDS+=("$SERVER_STARTED_PID")
    URLS+=("$SERVER_STARTED_URL")
    NAMES+=("${BINS[$i]}")
    python3 "$HERE/seed.py" "$SERVER_STARTED_URL" "$WORK/data-$i" >&2
done
if [ -n "$POSTGRES" ]; then
    i=${#URLS[@]}
    BAZAAR_SIGNING_KEY="$(head -c 32 /dev/urandom | base64)" start_server "$WORK/$i.out" "$WORK/$i.err" \
        env NIO_SINGLETON_GROUP_LOOP_COUNT=1 taskset -c 0 "${BINS[-1]}" --postgres "$POSTGRES" "${SERVER_FLAGS[@]}"
    PIDS+=("$SERVER_STARTED_PID")
    URLS+=("$SERVER_STARTED_URL")
    NAMES+=("${BINS[-1]} on PostgreSQL")
    # New backends inherit the postmaster's CPU, so the servers keep CPU 0 to themselves.
    for pid in $(pgrep -x postgres || true); do taskset -pc 1 "$pid" >/dev/null 2>&1 || true; done
    python3 "$HERE/seed.py" "$SERVER_STARTED_URL" "$WORK/data-$i" >&2
fi

# One wrk run on server I; prints "REQ_PER_S CPU_US_PER_REQUEST NON2XX".
measure() {
    local i="$1" seconds="$2" pid="${PIDS[$1]}" before after out
    before="$(awk '{ print $14 + $15 }' "/proc/$pid/stat")"
    out="$(taskset -c 1 wrk -t1 -c"$CONNECTIONS" -d"${seconds}s" --timeout 10s -s "$HERE/mix.lua" "${URLS[$i]}" \
        -- "$WORK/data-$i/data.lua" "$MIX")"
    after="$(awk '{ print $14 + $15 }' "/proc/$pid/stat")"
    printf '%s\n' "$out" >"$WORK/wrk.out"
    python3 - "$before" "$after" "$(getconf CLK_TCK)" "$WORK/wrk.out" <<'PY'
import json, sys
before, after, hz = (float(v) for v in sys.argv[1:4])
result = next(json.loads(l.split(" ", 1)[1]) for l in open(sys.argv[4]) if l.startswith("RESULT "))
cpu_us = (after - before) / hz * 1e6 / max(result["requests"], 1)
print(f'{result["rps"]:.0f} {cpu_us:.1f} {result["non2xx"] + sum(result["socket_errors"].values())}')
PY
}

for i in "${!URLS[@]}"; do measure "$i" 2 >/dev/null; done
RESULTS="$WORK/results"
for round in $(seq 1 "$ROUNDS"); do
    line="round $round:"
    for k in "${!URLS[@]}"; do
        i=$(( (k + round) % ${#URLS[@]} ))
        sync
        read -r rps cpu bad <<<"$(measure "$i" "$DURATION")"
        [ "$bad" = 0 ] || { echo "compare.sh: ${NAMES[$i]}: $bad answers were not 2xx" >&2; exit 1; }
        echo "$round $i $rps $cpu" >>"$RESULTS"
        line="$line [$i] $rps req/s, ${cpu} µs CPU;"
    done
    echo "$line"
done

python3 - "$RESULTS" "${NAMES[@]}" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
bins = sys.argv[2:]
rps = {(int(r), int(i)): float(v) for r, i, v, _ in rows}
cpu = {(int(r), int(i)): float(c) for r, i, _, c in rows}
rounds = sorted({r for r, _ in rps})
for i, name in enumerate(bins):
    ratios = [rps[(r, i)] / rps[(r, 0)] for r in rounds]
    print(f"[{i}] {name}: {statistics.median(rps[(r, i)] for r in rounds):.0f} req/s, "
          f"{statistics.median(cpu[(r, i)] for r in rounds):.1f} µs CPU per request (medians); "
          f"of [0]: {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})")
PY
