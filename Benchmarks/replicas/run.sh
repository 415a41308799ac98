#!/usr/bin/env bash
# Live fan-out on SQLite, on PostgreSQL, and across two PostgreSQL replicas, in one run.
#
#   PG_DURABLE=1 scripts/with-postgres.sh Benchmarks/replicas/run.sh [--clients 100] [--messages 2000]
#
# Needs BAZAAR_TEST_POSTGRES_URL (scripts/with-postgres.sh sets it; PG_DURABLE=1 keeps fsync on so
# PostgreSQL commits pay for durability as SQLite's synchronous=FULL does). Builds bazaar-server and
# fanout in release mode, then runs `fanout` three times with the same options:
#   1. against a server it starts on a temporary SQLite file (the yardstick);
#   2. against replica A on PostgreSQL, sockets on A too;
#   3. sending through replica A, sockets on replica B: the cross-replica latency (send on A,
#      NOTIFY, B reads the event and writes the frame).
# Each database gets a new PostgreSQL database of its own so the runs do not share rows.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BENCH="$(dirname "$HERE")"
ROOT="$(dirname "$BENCH")"
[ -n "${BAZAAR_TEST_POSTGRES_URL:-}" ] || { echo "run.sh: run through scripts/with-postgres.sh" >&2; exit 64; }
FANOUT_ARGS=("$@")

(cd "$ROOT" && swift build -c release --product bazaar-server >&2)
(cd "$BENCH" && swift build -c release --product fanout >&2)
SERVER_BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)/bazaar-server"
FANOUT_BIN="$(cd "$BENCH" && swift build -c release --show-bin-path)/fanout"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/bazaar-replicas.XXXXXX")"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

source "$ROOT/scripts/start-server.sh"
# start NAME URL: a release replica on PostgreSQL database URL; sets REPLICA_URL.
start_replica() {
    local name="$1" database="$2"
    start_server "$WORK/$name.out" "$WORK/$name.err" \
        env BAZAAR_SIGNING_KEY="$KEY" "$SERVER_BIN" --port 0 --postgres "$database" --bcrypt-cost 4 --log-level error
    PIDS+=("$SERVER_STARTED_PID")
    REPLICA_URL="$SERVER_STARTED_URL"
}

KEY="$(head -c 32 /dev/urandom | base64)"
DATABASE="${BAZAAR_TEST_POSTGRES_URL%/*}/bazaar_fanout"
psql "$BAZAAR_TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS bazaar_fanout" -c "CREATE DATABASE bazaar_fanout"

echo "== fanout on SQLite (a server of its own)"
BAZAAR_SERVER_BINARY="$SERVER_BIN" "$FANOUT_BIN" --no-build "${FANOUT_ARGS[@]}"

start_replica a "$DATABASE"; A="$REPLICA_URL"
start_replica b "$DATABASE"; B="$REPLICA_URL"
echo "== fanout on PostgreSQL, one replica ($A)"
"$FANOUT_BIN" --server-url "$A" "${FANOUT_ARGS[@]}"
echo "== fanout across replicas: sent to A ($A), sockets on B ($B)"
"$FANOUT_BIN" --server-url "$A" --socket-url "$B" "${FANOUT_ARGS[@]}"
