# Sourced by the scripts that run a server in the background and talk to it (benchmarks,
# schemathesis). Defines one function:
#
#   start_server OUT ERR COMMAND [ARGS...]
#
# Runs COMMAND in the background with stdout to OUT and stderr to ERR, waits up to 20 s for the
# http:// URL it prints when it listens, and sets SERVER_STARTED_PID and SERVER_STARTED_URL. When
# the process stops first or prints no URL in time, prints its stderr and exits 70.
start_server() {
    local out="$1" err="$2"
    shift 2
    "$@" >"$out" 2>"$err" &
    SERVER_STARTED_PID=$!
    SERVER_STARTED_URL=""
    for _ in $(seq 1 400); do
        SERVER_STARTED_URL="$(grep -o 'http://[^ ]*' "$out" 2>/dev/null | head -1 || true)"
        [ -n "$SERVER_STARTED_URL" ] && return 0
        kill -0 "$SERVER_STARTED_PID" 2>/dev/null || break
        sleep 0.05
    done
    echo "$(basename "$0"): did not start: $*" >&2
    cat "$err" >&2
    exit 70
}
