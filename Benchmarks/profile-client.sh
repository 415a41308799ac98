#!/usr/bin/env bash
# The client's cost per request for the product-page GET, through the kit and through raw
# AsyncHTTPClient: CPU time of the client process per request (the server is a separate process),
# split at the kit's transport and measured again with no network under the kit, then raw and the
# stack with 32 requests in flight (the concurrent benchmark's shape), then a
# `perf record` profile of the kit's path naming where its extra time goes. The stack/raw ratio
# itself comes from alternating rounds in one process (`--against raw`), reported as the median,
# and is then split link by link (transport, pipeline, APIClient, session) the same way.
#
#   Benchmarks/profile-client.sh [REQUESTS]      # default 3000
set -euo pipefail
cd "$(dirname "$0")"
N="${1:-3000}"
(cd .. && swift build -c release --product bazaar-server 2>&1 | tail -1)
swift build -c release --product client-profile 2>&1 | tail -1
BIN="$(swift build -c release --show-bin-path)/client-profile"

# The kit's cost split in two: over the network (raw → the kit's transport → the whole stack),
# and with no network at all (JSONDecoder alone → the whole stack over a recorded answer).
for round in 1 2; do
    for path in raw transport stack; do "$BIN" --path "$path" --requests "$N"; done
done
for path in decode layers; do "$BIN" --path "$path" --requests $((N * 5)); done
# The benchmark's concurrent figure: 32 requests in flight at a time, on both paths.
for round in 1 2; do
    for path in raw stack; do "$BIN" --path "$path" --requests $((N * 2)) --concurrency 32 --warmup 320; done
done

# The stack against raw in alternating rounds in one process, so the machine's drift falls on both:
# the median throughput ratio, sequential and 32 concurrent (the benchmark's two Page GET figures).
"$BIN" --path stack --against raw --requests "$N" --rounds 7
# The same against AsyncHTTPClient's API whose deadline covers the body, as the kit's timeout does
# (the async `execute` above stops its deadline at the head), and the two yardsticks against each other.
"$BIN" --path stack --against raw-bounded --requests "$N" --rounds 7 | tail -1
"$BIN" --path raw-bounded --against raw --requests "$N" --rounds 7 | tail -1
# The same gap split link by link, each path against the one it adds to: the transport over raw
# AsyncHTTPClient, the performer's pipeline, the APIClient (builder, typed decode), the session.
for pair in "transport raw" "performer transport" "client performer" "stack client"; do
    set -- $pair
    "$BIN" --path "$1" --against "$2" --requests "$N" --rounds 7 | tail -1
done
"$BIN" --path stack --against raw --requests $((N * 2)) --concurrency 32 --warmup 320 --rounds 7

if command -v perf >/dev/null && perf record -o /dev/null -q true 2>/dev/null; then
    DATA="$(mktemp)"
    trap 'rm -f "$DATA"' EXIT
    line="$(perf record -q -F 1999 -g -o "$DATA" -- "$BIN" --path stack --requests "$N" 2>/dev/null)"
    echo "$line"
    pid="$(echo "$line" | grep -o 'pid [0-9]*' | awk '{ print $2 }')"
    echo
    echo "== the kit's path: hottest symbols in the client process (self time, perf cpu-clock samples)"
    perf report -i "$DATA" --pid "$pid" --no-children --sort symbol --stdio 2>/dev/null |
        grep -E '^ +[0-9]' | head -30
else
    echo "(perf not available: apt-get install -y linux-perf for the profile)"
fi
