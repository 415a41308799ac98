#!/usr/bin/env bash
# Load run: a release bazaar-server under a realistic request mix, beside a bare Hummingbird route
# answering the same bytes (the ceiling), plus a product-read-only comparison reported as a ratio.
#
#   Benchmarks/load/run.sh [--duration 30] [--connections 64] [--warmup 5] [--mix SPEC] [--no-pin] [--no-build]
#                          [--postgres URL]
#
# With --postgres URL the same workloads also run against bazaar-server on that PostgreSQL
# database (an empty one: it is seeded here), plus a send-only workload on each backend for the
# write cost per message (server CPU and, for PostgreSQL, the postgres processes' CPU).
# `scripts/with-postgres.sh` with PG_DURABLE=1 gives a throwaway cluster with fsync on:
#   PG_DURABLE=1 scripts/with-postgres.sh bash -c 'Benchmarks/load/run.sh --postgres "$BAZAAR_TEST_POSTGRES_URL"'
#
# Needs: wrk (apt-get install -y wrk), python3 (stdlib only), the Swift toolchain, taskset (util-linux).
# What it does, in order:
#   1. builds bazaar-server (main package) and bare-route (Benchmarks package) in release mode;
#   2. starts bazaar-server on a free loopback port with a temporary SQLite file at bcrypt cost 10
#      (the server default) and seeds it over HTTP (seed.py): users registered at cost 10 (so every
#      login in the mix verifies a real cost-10 hash), ~500 products, conversations with 50 messages;
#   3. records the server's answers (product list, product, history page, send, login) for bare-route;
#   4. runs GET /v1/products?limit=20 only (products.lua: a static request, no Lua per request or
#      answer, so wrk is as cheap as it gets) against the server, then bare-route; prints the ratio;
#   5. runs wrk with the mix against the server, then against bare-route (the ceiling).
# The default mix, per 1000 requests: 300 product-list pages, 150 searches, 250 product reads, 150
# message-history pages, 149 message sends, 1 login. Logins are rare in a client that keeps its tokens
# and refreshes them (PRODUCT.md), and each one is a cost-10 bcrypt verification (tens of ms of CPU),
# so even 1 in 1000 is a visible share of the server's CPU; --mix changes the weights.
# Each wrk run is preceded by a --warmup run on the same target whose numbers are discarded.
# wrk runs one thread (-t1) with --connections connections (closed loop: each connection sends its
# next request when the answer arrives, so latency includes queueing at saturation). With two or more
# CPUs the server (or bare-route) is pinned to CPU 0 with one NIO event loop and wrk to CPU 1, so they
# do not fight over cores; with --postgres, PostgreSQL's processes go to CPU 1 too, so the server
# keeps CPU 0 to itself as the bare route does (a database normally runs on a machine of its own);
# --no-pin lets the scheduler place them (and NIO start one loop per CPU).
# The mix counts every answer's status in Lua (mix.lua); non-2xx answers and socket errors are shown
# and make the script exit 1.
set -euo pipefail

DURATION=30
CONNECTIONS=64
WARMUP=5
MIX="list:300,search:150,product:250,history:150,send:149,login:1"
PIN=1
BUILD=1
POSTGRES=""
while [ $# -gt 0 ]; do
    case "$1" in
        --duration) DURATION="$2"; shift 2 ;;
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --warmup) WARMUP="$2"; shift 2 ;;
        --mix) MIX="$2"; shift 2 ;;
        --no-pin) PIN=0; shift ;;
        --no-build) BUILD=0; shift ;;
        --postgres) POSTGRES="$2"; shift 2 ;;
        -h|--help) sed -n '2,35p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown option $1 (try --help)" >&2; exit 64 ;;
    esac
done

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BENCH="$(dirname "$HERE")"
ROOT="$(dirname "$BENCH")"

for tool in wrk python3 swift; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing (wrk: apt-get install -y wrk)" >&2; exit 69; }
done

if [ "$BUILD" = 1 ]; then
    echo "building bazaar-server (release)…" >&2
    (cd "$ROOT" && swift build -c release --product bazaar-server >&2)
    echo "building bare-route (release)…" >&2
    (cd "$BENCH" && swift build -c release --product bare-route >&2)
