#!/usr/bin/env bash
# Backups of a Bazaar PostgreSQL database, and restores: pg_dump and pg_restore, with the backup
# checked before it takes its name.
#
#   scripts/postgres-backup.sh backup URL FILE    # pg_dump (custom format) to FILE.partial while the
#                                                 # replicas serve; restored into a scratch database
#                                                 # on the same server to check it and count what it
#                                                 # holds; then renamed to FILE. Killed anywhere, it
#                                                 # leaves no FILE.
#   scripts/postgres-backup.sh restore FILE URL   # pg_restore into URL's database, which must be
#                                                 # empty (a restore never replaces data); then start
#                                                 # the replicas on it.
#   scripts/postgres-backup.sh check              # the recipe end to end (CI runs it): a server with
#                                                 # data, a backup while it sends, a restore into a fresh
#                                                 # database, a server on it. Needs BAZAAR_TEST_POSTGRES_URL
#                                                 # (scripts/with-postgres.sh) and a built bazaar-server.
#
# pg_dump takes one consistent snapshot (a repeatable-read transaction), so every transaction
# committed before it began is in the backup, whatever the replicas write meanwhile. Photos are
# rows: they are in it. The signing key is not in the database: keep BAZAAR_SIGNING_KEY with the
# backup (without it, everyone signs in again after a restore).
set -euo pipefail
PGBIN="${PGBIN:-/usr/lib/postgresql/15/bin}"
export PGOPTIONS="${PGOPTIONS:---client-min-messages=warning}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"

# The same URL with another database name.
with_database() { echo "${1%/*}/$2"; }

counts() {
    "$PGBIN/psql" "$1" -qtAX -c "SELECT (SELECT count(*) FROM users) || ' users, ' || (SELECT count(*) FROM products)
        || ' products, ' || (SELECT count(*) FROM conversations) || ' conversations, ' || (SELECT count(*) FROM messages)
        || ' messages, ' || (SELECT count(DISTINCT photo_id) FROM photo_sizes) || ' photos'"
}

backup() {
    local url="$1" file="$2"
    local partial="$file.partial" scratch="bazaar_backup_check_$$"
    rm -f "$partial"
    "$PGBIN/pg_dump" --format=custom --no-owner --file="$partial" "$url"
    "$PGBIN/psql" "$url" -qX -c "CREATE DATABASE $scratch" >/dev/null
    trap '"$PGBIN/psql" "$url" -qX -c "DROP DATABASE IF EXISTS '"$scratch"'" >/dev/null 2>&1 || true' RETURN
    "$PGBIN/pg_restore" --no-owner --exit-on-error --dbname="$(with_database "$url" "$scratch")" "$partial"
    local holds
    holds="$(counts "$(with_database "$url" "$scratch")")"
    sync "$partial"
    mv "$partial" "$file"
    echo "backup written to $file and checked by a restore: $holds ($(du -h "$file" | cut -f1))"
}

restore() {
    local file="$1" url="$2"
    "$PGBIN/pg_restore" --list "$file" >/dev/null || { echo "postgres-backup: $file is not a pg_dump archive" >&2; exit 65; }
    local tables
    tables="$("$PGBIN/psql" "$url" -qtAX -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")"
    [ "$tables" = 0 ] || { echo "postgres-backup: the database has $tables tables; restore into an empty one" >&2; exit 65; }
    "$PGBIN/pg_restore" --no-owner --exit-on-error --dbname="$url" "$file"
    echo "restored $file: $(counts "$url")"
}

check() {
    : "${BAZAAR_TEST_POSTGRES_URL:?run it through scripts/with-postgres.sh}"
    local bin="${BAZAAR_SERVER_BINARY:-$ROOT/.build/debug/bazaar-server}" live restored
    # Global, for the EXIT trap.
    pid=""
    work="$(mktemp -d)"
    trap 'if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
    # shellcheck source=start-server.sh
    source "$ROOT/scripts/start-server.sh"
    live="$(with_database "$BAZAAR_TEST_POSTGRES_URL" backup_live)"
    restored="$(with_database "$BAZAAR_TEST_POSTGRES_URL" backup_restored)"
    "$PGBIN/psql" "$BAZAAR_TEST_POSTGRES_URL" -qX -c "DROP DATABASE IF EXISTS backup_live" \
        -c "DROP DATABASE IF EXISTS backup_restored" -c "CREATE DATABASE backup_live" -c "CREATE DATABASE backup_restored"
    export BAZAAR_SIGNING_KEY="${BAZAAR_SIGNING_KEY:-$(head -c 32 /dev/urandom | base64)}"
    start_server "$work/out" "$work/err" "$bin" --port 0 --postgres "$live" --seed-demo --bcrypt-cost 4 --no-quotas
    pid="$SERVER_STARTED_PID"
    python3 "$ROOT/scripts/postgres-backup-check.py" --server "$SERVER_STARTED_URL" \
        --backup "$ROOT/scripts/postgres-backup.sh backup $live $work/bazaar.dump" --out "$work/before.json"
    kill "$pid"; wait "$pid" || true; pid=""
    restore "$work/bazaar.dump" "$restored"
    start_server "$work/out2" "$work/err2" "$bin" --port 0 --postgres "$restored" --bcrypt-cost 4
    pid="$SERVER_STARTED_PID"
    python3 "$ROOT/scripts/postgres-backup-check.py" --server "$SERVER_STARTED_URL" --verify "$work/before.json"
}

case "${1:-}" in
    backup) [ $# = 3 ] || { echo "usage: postgres-backup.sh backup URL FILE" >&2; exit 64; }; backup "$2" "$3" ;;
    restore) [ $# = 3 ] || { echo "usage: postgres-backup.sh restore FILE URL" >&2; exit 64; }; restore "$2" "$3" ;;
    check) check ;;
    *) sed -n '2,22p' "$0"; exit 64 ;;
esac
