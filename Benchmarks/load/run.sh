#!/usr/bin/env bash
# Load run: a release bazaar-server under a realistic request mix, beside a bare Hummingbird route
# answering the same bytes (the ceiling), plus a product-read-only comparison reported as a ratio.
#
#   Benchmarks/load/run.sh [--duration 30] [--connections 64] [--warmup 5] [--rounds 3] [--mix SPEC]
#                          [--no-pin] [--no-build] [--postgres URL]
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
#      with --postgres, a second bazaar-server on PostgreSQL, seeded the same way;
#   3. starts bare-route answering the SQLite server's recorded answers (product list, product,
#      history page, send, login), and a second bare-route that also checks each login's password
#      with bcrypt at cost 10 (the mix only: a yardstick that does the one costly thing a real
#      sign-in must, reported beside the first);
#   4. runs --rounds rounds (default 3). In each, GET /v1/products?limit=20 only (products.lua: a
#      static request, no Lua per request or answer, so wrk is as cheap as it gets) on every target,
#      then the mix on every target, the targets' order turned by one place each round; each ratio
#      to the bare route is taken within its round, and the report gives their median and range;
#   5. measures sends alone on each server, then the mix and sends once more on a copy of the
#      SQLite database with group commit off.
# The default mix, per 1000 requests: 300 product-list pages, 150 searches, 250 product reads, 150
# message-history pages, 149 message sends, 1 login. Logins are rare in a client that keeps its tokens
# and refreshes them (PRODUCT.md), and each one is a cost-10 bcrypt verification (tens of ms of CPU),
# so even 1 in 1000 is a visible share of the server's CPU; --mix changes the weights.
# Each wrk run is preceded by a --warmup run on the same target whose numbers are discarded.
# wrk runs one thread (-t1) with --connections connections (closed loop: each connection sends its
# next request when the answer arrives, so latency includes queueing at saturation). With two or more
# CPUs the servers and bare-route are pinned to CPU 0 with one NIO event loop each and wrk to CPU 1,
# so they do not fight over cores; with --postgres, PostgreSQL's processes go to CPU 1 too, so the
# server keeps CPU 0 to itself as the bare route does (a database normally runs on a machine of its
# own); --no-pin lets the scheduler place them (and NIO start one loop per CPU).
# The table's "CPU 0 stolen" column is the share of each measured run in which the hypervisor
# held the servers' CPU (/proc/stat): a slow round with none stolen was not the host's doing.
# BAZAAR_SERVER_BINARY and BARE_ROUTE_BINARY name binaries to use instead of the release builds;
# BARE_ROUTE_BINARY=none runs no bare route (req/s and CPU only: CI's smoke of this script).
# The mix counts every answer's status in Lua (mix.lua); non-2xx answers and socket errors are shown
# and make the script exit 1.
set -euo pipefail

