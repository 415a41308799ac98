#!/usr/bin/env bash
# The catalogue at scale: for each backend and size, fills a fresh database with bazaar-datagen,
# serves it with a release bazaar-server, and times its routes (Benchmarks/scale/measure.py):
# product list, search (a common word, a rare word, no hits, with a filter), product detail, a
# product photo and message history, each p50 and p99 over REQUESTS sequential requests that the response cache
# cannot answer, beside the old LIKE search's SQL on the same data. Results go to
# Benchmarks/scale/results.jsonl (and the generator's times and database sizes to
# Benchmarks/scale/generation.jsonl); Benchmarks/scale/plot.py draws them.
#
#   Benchmarks/scale/run.sh                                   # 10k, 100k and 1M on SQLite and PostgreSQL
#   Benchmarks/scale/run.sh --sizes 10000,100000 --backends sqlite --requests 100
#   Benchmarks/scale/run.sh --sizes 1000000 --sold-shares 0,0.6 --tag sold   # the same catalogue, 60% of it sold
#
# --tag NAME writes results-NAME.jsonl and generation-NAME.jsonl instead (keeping the others).
#
# PostgreSQL runs in a throwaway cluster (scripts/with-postgres.sh; fsync off, which changes
# nothing for reads). Needs python3 with requests; a million products take about 3 minutes to
# generate on each backend.
set -euo pipefail

SIZES="10000,100000,1000000"
BACKENDS="sqlite,postgres"
REQUESTS=200
SHARES="0"
TAG=""
while [ $# -gt 0 ]; do
    case "$1" in
        --sizes) SIZES="$2"; shift 2 ;;
        --backends) BACKENDS="$2"; shift 2 ;;
        --requests) REQUESTS="$2"; shift 2 ;;
        --sold-shares) SHARES="$2"; shift 2 ;;
        --tag) TAG="$2"; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown option $1 (try --help)" >&2; exit 64 ;;
    esac
done

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
cd "$ROOT"
RESULTS="$HERE/results${TAG:+-$TAG}.jsonl"
GENERATION="$HERE/generation${TAG:+-$TAG}.jsonl"

if [ -z "${BAZAAR_SCALE_INNER:-}" ]; then
    echo "building bazaar-server and bazaar-datagen (release)…" >&2
    swift build -c release --product bazaar-server >&2
    swift build -c release --product bazaar-datagen >&2
    : > "$RESULTS"
    : > "$GENERATION"
    if [[ ",$BACKENDS," == *",postgres,"* ]]; then
        BAZAAR_SCALE_INNER=1 exec scripts/with-postgres.sh "$0" --sizes "$SIZES" --backends "$BACKENDS" \
            --requests "$REQUESTS" --sold-shares "$SHARES" ${TAG:+--tag "$TAG"}
    fi
    export BAZAAR_SCALE_INNER=1
fi

BIN="$(swift build -c release --show-bin-path)"
WORK="$(mktemp -d)"
CHILD=""
cleanup() {
    if [ -n "$CHILD" ]; then kill "$CHILD" 2>/dev/null || true; wait "$CHILD" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# serve ARGS…: starts bazaar-server on a free port; sets CHILD and URL.
source "$ROOT/scripts/start-server.sh"
serve() {
    start_server "$WORK/server.out" "$WORK/server.err" "$BIN/bazaar-server" --port 0 --no-quotas --log-level error "$@"
    CHILD="$SERVER_STARTED_PID"
    URL="$SERVER_STARTED_URL"
}

# record BACKEND SIZE LOG SHARE: the generator's summary as one JSON line.
record() {
    python3 - "$1" "$2" "$3" "$4" >>"$GENERATION" <<'EOF'
import json, re, sys
backend, size, log, share = sys.argv[1], int(sys.argv[2]), open(sys.argv[3]).read(), float(sys.argv[4])
total = re.search(r"total: +([0-9.]+) s; database ([0-9.]+) MiB", log)
products = re.search(r"products: +\d+ with (\d+) photos in ([0-9.]+) s", log)
print(json.dumps({"backend": backend, "products": size, "sold_share": share, "seconds": float(total.group(1)),
                  "product_seconds": float(products.group(2)), "photos": int(products.group(1)),
                  "database_mib": float(total.group(2))}))
EOF
}

IFS=',' read -r -a sizes <<<"$SIZES"
IFS=',' read -r -a backends <<<"$BACKENDS"
IFS=',' read -r -a shares <<<"$SHARES"
for backend in "${backends[@]}"; do
    for size in "${sizes[@]}"; do
        for share in "${shares[@]}"; do
            echo "== $backend, $size products, $share of them sold" >&2
            if [ "$backend" = sqlite ]; then
                database="$WORK/catalogue-$size.sqlite"
                "$BIN/bazaar-datagen" --products "$size" --sold-share "$share" --sqlite "$database" 2>/dev/null \
                    | tee "$WORK/generate.log" >&2
                record "$backend" "$size" "$WORK/generate.log" "$share"
                serve --sqlite "$database"
                python3 "$HERE/measure.py" --server "$URL" --backend sqlite --products "$size" --sold-share "$share" \
                    --sqlite "$database" --requests "$REQUESTS" --out "$RESULTS"
                kill "$CHILD"; wait "$CHILD" 2>/dev/null || true; CHILD=""
                rm -f "$database" "$database"-*
            else
                name="scale_$size"
                base="${BAZAAR_TEST_POSTGRES_URL%/*}"
                psql "$BAZAAR_TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name"
                database="$base/$name"
                "$BIN/bazaar-datagen" --products "$size" --sold-share "$share" --postgres "$database" 2>/dev/null \
                    | tee "$WORK/generate.log" >&2
                record "$backend" "$size" "$WORK/generate.log" "$share"
                BAZAAR_SIGNING_KEY="$(head -c 32 /dev/urandom | base64)" serve --postgres "$database"
                python3 "$HERE/measure.py" --server "$URL" --backend postgres --products "$size" --sold-share "$share" \
                    --postgres "$database" --requests "$REQUESTS" --out "$RESULTS"
                kill "$CHILD"; wait "$CHILD" 2>/dev/null || true; CHILD=""
                psql "$BAZAAR_TEST_POSTGRES_URL" -qc "DROP DATABASE $name"
            fi
        done
    done
done
echo "results: $RESULTS, $GENERATION (plot with Benchmarks/scale/plot.py)" >&2
