#!/usr/bin/env bash
# Fuzzes a real bazaar-server against openapi.yaml with schemathesis (pip install schemathesis).
#
# Builds bazaar-server, starts it on a free port with a temporary database and demo data, signs
# in as a demo user so authenticated routes are exercised too, and runs schemathesis with every
# check (--checks all: server errors, conformance of status, content type, headers and body,
# schema-valid requests accepted and schema-invalid ones refused, auth not ignored, deleted
# resources gone...) in every phase, the stateful one included. Fails on any finding, or when
# fewer than MIN_CASES test cases ran. scripts/schemathesis.toml lists the answers that are
# right although the request fits the schema. The fuzzer's token cannot be revoked: logout runs
# separately, with a second session.
#
# Environment: MAX_EXAMPLES (per operation, default 60), MIN_CASES (default 300), SEED, CHECKS (default all),
# POSTGRES_URL (run the server on that PostgreSQL database instead of a temporary SQLite file; CI
# runs both: scripts/with-postgres.sh bash -c 'POSTGRES_URL="$BAZAAR_TEST_POSTGRES_URL" scripts/schemathesis.sh').
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"

MAX_EXAMPLES="${MAX_EXAMPLES:-60}"
MIN_CASES="${MIN_CASES:-300}"
SEED="${SEED:-$RANDOM}"
CHECKS="${CHECKS:-all}"

command -v schemathesis >/dev/null || { echo "schemathesis is not installed: pip install schemathesis" >&2; exit 2; }

# --build-tests matches what `swift test` built, so after the tests this is a no-op.
BIN="${BAZAAR_SERVER_BINARY:-}"
if [ -z "$BIN" ]; then
    swift build --build-tests
    BIN="$(swift build --show-bin-path)/bazaar-server"
fi

WORK="$(mktemp -d)"
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill -TERM "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# The run signs in before fuzzing starts, so the fuzzer's failed logins (throttled with 429) do not matter.
source scripts/start-server.sh
if [ -n "${POSTGRES_URL:-}" ]; then
    DATABASE=(--postgres "$POSTGRES_URL")
    # Replicas share a key from the environment; one server here, so any random one.
    BAZAAR_SIGNING_KEY="$(head -c 32 /dev/urandom | base64)"
    export BAZAAR_SIGNING_KEY
else
    DATABASE=(--sqlite "$WORK/bazaar.sqlite")
fi
start_server "$WORK/stdout" "$WORK/stderr" "$BIN" --port 0 "${DATABASE[@]}" --seed-demo --bcrypt-cost 4 \
    --access-token-lifetime 3600 --no-quotas --log-level warning
SERVER_PID="$SERVER_STARTED_PID"
URL="$SERVER_STARTED_URL"
echo "== bazaar-server at $URL on ${DATABASE[0]#--} (seed $SEED)"

login() {
    curl -fsS -X POST "$URL/v1/auth/login" -H 'Content-Type: application/json' \
        -d "{\"username\":\"$1\",\"password\":\"bazaar-demo\"}" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["tokens"]["accessToken"])'
}
TOKEN="$(login ada)"
LOGOUT_TOKEN="$(login bob)"
END_SESSION_TOKEN="$(login bob)"

run() {
    # From the temporary directory, so schemathesis' caches stay out of the repository.
    (cd "$WORK" && schemathesis --config-file "$ROOT/scripts/schemathesis.toml" run "$ROOT/openapi.yaml" --url "$URL" \
        --checks "$CHECKS" --seed "$SEED" --no-color \
        --suppress-health-check all --request-timeout 30 "$@") 2>&1 | tee -a "$WORK/schemathesis.log"
    return "${PIPESTATUS[0]}"
}

status=0
# Everything but what ends the fuzzer's own session, with Ada's token: logout, and ending a
# session by id (the stateful phase would feed it the id `GET /v1/users/me/sessions` lists).
run -H "Authorization: Bearer $TOKEN" --max-examples "$MAX_EXAMPLES" \
    --exclude-operation-id logout --exclude-operation-id endSession || status=$?
# Logout on its own, with a second session.
run -H "Authorization: Bearer $LOGOUT_TOKEN" --max-examples 5 \
    --include-operation-id logout || status=$?
# Ending a session by id on its own, with a third.
run -H "Authorization: Bearer $END_SESSION_TOKEN" --max-examples 10 \
    --include-operation-id endSession || status=$?

# Sum the "N generated" of every run's summary.
CASES="$(grep -oE '^ *[0-9]+ generated' "$WORK/schemathesis.log" | awk '{ sum += $1 } END { print sum + 0 }')"
echo "== schemathesis exit status $status; test cases generated: $CASES (minimum $MIN_CASES)"
if [ "$CASES" -lt "$MIN_CASES" ]; then echo "too few test cases" >&2; status=1; fi

if grep -q "Fatal error\|panicked" "$WORK/stderr"; then cat "$WORK/stderr" >&2; status=1; fi
kill -0 "$SERVER_PID" 2>/dev/null || { echo "bazaar-server died during the run" >&2; status=1; }
exit "$status"