DURATION=30
CONNECTIONS=64
WARMUP=5
ROUNDS=3
MIX="list:300,search:150,product:250,history:150,send:149,login:1"
PIN=1
BUILD=1
POSTGRES=""
while [ $# -gt 0 ]; do
    case "$1" in
        --duration) DURATION="$2"; shift 2 ;;
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --warmup) WARMUP="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --mix) MIX="$2"; shift 2 ;;
        --no-pin) PIN=0; shift ;;
        --no-build) BUILD=0; shift ;;
        --postgres) POSTGRES="$2"; shift 2 ;;
        -h|--help) sed -n '2,43p' "$0"; exit 0 ;;
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
SERVER_BIN="${BAZAAR_SERVER_BINARY:-$(cd "$ROOT" && swift build -c release --show-bin-path)/bazaar-server}"
BARE_BIN="${BARE_ROUTE_BINARY:-$(cd "$BENCH" && swift build -c release --show-bin-path)/bare-route}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --rounds takes a whole number from 1" >&2; exit 64; }
[ -x "$SERVER_BIN" ] && { [ "$BARE_BIN" = none ] || [ -x "$BARE_BIN" ]; } || { echo "run.sh: build the binaries first (drop --no-build)" >&2; exit 69; }

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
declare -A PIDS=() URLS=() DATA=() NAMES=()
cleanup() {
    local key
    for key in "${!PIDS[@]}"; do
        if kill -0 "${PIDS[$key]}" 2>/dev/null; then kill "${PIDS[$key]}"; wait "${PIDS[$key]}" 2>/dev/null || true; fi
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

# start KEY TARGET DATA COMMAND…: starts a server printing "... listening on http://HOST:PORT" under
# KEY, shown as TARGET, whose wrk scripts read DATA (a folder seed.py wrote).
source "$ROOT/scripts/start-server.sh"
start() {
    local key="$1" target="$2" data="$3"
    shift 3
    start_server "$WORK/$key.out" "$WORK/$key.err" "$@"
    PIDS[$key]="$SERVER_STARTED_PID"
    URLS[$key]="$SERVER_STARTED_URL"
    NAMES[$key]="$target"
    DATA[$key]="$data"
}

# stop KEY: stops the server started under KEY.
stop() {
    kill "${PIDS[$1]}"
    wait "${PIDS[$1]}" 2>/dev/null || true
    unset "PIDS[$1]"
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

# steal_seconds: seconds CPU 0 (the servers' CPU when pinned) has waited for the hypervisor since
# boot (the 8th value of its /proc/stat line). The VM's slow phases show here: a run whose server
# lost CPU to the host reads lower for reasons outside the server.
steal_seconds() {
    awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu0" { print $9 / hz }' /proc/stat
}

# measure ROUND LABEL KEY SCRIPT [MIX]: a discarded warm-up, then the measured wrk run against the
# server started under KEY; appends a RESULT line. Dirty pages are written out first (`sync`), so
# one target's writes are not flushed on the time of the next.
measure() {
    local round="$1" label="$2" key="$3" script="$4" mix="${5:-}"
    local url="${URLS[$key]}" data="${DATA[$key]}/data.lua"
    sync
    if [ "$WARMUP" -gt 0 ]; then
        "${WRK_CPU[@]}" wrk -t1 -c"$CONNECTIONS" -d"${WARMUP}s" --timeout 10s -s "$HERE/$script" "$url" \
            -- "$data" "$mix" >/dev/null
    fi
    local before after pg_before pg_after steal_before steal_after
    before="$(cpu_seconds "${PIDS[$key]}")"
    pg_before="$(postgres_cpu_seconds)"
    steal_before="$(steal_seconds)"
    echo "measuring (round $round of $ROUNDS): $label on ${NAMES[$key]} ($DURATION s, $CONNECTIONS connections)…" >&2
    "${WRK_CPU[@]}" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s -s "$HERE/$script" "$url" \
        -- "$data" "$mix" >"$WORK/wrk.out"
    after="$(cpu_seconds "${PIDS[$key]}")"
    pg_after="$(postgres_cpu_seconds)"
    steal_after="$(steal_seconds)"
    local line
    line="$(grep '^RESULT ' "$WORK/wrk.out" | sed 's/^RESULT //')" || { cat "$WORK/wrk.out" >&2; exit 70; }
    printf '{"round":%s,"label":"%s","target":"%s","server_cpu_s":%s,"postgres_cpu_s":%s,"steal_s":%s,"run":%s}\n' \
        "$round" "$label" "${NAMES[$key]}" "$(awk -v a="$before" -v b="$after" 'BEGIN { print b - a }')" \
        "$(awk -v a="$pg_before" -v b="$pg_after" 'BEGIN { print b - a }')" \
        "$(awk -v a="$steal_before" -v b="$steal_after" 'BEGIN { print b - a }')" "$line" >>"$WORK/results.jsonl"
}

SERVER_ARGS=(--port 0 --sqlite "$WORK/bazaar.sqlite" --bcrypt-cost 10 --no-quotas --access-token-lifetime 86400 --log-level error)

echo "starting bazaar-server (release, bcrypt cost 10, $PLACEMENT)…" >&2
start server "bazaar-server" "$WORK/data" "${SERVER_CPU[@]}" "$SERVER_BIN" "${SERVER_ARGS[@]}"
echo "seeding ${URLS[server]}…" >&2
python3 "$HERE/seed.py" "${URLS[server]}" "$WORK/data"
TARGETS=(server)

if [ -n "$POSTGRES" ]; then
    echo "starting bazaar-server on PostgreSQL (release, bcrypt cost 10, $PLACEMENT)…" >&2
    PG_ARGS=(--port 0 --postgres "$POSTGRES" --bcrypt-cost 10 --no-quotas --access-token-lifetime 86400 --log-level error)
    BAZAAR_SIGNING_KEY="$(head -c 32 /dev/urandom | base64)" \
        start server-pg "bazaar-server/postgres" "$WORK/data-pg" "${SERVER_CPU[@]}" "$SERVER_BIN" "${PG_ARGS[@]}"
    if [ "${#WRK_CPU[@]}" -gt 0 ]; then
        # PostgreSQL beside wrk on CPU 1 (new backends inherit the postmaster's affinity), so the
        # server has CPU 0 to itself, as the bare route does; unpinned, the database's background
        # work (checkpoints, autovacuum) also ran on the server's core.
        for pid in $(pgrep -x postgres || true); do taskset -pc 1 "$pid" >/dev/null 2>&1 || true; done
        echo "PostgreSQL pinned to CPU 1, beside wrk" >&2
    fi
    echo "seeding ${URLS[server-pg]}…" >&2
    python3 "$HERE/seed.py" "${URLS[server-pg]}" "$WORK/data-pg"
    TARGETS+=(server-pg)
fi

if [ "$BARE_BIN" != none ]; then
    BARE_ARGS=(--port 0 --body-file "$WORK/data/products.json" --product-file "$WORK/data/product.json"
        --messages-file "$WORK/data/messages.json" --message-file "$WORK/data/message.json"
        --login-file "$WORK/data/login.json")
    echo "starting bare-route (release, $PLACEMENT)…" >&2
    start bare "bare-route" "$WORK/data" "${SERVER_CPU[@]}" "$BARE_BIN" "${BARE_ARGS[@]}"
    TARGETS+=(bare)
    # The password is seed.py's, whose users' logins the mix sends.
    start bare-bcrypt "bare-route, bcrypt logins" "$WORK/data" "${SERVER_CPU[@]}" "$BARE_BIN" "${BARE_ARGS[@]}" \
        --login-bcrypt-cost 10 --login-password "$(sed -n 's/^PASSWORD = "\(.*\)"$/\1/p' "$HERE/seed.py")"
fi
MIX_TARGETS=("${TARGETS[@]}")
if [ "$BARE_BIN" != none ]; then MIX_TARGETS+=(bare-bcrypt); fi

# Rounds: each target runs each workload once per round, the order turned by one place each round,
# so the VM's drift (its speed moves by 10-30% within minutes) falls on the servers and the bare
# route alike; ratios are taken within a round and reported as their median. The servers all stay
# up, pinned to the same CPU; only the one measured has work. Product reads come before the mixes
# in each round (reads measured right after a mix's writes paid for their checkpoints).
for round in $(seq 1 "$ROUNDS"); do
    turn=$(((round - 1) % ${#TARGETS[@]}))
    order=("${TARGETS[@]:$turn}" "${TARGETS[@]:0:$turn}")
    for key in "${order[@]}"; do measure "$round" "product reads" "$key" products.lua; done
    turn=$(((round - 1) % ${#MIX_TARGETS[@]}))
    order=("${MIX_TARGETS[@]:$turn}" "${MIX_TARGETS[@]:0:$turn}")
    for key in "${order[@]}"; do measure "$round" "mix" "$key" mix.lua "$MIX"; done
done
# The product list does not change during the mix (it creates no products): check the recorded bytes still match.
python3 - "${URLS[server]}" "$WORK/data/products.json" <<'EOF'
import sys, urllib.request
now = urllib.request.urlopen(sys.argv[1] + "/v1/products?limit=20").read()
if now != open(sys.argv[2], "rb").read():
    sys.exit("run.sh: GET /v1/products?limit=20 changed during the mix; the comparison would be unfair")
EOF
measure 1 "sends" server mix.lua "send:1000"
stop server
if [ -n "$POSTGRES" ]; then
    measure 1 "sends" server-pg mix.lua "send:1000"
    stop server-pg
fi

# The same SQLite workloads with group commit off (--sqlite-max-batch 1: every write its own
# transaction and fsync, as before group commit), on a copy of the seeded database, once.
echo "starting bazaar-server with group commit off (--sqlite-max-batch 1)…" >&2
# The signing key goes along, so the tokens seed.py recorded stay valid.
cp "$WORK/bazaar.sqlite" "$WORK/single.sqlite"
cp "$WORK/bazaar.sqlite.signing-key" "$WORK/single.sqlite.signing-key"
SINGLE_ARGS=(--port 0 --sqlite "$WORK/single.sqlite" --sqlite-max-batch 1 --bcrypt-cost 10 --no-quotas
    --access-token-lifetime 86400 --log-level error)
start server-single "bazaar-server, no group commit" "$WORK/data" "${SERVER_CPU[@]}" "$SERVER_BIN" "${SINGLE_ARGS[@]}"
measure 1 "mix" server-single mix.lua "$MIX"
measure 1 "sends" server-single mix.lua "send:1000"
stop server-single

python3 - "$WORK/results.jsonl" "$DURATION" "$CONNECTIONS" "$PLACEMENT" "$MIX" "$ROUNDS" <<'EOF'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
duration, connections, placement, mix, rounds = sys.argv[2:7]
def per_request_ms(row, key):
    return row[key] / max(row["run"]["requests"], 1) * 1000
def ms(us): return f"{us / 1000:.2f}"
print(f"\nload: wrk -t1 -c{connections}, {duration} s per run after a warm-up, {rounds} alternating round(s), "
      f"{placement}; bazaar-server release, bcrypt cost 10")
print(f"mix weights: {mix}\n")
print("| round | workload | target | req/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | requests | non-2xx | socket errors | target CPU | CPU 0 stolen |")
print("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for row in rows:
    run = row["run"]
    errors = sum(run["socket_errors"].values())
    cpu = row["server_cpu_s"] / run["seconds"] * 100
    print(f"| {row['round']} | {row['label']} | {row['target']} | {run['rps']:.0f} | {ms(run['p50_us'])} | "
          f"{ms(run['p90_us'])} | {ms(run['p99_us'])} | {ms(run['p999_us'])} | {ms(run['max_us'])} | "
          f"{run['requests']} | {run['non2xx']} | {errors} | {cpu:.0f}% | {row['steal_s'] / run['seconds'] * 100:.0f}% |")
print()
for row in rows:
    run = row["run"]
    if run["statuses"]:
        detail = f"round {row['round']}, {row['label']} on {row['target']}: issued {run['issued']}, statuses {run['statuses']}"
    else:
        detail = f"round {row['round']}, {row['label']} on {row['target']}: static request, non-2xx = wrk's count of statuses >= 400"
    if run["first_failure"]:
        detail += f"; first non-2xx: {run['first_failure']}"
    if any(run["socket_errors"].values()):
        detail += f"; socket errors {run['socket_errors']}"
    print(detail)

def runs(label, target):
    """{round: row} of one workload on one target."""
    return {r["round"]: r for r in rows if (r["label"], r["target"]) == (label, target)}

def versus(label, target, yardstick="bare-route"):
    """The median over rounds of target's req/s over the yardstick's in the same round, and the range."""
    mine, bare = runs(label, target), runs(label, yardstick)
    ratios = [mine[n]["run"]["rps"] / bare[n]["run"]["rps"] for n in sorted(mine) if n in bare]
    return statistics.median(ratios), min(ratios), max(ratios), len(ratios)

def describe(label, target):
    mine = runs(label, target)
    rps = statistics.median(r["run"]["rps"] for r in mine.values())
    cpu = statistics.median(per_request_ms(r, "server_cpu_s") for r in mine.values())
    text = f"{label} on {target}: {rps:.0f} req/s (median), server CPU {cpu:.3f} ms per request"
    if runs(label, "bare-route"):
        median, low, high, n = versus(label, target)
        text += f"; {median:.2f} of the bare route (median of {n} round(s): {low:.2f}-{high:.2f})"
    if runs(label, "bare-route, bcrypt logins"):
        median, low, high, n = versus(label, target, "bare-route, bcrypt logins")
        text += f"; {median:.2f} of the bare route with bcrypt logins ({low:.2f}-{high:.2f})"
    return text

print()
if runs("product reads", "bare-route"):
    bare = runs("product reads", "bare-route")
    print(f"bare route: product reads {statistics.median(r['run']['rps'] for r in bare.values()):.0f} req/s, "
          f"mix {statistics.median(r['run']['rps'] for r in runs('mix', 'bare-route').values()):.0f} req/s (medians)")
    with_bcrypt = runs("mix", "bare-route, bcrypt logins")
    if with_bcrypt:
        print(f"bare route with bcrypt logins: mix {statistics.median(r['run']['rps'] for r in with_bcrypt.values()):.0f} req/s (median)")
for target in ("bazaar-server", "bazaar-server/postgres"):
    if runs("mix", target):
        print(describe("product reads", target))
        print(describe("mix", target))
single = runs("mix", "bazaar-server, no group commit")
if single and runs("mix", "bare-route"):
    bare_first = runs("mix", "bare-route")[1]["run"]["rps"]
    print(f"mix with group commit off, once: {single[1]['run']['rps']:.0f} req/s = "
          f"{single[1]['run']['rps'] / bare_first:.2f} of the first round's bare route")
pg_mix = runs("mix", "bazaar-server/postgres")
if pg_mix:
    # Cached reads touch no database: PostgreSQL's own CPU meanwhile (background work on wrk's core) is the suspect.
    pg_reads = runs("product reads", "bazaar-server/postgres")
    print(f"  postgres CPU during the product reads {statistics.median(r['postgres_cpu_s'] for r in pg_reads.values()):.2f} s, "
          f"during the mix {statistics.median(r['postgres_cpu_s'] for r in pg_mix.values()):.2f} s (medians)")
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
