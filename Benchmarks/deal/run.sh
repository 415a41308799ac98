#!/usr/bin/env bash
# What an offer accept costs on each engine, beside a message send in the same run
# (Benchmarks/deal/measure.py says what is timed). Results go to Benchmarks/deal/results.jsonl.
#
#   Benchmarks/deal/run.sh                 # 300 accepts on SQLite and on PostgreSQL (fsync on)
#   Benchmarks/deal/run.sh --count 10 --bin .build/debug --out /tmp/deal.jsonl   # the smoke form CI runs
#
# Builds a release bazaar-server; PostgreSQL runs in a throwaway cluster (scripts/with-postgres.sh,
# PG_DURABLE=1: commits wait for the disk, as in production). Needs python3 with requests.
set -euo pipefail

COUNT=300
BIN=""
OUT=""
while [ $# -gt 0 ]; do
    case "$1" in
        --count) COUNT="$2"; shift 2 ;;
        --bin) BIN="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown option $1 (try --help)" >&2; exit 64 ;;
    esac
done

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
cd "$ROOT"

OUT="${OUT:-$HERE/results.jsonl}"
if [ -z "${BAZAAR_DEAL_INNER:-}" ]; then
    if [ -z "$BIN" ]; then
        echo "building bazaar-server (release)…" >&2
        swift build -c release --product bazaar-server >&2
        BIN="$(swift build -c release --show-bin-path)"
    fi
    : > "$OUT"
    BAZAAR_DEAL_INNER=1 PG_DURABLE=1 exec scripts/with-postgres.sh "$0" --count "$COUNT" --bin "$BIN" --out "$OUT"
fi

WORK="$(mktemp -d)"
CHILD=""
cleanup() {
    if [ -n "$CHILD" ]; then kill "$CHILD" 2>/dev/null || true; wait "$CHILD" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
source "$ROOT/scripts/start-server.sh"

for backend in sqlite postgres; do
    if [ "$backend" = sqlite ]; then
        start_server "$WORK/out" "$WORK/err" "$BIN/bazaar-server" --port 0 --no-quotas --bcrypt-cost 4 \
            --log-level error --sqlite "$WORK/deal.sqlite"
    else
        psql "$BAZAAR_TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS deal" -c "CREATE DATABASE deal"
        BAZAAR_SIGNING_KEY="$(head -c 32 /dev/urandom | base64)" start_server "$WORK/out" "$WORK/err" \
            "$BIN/bazaar-server" --port 0 --no-quotas --bcrypt-cost 4 --log-level error \
            --postgres "${BAZAAR_TEST_POSTGRES_URL%/*}/deal"
    fi
    CHILD="$SERVER_STARTED_PID"
    python3 "$HERE/measure.py" --server "$SERVER_STARTED_URL" --server-pid "$CHILD" --backend "$backend" \
        --count "$COUNT" --out "$OUT"
    kill "$CHILD"; wait "$CHILD" 2>/dev/null || true; CHILD=""
done
echo "results: $OUT" >&2
