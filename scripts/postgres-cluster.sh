#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster on 127.0.0.1, for tests and benchmarks (never for data you keep).
#
#   scripts/postgres-cluster.sh init DIR PORT    # initdb into DIR (created; fsync off), then start on PORT
#                                                # (PORT "auto": a free one, written to DIR/port)
#   scripts/postgres-cluster.sh start DIR        # start an initialised cluster again (same port)
#   scripts/postgres-cluster.sh stop DIR         # stop at once (pg_ctl -m immediate): a crash, as far as clients know
#   scripts/postgres-cluster.sh destroy DIR      # stop if running, then remove DIR
#
# fsync is off (fast; a crash of the server process loses nothing, a crash of the machine could),
# synchronous_commit stays on, so a commit that answered survives `stop`. PG_DURABLE=1 at init
# keeps fsync and full-page writes on (for benchmarks that compare against SQLite's fsync).
#
# PostgreSQL refuses to run as root, so as root (CI) the server runs as the `postgres` user through
# runuser, and DIR must be somewhere that user can enter (under /tmp or /dev/shm). Prints nothing on success
# except what pg_ctl says; the connection URL is postgres://postgres@127.0.0.1:PORT/postgres.
set -euo pipefail

PGBIN="${PGBIN:-/usr/lib/postgresql/15/bin}"
[ -x "$PGBIN/initdb" ] || { echo "postgres-cluster: $PGBIN/initdb not found (apt-get install -y postgresql-15)" >&2; exit 2; }

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

SELF="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
command="${1:-}"
dir="${2:-}"
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: postgres-cluster.sh init|start|stop|destroy DIR [PORT]" >&2; exit 64; }
dir="$(realpath -m "$dir")"
# pg_ctl as the postgres user must be able to enter the working directory.
cd /tmp

case "$command" in
init)
    port="${3:?usage: postgres-cluster.sh init DIR PORT}"
    if [ "$port" = auto ]; then
        port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    fi
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_owner "$PGBIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log"
    echo "$port" >"$dir/port"
    if [ "${PG_DURABLE:-0}" = 1 ]; then echo "-c fsync=on -c full_page_writes=on" >"$dir/options"
    else echo "-c fsync=off -c full_page_writes=off" >"$dir/options"; fi
    "$SELF" start "$dir"
    ;;
start)
    port="$(cat "$dir/port")"
    # The server outlives this script: it must not keep a caller's descriptors open (a caller
    # waiting for EOF on a pipe, as Foundation's Process does to see its child exit, would hang).
    for fd in /proc/$$/fd/*; do
        n="${fd##*/}"
        if [ "$n" -gt 2 ] 2>/dev/null; then eval "exec $n>&-" 2>/dev/null || true; fi
    done
    as_owner "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -s -o \
        "-c listen_addresses=127.0.0.1 -p $port -k $dir $(cat "$dir/options") -c max_connections=300" \
        start
    ;;
stop)
    as_owner "$PGBIN/pg_ctl" -D "$dir/data" -m immediate -w -s stop
    ;;
destroy)
    if [ -f "$dir/data/postmaster.pid" ]; then as_owner "$PGBIN/pg_ctl" -D "$dir/data" -m immediate -w -s stop || true; fi
    rm -rf "$dir"
    ;;
*)
    echo "postgres-cluster: unknown command $command" >&2; exit 64
    ;;
esac