fi
# BAZAAR_SERVER_BINARY and BARE_ROUTE_BINARY, when set, name the binaries to use instead.
SERVER_BIN="${BAZAAR_SERVER_BINARY:-$(cd "$ROOT" && swift build -c release --show-bin-path)/bazaar-server}"
BARE_BIN="${BARE_ROUTE_BINARY:-$(cd "$BENCH" && swift build -c release --show-bin-path)/bare-route}"
[ -x "$SERVER_BIN" ] && [ -x "$BARE_BIN" ] || { echo "run.sh: build the binaries first (drop --no-build)" >&2; exit 69; }

SERVER_CPU=()
WRK_CPU=()
PLACEMENT="unpinned"
if [ "$PIN" = 1 ] && command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
    # One event loop, as NIO would start on a one-CPU machine (it counts CPUs, not the affinity mask).
    SERVER_CPU=(env NIO_SINGLETON_GROUP_LOOP_COUNT=1 taskset -c 0)
    WRK_CPU=(taskset -c 1)
    PLACEMENT="server pinned to CPU 0 (one NIO event loop), wrk to CPU 1"
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/bazaar-load.XXXXXX")"
CHILD=""
cleanup() {
    if [ -n "$CHILD" ] && kill -0 "$CHILD" 2>/dev/null; then kill "$CHILD"; wait "$CHILD" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# start NAME COMMAND…: starts a server printing "... listening on http://HOST:PORT", sets CHILD and URL.
source "$ROOT/scripts/start-server.sh"
start() {
    local name="$1"; shift
    start_server "$WORK/$name.out" "$WORK/$name.err" "$@"
    CHILD="$SERVER_STARTED_PID"
    URL="$SERVER_STARTED_URL"
}

stop() {
    kill "$CHILD"; wait "$CHILD" 2>/dev/null || true; CHILD=""
}

# cpu_seconds PID: user+system CPU seconds the process has used so far.
cpu_seconds() {
    awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"
}

# postgres_cpu_seconds: user+system CPU seconds of every running postgres process (0 without any);
# backends come and go with connections, so only the deltas of one run are meaningful.
postgres_cpu_seconds() {
    local total=0 pid
    for pid in $(pgrep -x postgres || true); do
        total="$(awk -v t="$total" -v hz="$(getconf CLK_TCK)" '{ print t + ($14 + $15) / hz }' "/proc/$pid/stat" 2>/dev/null || echo "$total")"
    done
    echo "$total"
}

# measure LABEL TARGET SCRIPT [MIX]: a discarded warm-up, then the measured wrk run; appends a RESULT line.
measure() {
    local label="$1" target="$2" script="$3" mix="${4:-}"
    if [ "$WARMUP" -gt 0 ]; then
        "${WRK_CPU[@]}" wrk -t1 -c"$CONNECTIONS" -d"${WARMUP}s" --timeout 10s -s "$HERE/$script" "$URL" \
            -- "$WORK/data/data.lua" "$mix" >/dev/null
    fi
    local before after pg_before pg_after
    before="$(cpu_seconds "$CHILD")"
    pg_before="$(postgres_cpu_seconds)"
    echo "measuring: $label on $target ($DURATION s, $CONNECTIONS connections)…" >&2
    "${WRK_CPU[@]}" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s -s "$HERE/$script" "$URL" \
        -- "$WORK/data/data.lua" "$mix" >"$WORK/wrk.out"
    after="$(cpu_seconds "$CHILD")"
    pg_after="$(postgres_cpu_seconds)"
    local line
    line="$(grep '^RESULT ' "$WORK/wrk.out" | sed 's/^RESULT //')" || { cat "$WORK/wrk.out" >&2; exit 70; }
    printf '{"label":"%s","target":"%s","server_cpu_s":%s,"postgres_cpu_s":%s,"run":%s}\n' \
        "$label" "$target" "$(awk -v a="$before" -v b="$after" 'BEGIN { print b - a }')" \
        "$(awk -v a="$pg_before" -v b="$pg_after" 'BEGIN { print b - a }')" "$line" >>"$WORK/results.jsonl"
}

SERVER_ARGS=(--port 0 --sqlite "$WORK/bazaar.sqlite" --bcrypt-cost 10 --no-quotas --access-token-lifetime 86400 --log-level error)

echo "starting bazaar-server (release, bcrypt cost 10, $PLACEMENT)…" >&2
start server "${SERVER_CPU[@]}" "$SERVER_BIN" "${SERVER_ARGS[@]}"
echo "seeding $URL…" >&2
python3 "$HERE/seed.py" "$URL" "$WORK/data"

BARE_ARGS=(--port 0 --body-file "$WORK/data/products.json" --product-file "$WORK/data/product.json"
    --messages-file "$WORK/data/messages.json" --message-file "$WORK/data/message.json"
    --login-file "$WORK/data/login.json")

# Product reads first, on a database not still digesting the mix's writes (checkpoints ran on
# the cores being measured when they came after it).
measure "product reads" "bazaar-server" products.lua
measure "mix" "bazaar-server" mix.lua "$MIX"
# The product list does not change during the mix (it creates no products): check the recorded bytes still match.
python3 - "$URL" "$WORK/data/products.json" <<'EOF'
import sys, urllib.request
now = urllib.request.urlopen(sys.argv[1] + "/v1/products?limit=20").read()
if now != open(sys.argv[2], "rb").read():
    sys.exit("run.sh: GET /v1/products?limit=20 changed during the mix; the comparison would be unfair")
EOF
measure "sends" "bazaar-server" mix.lua "send:1000"
stop

# The same SQLite workloads with group commit off (--sqlite-max-batch 1: every write its own
# transaction and fsync, as before group commit), on a copy of the seeded database.
echo "starting bazaar-server with group commit off (--sqlite-max-batch 1)…" >&2
# The signing key goes along, so the tokens seed.py recorded stay valid.
cp "$WORK/bazaar.sqlite" "$WORK/single.sqlite"
cp "$WORK/bazaar.sqlite.signing-key" "$WORK/single.sqlite.signing-key"
SINGLE_ARGS=(--port 0 --sqlite "$WORK/single.sqlite" --sqlite-max-batch 1 --bcrypt-cost 10 --no-quotas
    --access-token-lifetime 86400 --log-level error)
start server-single "${SERVER_CPU[@]}" "$SERVER_BIN" "${SINGLE_ARGS[@]}"
measure "mix" "bazaar-server, no group commit" mix.lua "$MIX"
measure "sends" "bazaar-server, no group commit" mix.lua "send:1000"
stop

if [ -n "$POSTGRES" ]; then
    echo "starting bazaar-server on PostgreSQL (release, bcrypt cost 10, $PLACEMENT)…" >&2
    PG_ARGS=(--port 0 --postgres "$POSTGRES" --bcrypt-cost 10 --no-quotas --access-token-lifetime 86400 --log-level error)
    BAZAAR_SIGNING_KEY="$(head -c 32 /dev/urandom | base64)" start server-pg "${SERVER_CPU[@]}" "$SERVER_BIN" "${PG_ARGS[@]}"
    if [ "${#WRK_CPU[@]}" -gt 0 ]; then
        # PostgreSQL beside wrk on CPU 1 (new backends inherit the postmaster's affinity), so the
        # server has CPU 0 to itself, as the bare route does; unpinned, the database's background
        # work (checkpoints, autovacuum) also ran on the server's core.
        for pid in $(pgrep -x postgres || true); do taskset -pc 1 "$pid" >/dev/null 2>&1 || true; done
        echo "PostgreSQL pinned to CPU 1, beside wrk" >&2
    fi
    mkdir -p "$WORK/data-pg"
    python3 "$HERE/seed.py" "$URL" "$WORK/data-pg"
    SQLITE_DATA="$WORK/data"
    mv "$WORK/data" "$WORK/data-sqlite" && mv "$WORK/data-pg" "$WORK/data"
    measure "product reads" "bazaar-server/postgres" products.lua
    measure "mix" "bazaar-server/postgres" mix.lua "$MIX"
    measure "sends" "bazaar-server/postgres" mix.lua "send:1000"
    stop
    mv "$WORK/data" "$WORK/data-pg" && mv "$WORK/data-sqlite" "$SQLITE_DATA"
fi

echo "starting bare-route (release, $PLACEMENT)…" >&2
start bare "${SERVER_CPU[@]}" "$BARE_BIN" "${BARE_ARGS[@]}"
measure "product reads" "bare-route" products.lua
measure "mix" "bare-route" mix.lua "$MIX"
stop

python3 - "$WORK/results.jsonl" "$DURATION" "$CONNECTIONS" "$PLACEMENT" "$MIX" <<'EOF'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
duration, connections, placement, mix = sys.argv[2:6]
def per_request_ms(row, key):
    return row[key] / max(row["run"]["requests"], 1) * 1000
def ms(us): return f"{us / 1000:.2f}"
print(f"\nload: wrk -t1 -c{connections}, {duration} s per run after a warm-up, {placement}; "
      f"bazaar-server release, SQLite, bcrypt cost 10")
print(f"mix weights: {mix}\n")
print("| workload | target | req/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | requests | non-2xx | socket errors | target CPU |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for row in rows:
    run = row["run"]
    errors = sum(run["socket_errors"].values())
    cpu = row["server_cpu_s"] / run["seconds"] * 100
    print(f"| {row['label']} | {row['target']} | {run['rps']:.0f} | {ms(run['p50_us'])} | {ms(run['p90_us'])} | "
          f"{ms(run['p99_us'])} | {ms(run['p999_us'])} | {ms(run['max_us'])} | {run['requests']} | "
          f"{run['non2xx']} | {errors} | {cpu:.0f}% |")
print()
for row in rows:
    run = row["run"]
    if run["statuses"]:
        detail = f"{row['label']} on {row['target']}: issued {run['issued']}, statuses {run['statuses']}"
    else:
        detail = f"{row['label']} on {row['target']}: static request, non-2xx = wrk's count of statuses >= 400"
    if run["first_failure"]:
        detail += f"; first non-2xx: {run['first_failure']}"
    if any(run["socket_errors"].values()):
        detail += f"; socket errors {run['socket_errors']}"
    print(detail)
by = {(r["label"], r["target"]): r["run"] for r in rows}
server, bare = by[("product reads", "bazaar-server")], by[("product reads", "bare-route")]
mix_server, mix_bare = by[("mix", "bazaar-server")], by[("mix", "bare-route")]
ratio = server["rps"] / bare["rps"]
print(f"\nmix: bazaar-server {mix_server['rps']:.0f} req/s = {mix_server['rps'] / mix_bare['rps']:.2f} of the bare-route ceiling ({mix_bare['rps']:.0f} req/s)")
if ("mix", "bazaar-server, no group commit") in by:
    single = by[("mix", "bazaar-server, no group commit")]
    print(f"mix with group commit off: {single['rps']:.0f} req/s = {single['rps'] / mix_bare['rps']:.2f} of the ceiling")
print(f"product reads (GET /v1/products?limit=20): bazaar-server {server['rps']:.0f} req/s vs bare-route "
      f"{bare['rps']:.0f} req/s = {ratio:.2f} of the ceiling (target >= 0.50: {'met' if ratio >= 0.5 else 'MISSED'})")
if ("product reads", "bazaar-server/postgres") in by:
    pg_reads, pg_mix = by[("product reads", "bazaar-server/postgres")], by[("mix", "bazaar-server/postgres")]
    print(f"on PostgreSQL: product reads {pg_reads['rps']:.0f} req/s = {pg_reads['rps'] / bare['rps']:.2f} of the ceiling; "
          f"mix {pg_mix['rps']:.0f} req/s = {pg_mix['rps'] / mix_bare['rps']:.2f} of the ceiling")
    # Cached reads touch no database: PostgreSQL's own CPU meanwhile (background work on wrk's core) is the suspect.
    pg_reads_row = next(r for r in rows if (r["label"], r["target"]) == ("product reads", "bazaar-server/postgres"))
    pg_mix_row = next(r for r in rows if (r["label"], r["target"]) == ("mix", "bazaar-server/postgres"))
    print(f"  postgres CPU during the product reads {pg_reads_row['postgres_cpu_s']:.2f} s, during the mix "
          f"{pg_mix_row['postgres_cpu_s']:.2f} s; server CPU per mix request {per_request_ms(pg_mix_row, 'server_cpu_s'):.3f} ms "
          f"(SQLite: {per_request_ms(next(r for r in rows if (r['label'], r['target']) == ('mix', 'bazaar-server')), 'server_cpu_s'):.3f} ms)")
for row in rows:
    if row["label"] == "sends":
        print(f"write cost per message send on {row['target']}: {row['run']['rps']:.0f} sends/s, "
              f"server CPU {per_request_ms(row, 'server_cpu_s'):.2f} ms, postgres CPU {per_request_ms(row, 'postgres_cpu_s'):.2f} ms "
              f"(p50 {row['run']['p50_us'] / 1000:.2f} ms, p99 {row['run']['p99_us'] / 1000:.2f} ms)")
failed = sum(r["run"]["non2xx"] + sum(r["run"]["socket_errors"].values()) for r in rows)
if failed:
    print(f"\nWARNING: {failed} non-2xx answers or socket errors (see above)")
    sys.exit(1)
EOF
