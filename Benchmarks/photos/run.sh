#!/usr/bin/env bash
# What photos cost a release bazaar-server on SQLite: upload time and CPU per photo, memory during
# sixteen simultaneous 5 MiB uploads, thumbnail throughput beside a product-list GET
# (Benchmarks/photos/measure.py says what is timed). Results go to Benchmarks/photos/results.jsonl.
#
#   Benchmarks/photos/run.sh                                  # 40 uploads, 4 bursts of 16, 10 s of wrk each
#   Benchmarks/photos/run.sh --uploads 8 --rounds 1 --duration 2 --bin .build/debug --out /tmp/photos.jsonl
#
# Needs python3 with requests and playwright (Debian's chromium draws the photos) and wrk.
set -euo pipefail

UPLOADS=40
ROUNDS=4
DURATION=10
BIN=""
OUT=""
JOBS=""
while [ $# -gt 0 ]; do
    case "$1" in
        --uploads) UPLOADS="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --max-photo-jobs) JOBS="$2"; shift 2 ;;
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
if [ -z "$BIN" ]; then
    echo "building bazaar-server (release)…" >&2
    swift build -c release --product bazaar-server >&2
    BIN="$(swift build -c release --show-bin-path)"
fi

WORK="$(mktemp -d)"
CHILD=""
cleanup() {
    if [ -n "$CHILD" ]; then kill "$CHILD" 2>/dev/null || true; wait "$CHILD" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
source "$ROOT/scripts/start-server.sh"

start_server "$WORK/out" "$WORK/err" "$BIN/bazaar-server" --port 0 --no-quotas --bcrypt-cost 4 --log-level error \
    --sqlite "$WORK/photos.sqlite" ${JOBS:+--max-photo-jobs "$JOBS"}
CHILD="$SERVER_STARTED_PID"
python3 "$HERE/measure.py" --server "$SERVER_STARTED_URL" --server-pid "$CHILD" --uploads "$UPLOADS" \
    --rounds "$ROUNDS" --duration "$DURATION" --out "$OUT"
