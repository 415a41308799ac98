#!/usr/bin/env bash
# WebSocket fan-out of the current sources beside an earlier revision's, in one run: builds both
# release servers (the earlier one in a git worktree under /tmp), then runs `fanout` against each
# in turn, before then after, at every socket count given.
#
#   Benchmarks/fanout/compare.sh d4edf02                 # 1000 and 10000 sockets
#   Benchmarks/fanout/compare.sh d4edf02 100 1000        # other counts
#
# Extra fanout options go in FANOUT_OPTIONS (for example "--messages 1000").
set -euo pipefail
cd "$(dirname "$0")/../.."
before=${1:?usage: Benchmarks/fanout/compare.sh REVISION [SOCKETS...]}
shift
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1000 10000)

worktree=/tmp/bazaar-before-$(git rev-parse --short "$before")
if [ ! -d "$worktree" ]; then git worktree add -f "$worktree" "$before" >/dev/null; fi
(cd "$worktree" && swift build -c release --product bazaar-server)
swift build -c release --product bazaar-server
(cd Benchmarks && swift build -c release --product fanout)

for count in "${counts[@]}"; do
    for side in before after; do
        if [ "$side" = before ]; then binary=$worktree/.build/release/bazaar-server; else binary=$PWD/.build/release/bazaar-server; fi
        echo "== $count sockets, $side ($binary)"
        # shellcheck disable=SC2086
        BAZAAR_SERVER_BINARY=$binary Benchmarks/.build/release/fanout --clients "$count" --no-build ${FANOUT_OPTIONS:-}
    done
done
